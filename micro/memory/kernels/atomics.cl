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
