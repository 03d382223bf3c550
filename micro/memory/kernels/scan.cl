/* The byte scan of `wc` (thesis figures 5.1 and 5.13): the input is cut into
 * chunks of `chunk` bytes (a multiple of 16); work-item t scans chunks t, t +
 * GLOBAL_SIZE, ... from first byte to last, hashing each chunk's bytes with
 * FNV-1a (a dependent chain per byte, like wc's state machine), and writes the
 * sum of its chunks' hashes. The input repeats a period of chunks
 * (memory_scan_fill), so the host knows every sum from one hash per chunk of
 * the period. This file has the fill and the portable scan, memory_scan_line:
 * each work-item loads a 16-byte line into registers and scans it from there
 * (what S-L1 does in shared memory); scan_cache_ops.cuh has the CUDA-only byte
 * loads with PTX cache operators. */
#include "harness/dialect/dialect.h"
#include "micro/memory/kernels/pattern.clh"

KERNEL memory_scan_fill(GLOBAL u32* data, u32 words, u32 period_words) {
  for (u32 i = GLOBAL_ID; i < words; i += GLOBAL_SIZE) data[i] = memory_scan_word(i % period_words);
}

KERNEL memory_scan_line(GLOBAL const uint4* data, u32 chunk, u32 chunks, GLOBAL u32* out) {
  const u32 lines = chunk / 16u;
  u32 total = 0u;
  for (u32 c = GLOBAL_ID; c < chunks; c += GLOBAL_SIZE) {
    GLOBAL const uint4* p = data + (u64)c * lines;
    u32 h = MEMORY_FNV_OFFSET;
    for (u32 i = 0; i < lines; ++i) {
      const uint4 v = p[i];
      h = memory_fnv_word(h, v.x);
      h = memory_fnv_word(h, v.y);
      h = memory_fnv_word(h, v.z);
      h = memory_fnv_word(h, v.w);
    }
    total += h;
  }
  out[GLOBAL_ID] = total;
}
