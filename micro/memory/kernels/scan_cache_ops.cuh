/* CUDA only: the byte scan of scan.cl with one byte load per byte, through
 * PTX cache operators (harness/dialect/cache_loads.h): ld.global.ca (cache in
 * L1 and L2: memory_scan_ca) or ld.global.cg (cache in L2 only, bypassing L1:
 * memory_scan_cg). Sixteen independent loads are issued before their bytes
 * are hashed. Built by nvcc only (cmake/HarnessCudaPrograms.cmake, program
 * micro/memory-cuda); the variants that use it declare backends = {cuda}. */
#include "harness/dialect/cache_loads.h"
#include "harness/dialect/dialect.h"
#include "micro/memory/kernels/pattern.clh"

#if defined(HARNESS_DIALECT_CUDA)

#define MEMORY_SCAN_BYTES(LOAD)                                          \
  u32 total = 0u;                                                        \
  for (u32 c = GLOBAL_ID; c < chunks; c += GLOBAL_SIZE) {                \
    const uchar* p = data + (u64)c * chunk;                              \
    u32 h = MEMORY_FNV_OFFSET;                                           \
    for (u32 i = 0; i < chunk; i += 16u) {                               \
      u32 b[16];                                                         \
      _Pragma("unroll") for (u32 k = 0; k < 16u; ++k) b[k] = LOAD(p + i + k); \
      _Pragma("unroll") for (u32 k = 0; k < 16u; ++k) h = memory_fnv_byte(h, b[k]); \
    }                                                                    \
    total += h;                                                          \
  }                                                                      \
  out[GLOBAL_ID] = total

KERNEL memory_scan_ca(GLOBAL const uchar* data, u32 chunk, u32 chunks, GLOBAL u32* out) {
  MEMORY_SCAN_BYTES(LOAD_U8_L1);
}

KERNEL memory_scan_cg(GLOBAL const uchar* data, u32 chunk, u32 chunks, GLOBAL u32* out) {
  MEMORY_SCAN_BYTES(LOAD_U8_NO_L1);
}

#endif
