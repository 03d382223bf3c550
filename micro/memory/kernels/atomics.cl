/* Atomic throughput probes (ceilings atomic_add_same and atomic_add_distinct):
 * every work-item adds 1 `iters` times, to one word shared by all
 * (memory_atomic_same) or to a word of its own (memory_atomic_distinct). The
 * host checks the counts. */
#include "harness/dialect/dialect.h"

KERNEL memory_atomic_same(GLOBAL u32* counter, u32 iters) {
  for (u32 i = 0; i < iters; ++i) ATOMIC_ADD_U32(counter, 1u);
}

KERNEL memory_atomic_distinct(GLOBAL u32* counters, u32 iters) {
  GLOBAL u32* mine = counters + GLOBAL_ID;
  for (u32 i = 0; i < iters; ++i) ATOMIC_ADD_U32(mine, 1u);
}

#if defined(HARNESS_HAS_ATOMIC_U64)
/* Random 8-byte compare-and-swaps into a table larger than the L2 (ceiling
 * atomic_cas_random, the bound of a hash table's inserts): step j of
 * work-item t swaps the key t * iters + j + 1 into a slot picked by its hash
 * when the slot is empty (0); won[t] counts the swaps that succeeded. */
KERNEL memory_atomic_cas_random(GLOBAL u64* table, u32 mask, u32 iters, GLOBAL u32* won) {
  u32 wins = 0;
  for (u32 j = 0; j < iters; ++j) {
    const u64 key = (u64)GLOBAL_ID * iters + j + 1;
    u64 h = key * (u64)0x9E3779B97F4A7C15UL;
    h ^= h >> 31;
    h *= (u64)0xBF58476D1CE4E5B9UL;
    h ^= h >> 29;
    if (ATOMIC_CAS_U64(table + ((u32)(h >> 32) & mask), (u64)0, key) == 0) ++wins;
  }
  won[GLOBAL_ID] = wins;
}
#endif
