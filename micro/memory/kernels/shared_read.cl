/* Shared (OpenCL local) memory reads: the shared-memory throughput sweep
 * (thesis figure 5.7) and the shared_read ceiling probe. Each work-group fills
 * its own tile of MEMORY_SHARED_WORDS words (tile[i] = i + seed), then every
 * work-item reads `steps` words: word (LOCAL_ID + i * LOCAL_SIZE) mod the tile
 * at step i, so a warp reads 32 consecutive words (one per bank: no conflicts),
 * with 8 independent loads in flight; it writes the sum (mod 2^32), which the
 * host knows in closed form. LOCAL_SIZE <= MEMORY_SHARED_WORDS. */
#include "harness/dialect/dialect.h"

#define MEMORY_SHARED_WORDS 4096u

#define MEMORY_SHARED_NEXT(e) e = (e + step) & (MEMORY_SHARED_WORDS - 1u)

KERNEL memory_shared_read(u32 seed, u32 steps, GLOBAL u32* sums) {
  LOCAL_ARRAY(u32, tile, MEMORY_SHARED_WORDS);
  for (u32 i = LOCAL_ID; i < MEMORY_SHARED_WORDS; i += LOCAL_SIZE) tile[i] = i + seed;
  BARRIER_LOCAL();
  const u32 step = LOCAL_SIZE;
  u32 e = LOCAL_ID;
  u32 s0 = 0u, s1 = 0u, s2 = 0u, s3 = 0u, s4 = 0u, s5 = 0u, s6 = 0u, s7 = 0u;
  for (u32 k = 0; k < steps; k += 8u) {
    const u32 e0 = e;
    MEMORY_SHARED_NEXT(e);
    const u32 e1 = e;
    MEMORY_SHARED_NEXT(e);
    const u32 e2 = e;
    MEMORY_SHARED_NEXT(e);
    const u32 e3 = e;
    MEMORY_SHARED_NEXT(e);
    const u32 e4 = e;
    MEMORY_SHARED_NEXT(e);
    const u32 e5 = e;
    MEMORY_SHARED_NEXT(e);
    const u32 e6 = e;
    MEMORY_SHARED_NEXT(e);
    const u32 e7 = e;
    MEMORY_SHARED_NEXT(e);
    s0 += tile[e0];
    s1 += tile[e1];
    s2 += tile[e2];
    s3 += tile[e3];
    s4 += tile[e4];
    s5 += tile[e5];
    s6 += tile[e6];
    s7 += tile[e7];
  }
  sums[GLOBAL_ID] = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
}
