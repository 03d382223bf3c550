/* Exclusive prefix sum of u32, in place, for any length: each work-group scans
 * SCAN_TILE elements and writes its total; the totals are scanned recursively
 * (host-driven, see scan.cpp) and added back. Work-groups of SCAN_GROUP items.
 * A sum that wraps past 2^32 - 1 sets *overflow to 1 (every partial sum is at
 * most the total, so this happens exactly when the total does not fit 32 bits). */
#include "harness/dialect/dialect.h"

#define SCAN_GROUP 256
#define SCAN_PER_ITEM 4
#define SCAN_TILE (SCAN_GROUP * SCAN_PER_ITEM)

KERNEL scan_tiles(GLOBAL u32* data, u32 n, GLOBAL u32* tile_sums, GLOBAL u32* overflow) {
  LOCAL_ARRAY(u32, partial, 2 * SCAN_GROUP);
  u32 lid = LOCAL_ID;
  u32 base = GROUP_ID * SCAN_TILE + lid * SCAN_PER_ITEM;
  u32 v[SCAN_PER_ITEM];
  u32 sum = 0, wrapped = 0;
  for (u32 k = 0; k < SCAN_PER_ITEM; ++k) {
    v[k] = (base + k < n) ? data[base + k] : 0u;
    sum += v[k];
    wrapped |= sum < v[k];
  }
  /* Hillis-Steele inclusive scan of the items' sums, double-buffered. */
  u32 in = 0;
  partial[lid] = sum;
  BARRIER_LOCAL();
  for (u32 offset = 1; offset < SCAN_GROUP; offset <<= 1) {
    u32 out = 1u - in;
    u32 x = partial[in * SCAN_GROUP + lid];
    if (lid >= offset) {
      u32 y = partial[in * SCAN_GROUP + lid - offset];
      x += y;
      wrapped |= x < y;
    }
    partial[out * SCAN_GROUP + lid] = x;
    BARRIER_LOCAL();
    in = out;
  }
  u32 running = partial[in * SCAN_GROUP + lid] - sum; /* exclusive */
  for (u32 k = 0; k < SCAN_PER_ITEM; ++k) {
    if (base + k < n) data[base + k] = running;
    running += v[k];
  }
  if (lid == SCAN_GROUP - 1) tile_sums[GROUP_ID] = partial[in * SCAN_GROUP + lid];
  if (wrapped) overflow[0] = 1u; /* every writer stores the same value */
}

KERNEL scan_add_offsets(GLOBAL u32* data, u32 n, GLOBAL const u32* tile_offsets) {
  u32 i = GLOBAL_ID;
  if (i < n) data[i] += tile_offsets[i / SCAN_TILE];
}
