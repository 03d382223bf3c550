/* memory/copy: a device-to-device copy by a kernel, against the d2d_copy
 * ceiling (the backend's own copy, bytes read + written). micro/memory/README.md
 * describes it; in short:
 *
 * `src` and `dst` are `limit_words` 16-byte words each, src filled by
 * memory_fill_index (word e holds u32s 4e..4e+3). Work-item gid copies words
 * gid, gid + GLOBAL_SIZE, ... below `count` (grid-stride, so a warp's loads and
 * stores are 512 contiguous bytes), word e to dst word (e + offset) mod
 * limit_words, four 16-byte loads in flight before their four stores. The host
 * moves `offset` on between runs, so a run whose copy was short or missing
 * leaves words that the last run wrote for another offset; the checksums
 * (memory_global_read4 over dst) then differ from the host's closed form. */
#include "harness/dialect/dialect.h"
#include "micro/memory/kernels/walk.clh"

/* Needs GLOBAL_SIZE <= limit_words, count <= limit_words < 2^29, offset <
 * limit_words (the host checks), so no index below overflows. */
KERNEL memory_copy4(GLOBAL const uint4* src, GLOBAL uint4* dst, u32 count, u32 limit_words,
                    u32 offset) {
  const u32 stride_words = GLOBAL_SIZE;
  u32 e = GLOBAL_ID;
  u32 d = e + offset;
  if (d >= limit_words) d -= limit_words;
  for (; e + 3u * stride_words < count; e += 4u * stride_words) {
    const u32 d0 = d;
    MEMORY_NEXT(d);
    const u32 d1 = d;
    MEMORY_NEXT(d);
    const u32 d2 = d;
    MEMORY_NEXT(d);
    const u32 d3 = d;
    MEMORY_NEXT(d);
    const uint4 v0 = src[e];
    const uint4 v1 = src[e + stride_words];
    const uint4 v2 = src[e + 2u * stride_words];
    const uint4 v3 = src[e + 3u * stride_words];
    dst[d0] = v0;
    dst[d1] = v1;
    dst[d2] = v2;
    dst[d3] = v3;
  }
  for (; e < count; e += stride_words) {
    dst[d] = src[e];
    MEMORY_NEXT(d);
  }
}
