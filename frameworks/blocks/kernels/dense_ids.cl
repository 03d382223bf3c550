/* Dense ids (frameworks/blocks/dense_ids.h): the ids in [0, n) that a list of
 * keys uses, numbered densely in id order. dense_ids_mark flags each id a key
 * names (ids[key] = 1, the buffer zeroed first; equal writes may race); the
 * host scans the flags (scan.cl), so ids[i] is the number of used ids below i
 * and ids[n] their total; dense_ids_renumber replaces each key by its dense
 * id; dense_ids_compact copies each used item (`words` u32 each) to its dense
 * place. */
#include "harness/dialect/dialect.h"

KERNEL dense_ids_mark(GLOBAL const u32* keys, u32 count, GLOBAL u32* ids) {
  const u32 i = GLOBAL_ID;
  if (i < count) ids[keys[i]] = 1u;
}

KERNEL dense_ids_renumber(GLOBAL u32* keys, u32 count, GLOBAL const u32* ids) {
  const u32 i = GLOBAL_ID;
  if (i < count) keys[i] = ids[keys[i]];
}

KERNEL dense_ids_compact(GLOBAL const u32* items, u32 words, u32 n, GLOBAL const u32* ids,
                         GLOBAL u32* out) {
  const u32 i = GLOBAL_ID;
  if (i >= n || ids[i + 1u] == ids[i]) return;
  for (u32 w = 0; w < words; ++w) out[ids[i] * words + w] = items[i * words + w];
}
