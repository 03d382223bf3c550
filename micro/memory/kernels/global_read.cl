/* Global-memory reads: the L2 and DRAM throughput sweeps (thesis figures
 * 5.4-5.6) and the dram_read / l2_read ceiling probes. micro/memory/README.md
 * describes the access pattern; in short:
 *
 * The buffer is `limit_words` u32 words, every word holding its own index
 * (memory_fill_index), seen as units of `span_words` words (32 bytes, or 4 x
 * coalescing bytes when that is more). `coalescing` consecutive work-items form
 * a group that reads one unit per step: work-item j of the group reads word j of
 * it, so a warp's load is coalescing-way coalesced and a unit (a whole number of
 * 32-byte sectors) is delivered for 4 x coalescing bytes used. Group G reads
 * unit (G + i * stride) mod units at step i: at each step the groups read
 * disjoint units, and with stride = groups + groups per work-group a work-group
 * moves on by one work-group's window per step, so no compute unit re-reads
 * what it read recently (nothing is served by L1) and the whole buffer is swept:
 * resident in L2 when it fits (l2), streamed from DRAM when it is many times
 * the L2 (dram). Each run starts where the last one stopped (start_words), so
 * a run never re-reads what the previous one left in L2. Each work-item adds
 * what it read (8 independent loads in flight) and writes one sum; the host
 * knows every sum in closed form. The walk's step (MEMORY_NEXT) is in walk.clh,
 * shared with memory/copy (copy.cl). */
#include "harness/dialect/dialect.h"
#include "micro/memory/kernels/walk.clh"

/* data[i] = i. */
KERNEL memory_fill_index(GLOBAL u32* data, u32 words) {
  for (u32 i = GLOBAL_ID; i < words; i += GLOBAL_SIZE) data[i] = i;
}

/* `steps` (a multiple of 8) loads per work-item, the walk starting `start_words`
 * (a whole number of units) on; sums[GLOBAL_ID] = their sum (mod 2^32). */
KERNEL memory_global_read(GLOBAL const u32* data, u32 limit_words, u32 stride_words,
                          u32 start_words, u32 span_words, u32 coalescing, u32 steps,
                          GLOBAL u32* sums) {
  u32 w = (GLOBAL_ID / coalescing) * span_words + GLOBAL_ID % coalescing + start_words;
  if (w >= limit_words) w -= limit_words;
  u32 s0 = 0u, s1 = 0u, s2 = 0u, s3 = 0u, s4 = 0u, s5 = 0u, s6 = 0u, s7 = 0u;
  for (u32 k = 0; k < steps; k += 8u) {
    const u32 w0 = w;
    MEMORY_NEXT(w);
    const u32 w1 = w;
    MEMORY_NEXT(w);
    const u32 w2 = w;
    MEMORY_NEXT(w);
    const u32 w3 = w;
    MEMORY_NEXT(w);
    const u32 w4 = w;
    MEMORY_NEXT(w);
    const u32 w5 = w;
    MEMORY_NEXT(w);
    const u32 w6 = w;
    MEMORY_NEXT(w);
    const u32 w7 = w;
    MEMORY_NEXT(w);
    s0 += data[w0];
    s1 += data[w1];
    s2 += data[w2];
    s3 += data[w3];
    s4 += data[w4];
    s5 += data[w5];
    s6 += data[w6];
    s7 += data[w7];
  }
  sums[GLOBAL_ID] = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
}

/* The probes' form: 16-byte loads, one unit per work-item (coalescing 32 with
 * 16-byte words), the same walk. Element e holds words 4e..4e+3, so it adds
 * 16e + 6 to the sum. */
KERNEL memory_global_read4(GLOBAL const uint4* data, u32 limit_words, u32 stride_words, u32 steps,
                           GLOBAL u32* sums) {
  u32 w = GLOBAL_ID;
  u32 s0 = 0u, s1 = 0u, s2 = 0u, s3 = 0u;
  for (u32 k = 0; k < steps; k += 4u) {
    const u32 w0 = w;
    MEMORY_NEXT(w);
    const u32 w1 = w;
    MEMORY_NEXT(w);
    const u32 w2 = w;
    MEMORY_NEXT(w);
    const u32 w3 = w;
    MEMORY_NEXT(w);
    const uint4 v0 = data[w0];
    const uint4 v1 = data[w1];
    const uint4 v2 = data[w2];
    const uint4 v3 = data[w3];
    s0 += (v0.x + v0.y) + (v0.z + v0.w);
    s1 += (v1.x + v1.y) + (v1.z + v1.w);
    s2 += (v2.x + v2.y) + (v2.z + v2.w);
    s3 += (v3.x + v3.y) + (v3.z + v3.w);
  }
  sums[GLOBAL_ID] = (s0 + s1) + (s2 + s3);
}
