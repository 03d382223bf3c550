/* Global loads with an explicit level-1 cache policy, for kernels that compare
 * the hardware L1 with no L1 (micro/memory's byte scans, frameworks/sl1):
 *
 *   LOAD_U8_L1(p)      a byte, cached in L1 and L2     (CUDA: ld.global.ca)
 *   LOAD_U8_NO_L1(p)   a byte, cached in L2 only       (CUDA: ld.global.cg)
 *   LOAD_U32_L1(p)     4 aligned bytes, in L1 and L2   (CUDA: ld.global.ca)
 *   LOAD_U32_NO_L1(p)  4 aligned bytes, in L2 only     (CUDA: ld.global.cg)
 *   LOAD_U64_L1(p)     8 aligned bytes, in L1 and L2   (CUDA: ld.global.ca)
 *   LOAD_U64_NO_L1(p)  8 aligned bytes, in L2 only     (CUDA: ld.global.cg)
 *
 * CUDA issues the PTX cache operators; OpenCL C cannot choose a cache level,
 * so there (and on the host) each is the plain load: a kernel that needs the
 * difference says so (HARNESS_CACHE_LOADS_EXPLICIT is 1 only on CUDA). Bytes
 * come back zero-extended to u32. */
#ifndef HARNESS_CACHE_LOADS_H
#define HARNESS_CACHE_LOADS_H

#include "harness/dialect/dialect.h"

#if defined(HARNESS_DIALECT_CUDA)
#define HARNESS_CACHE_LOADS_EXPLICIT 1

DEVICE_FN u32 harness_load_u8_ca(const uchar* p) {
  u32 v;
  asm("ld.global.ca.u8 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

DEVICE_FN u32 harness_load_u8_cg(const uchar* p) {
  u32 v;
  asm("ld.global.cg.u8 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

DEVICE_FN u32 harness_load_u32_ca(const u32* p) {
  u32 v;
  asm("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

DEVICE_FN u32 harness_load_u32_cg(const u32* p) {
  u32 v;
  asm("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

DEVICE_FN u64 harness_load_u64_ca(const u64* p) {
  u64 v;
  asm("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}

DEVICE_FN u64 harness_load_u64_cg(const u64* p) {
  u64 v;
  asm("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}

#define LOAD_U8_L1(p) harness_load_u8_ca((const uchar*)(p))
#define LOAD_U8_NO_L1(p) harness_load_u8_cg((const uchar*)(p))
#define LOAD_U32_L1(p) harness_load_u32_ca((const u32*)(p))
#define LOAD_U32_NO_L1(p) harness_load_u32_cg((const u32*)(p))
#define LOAD_U64_L1(p) harness_load_u64_ca((const u64*)(p))
#define LOAD_U64_NO_L1(p) harness_load_u64_cg((const u64*)(p))

#else
#define HARNESS_CACHE_LOADS_EXPLICIT 0
#define LOAD_U8_L1(p) ((u32)(*(p)))
#define LOAD_U8_NO_L1(p) ((u32)(*(p)))
#define LOAD_U32_L1(p) (*(p))
#define LOAD_U32_NO_L1(p) (*(p))
#define LOAD_U64_L1(p) (*(p))
#define LOAD_U64_NO_L1(p) (*(p))
#endif

#endif /* HARNESS_CACHE_LOADS_H */
