/* Portable kernel dialect: one kernel source compiles as OpenCL C (built at run
 * time, e.g. on PoCL or NVIDIA's driver), as CUDA C++ (built by nvcc at build
 * time) and as plain C++ on the host (so CPU runtimes and references can call
 * the same user functions).
 *
 * Rules:
 *  - __local/__shared__ arrays only at kernel scope: use LOCAL_ARRAY inside a KERNEL body.
 *  - no lock-step assumption inside a warp/wavefront without an explicit barrier.
 *  - no spin-waits across work-groups.
 *  - barriers only in the KERNEL body itself, in loops whose bounds are the
 *    same for every work-item: PoCL miscompiled a barrier inside a helper
 *    function called from a loop (wrong results, no error).
 *  - keep every host<->kernel argument a fixed-width type (u32, u64, i32, float)
 *    or a buffer, so host marshalling is identical on every backend.
 *  - a function that takes pointers into different address spaces needs one
 *    version per space (OpenCL 1.2 has no generic address space).
 *  - local memory sized at launch: at most one LOCAL_DYNAMIC_PARAM(type, name)
 *    in the parameter list, LOCAL_DYNAMIC(type, name); first in the body, and
 *    the host passes backend::local_memory(bytes) at that position. Its start
 *    is 16-byte aligned on CUDA.
 *  - math through the dialect's names (SQRT_F32, F32_BITS, F64_FROM_BITS); code that uses double
 *    enables cl_khr_fp64 itself (frameworks/mapreduce/apps/kmeans/kmeans_types.clh).
 */
#ifndef HARNESS_DIALECT_H
#define HARNESS_DIALECT_H

#if defined(__OPENCL_VERSION__)
/* ---------------------------------------------------------------- OpenCL C */
#define HARNESS_DIALECT_OPENCL 1
typedef uint u32;
typedef int i32;
typedef ulong u64;
typedef long i64;

#define KERNEL __kernel void
#define DEVICE_FN static inline
#define GLOBAL __global
#define LOCAL_PTR __local
#define CONSTANT_PTR __constant
#define LOCAL_ARRAY(type, name, count) __local type name[count]
#define LOCAL_DYNAMIC_PARAM(type, name) __local type* name
#define LOCAL_DYNAMIC(type, name)

#define GLOBAL_ID ((u32)get_global_id(0))
#define GLOBAL_SIZE ((u32)get_global_size(0))
#define LOCAL_ID ((u32)get_local_id(0))
#define LOCAL_SIZE ((u32)get_local_size(0))
#define GROUP_ID ((u32)get_group_id(0))
#define NUM_GROUPS ((u32)get_num_groups(0))

#define BARRIER_LOCAL() barrier(CLK_LOCAL_MEM_FENCE)
#define BARRIER_ALL() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
/* FENCE_DEVICE(): a work-item's global loads and stores before it are ordered,
 * for every work-group of the device, before those after it (write an entry,
 * fence, publish it with an atomic; take a lock with an atomic, fence, read
 * what the lock guards; write, fence, release). OpenCL 1.2's
 * mem_fence(CLK_GLOBAL_MEM_FENCE) only orders a work-item's accesses (what
 * its work-group observes), and NVIDIA's OpenCL compiles it that weakly: a
 * reader in another work-group saw a published entry before its bytes
 * (frameworks/blocks/kernels/global_hash_table.clh, word count on an H200)
 * and the SePo table lost entries there while CUDA passed. On NVIDIA's
 * OpenCL (detected by its extensions) it is the device-scope PTX membar.gl,
 * what CUDA's __threadfence() emits; elsewhere (PoCL, other vendors)
 * mem_fence. Data another work-item may write during the kernel is still
 * read through volatile pointers or atomics: a plain load may be served from
 * a non-coherent per-SM cache. */
#if defined(cl_nv_pragma_unroll) || defined(cl_nv_device_attribute_query)
#define HARNESS_NVIDIA_OPENCL 1
#define FENCE_DEVICE() __asm__ __volatile__("membar.gl;" ::: "memory")
#else
#define FENCE_DEVICE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
/* Warp vote and shuffle (see the CUDA section): NVIDIA's OpenCL through the
 * PTX that CUDA's __ballot_sync and __shfl_sync emit. */
#if defined(HARNESS_NVIDIA_OPENCL)
#define HARNESS_HAS_WARP_VOTE 1
static inline uint harness_warp_ballot(uint mask, uint predicate) {
  uint r;
  __asm__ __volatile__("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }"
                       : "=r"(r)
                       : "r"(predicate), "r"(mask));
  return r;
}
static inline uint harness_warp_shfl(uint mask, uint value, uint lane) {
  uint r;
  __asm__ __volatile__("shfl.sync.idx.b32 %0, %1, %2, 31, %3;"
                       : "=r"(r)
                       : "r"(value), "r"(lane), "r"(mask));
  return r;
}
#define WARP_BALLOT(mask, predicate) harness_warp_ballot((mask), (predicate))
#define WARP_SHFL_U32(mask, value, lane) harness_warp_shfl((mask), (value), (lane))
#endif

#define ATOMIC_ADD_U32(ptr, v) atomic_add((ptr), (v))
#define ATOMIC_INC_U32(ptr) atomic_inc((ptr))
#define ATOMIC_CAS_U32(ptr, cmp, v) atomic_cmpxchg((ptr), (cmp), (v))
#define ATOMIC_MAX_U32(ptr, v) atomic_max((ptr), (v))
#define ATOMIC_OR_U32(ptr, v) atomic_or((ptr), (v))
/* 64-bit compare-and-swap and exchange on global or local memory, where the
 * device has them (cl_khr_int64_base_atomics: NVIDIA's OpenCL, PoCL); code
 * that needs them tests HARNESS_HAS_ATOMIC_U64. */
#if defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define HARNESS_HAS_ATOMIC_U64 1
#define ATOMIC_CAS_U64(ptr, cmp, v) atom_cmpxchg((ptr), (cmp), (v))
#define ATOMIC_XCHG_U64(ptr, v) atom_xchg((ptr), (v))
#endif
#define POPCOUNT_U32(x) popcount((u32)(x))
#define SQRT_F32(x) sqrt((float)(x))
#define F32_BITS(x) as_uint((float)(x))
#define F32_FROM_BITS(x) as_float((uint)(x))
/* The double whose bits are x (code that uses double enables cl_khr_fp64). */
#define F64_FROM_BITS(x) as_double((ulong)(x))
/* A read-only float image (backend::Image2D) as a kernel parameter, and its
 * texel (x, y): through the texture path, nearest texel, clamped, read at the
 * texel's centre with a program-scope sampler (NVIDIA's OpenCL returned the
 * wrong texels for integer coordinates with a literal sampler). Images may be
 * passed to functions but not stored in structs. */
#if defined(__IMAGE_SUPPORT__)
__constant sampler_t harness_image_sampler =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
#define IMAGE2D_F32 __read_only image2d_t
#define READ_IMAGE_F32(img, px, py) \
  read_imagef((img), harness_image_sampler, (float2)((float)(px) + 0.5f, (float)(py) + 0.5f)).x
#endif

#elif defined(__CUDACC__)
/* -------------------------------------------------------------------- CUDA */
#define HARNESS_DIALECT_CUDA 1
typedef unsigned char uchar;
typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;
typedef long long i64;

#define KERNEL __global__ void
#define DEVICE_FN static __device__ __forceinline__
#define GLOBAL
#define LOCAL_PTR
#define CONSTANT_PTR const
#define LOCAL_ARRAY(type, name, count) __shared__ type name[count]
/* The parameter is a placeholder (the host passes null); the memory is the
 * launch's dynamic shared memory, declared as bytes so that kernels of one .cu
 * may view it as different types. */
#define LOCAL_DYNAMIC_PARAM(type, name) type* name##_unused_
#define LOCAL_DYNAMIC(type, name)                                         \
  extern __shared__ __align__(16) unsigned char harness_dynamic_local_[]; \
  type* name = (type*)harness_dynamic_local_;                             \
  (void)name##_unused_

#define GLOBAL_ID ((u32)(blockIdx.x * blockDim.x + threadIdx.x))
#define GLOBAL_SIZE ((u32)(gridDim.x * blockDim.x))
#define LOCAL_ID ((u32)threadIdx.x)
#define LOCAL_SIZE ((u32)blockDim.x)
#define GROUP_ID ((u32)blockIdx.x)
#define NUM_GROUPS ((u32)gridDim.x)

#define BARRIER_LOCAL() __syncthreads()
#define BARRIER_ALL() __syncthreads()
/* Device scope (PTX membar.gl): see the OpenCL FENCE_DEVICE. */
#define FENCE_DEVICE() __threadfence()

#define ATOMIC_ADD_U32(ptr, v) atomicAdd((ptr), (v))
#define ATOMIC_INC_U32(ptr) atomicAdd((ptr), 1u)
#define ATOMIC_CAS_U32(ptr, cmp, v) atomicCAS((ptr), (cmp), (v))
#define ATOMIC_MAX_U32(ptr, v) atomicMax((ptr), (v))
#define ATOMIC_OR_U32(ptr, v) atomicOr((ptr), (v))
#define HARNESS_HAS_ATOMIC_U64 1
#define ATOMIC_CAS_U64(ptr, cmp, v) atomicCAS((ptr), (cmp), (v))
#define ATOMIC_XCHG_U64(ptr, v) atomicExch((ptr), (v))
/* Warp vote and shuffle among the lanes of `mask`, every one of which must
 * reach the call (HARNESS_HAS_WARP_VOTE: here and on NVIDIA's OpenCL; the
 * host asks backend::has_warp_vote). WARP_BALLOT: bit i set where lane i's
 * predicate is non-zero; WARP_SHFL_U32: lane `lane`'s value. A work-item's
 * lane is LOCAL_ID % 32 in one-dimensional work-groups of a multiple of 32. */
#define HARNESS_HAS_WARP_VOTE 1
#define WARP_BALLOT(mask, predicate) __ballot_sync((mask), (predicate))
#define WARP_SHFL_U32(mask, value, lane) __shfl_sync((mask), (u32)(value), (lane))
#define POPCOUNT_U32(x) ((u32)__popc((u32)(x)))
#define SQRT_F32(x) sqrtf((float)(x))
#define F32_BITS(x) __float_as_uint((float)(x))
#define F32_FROM_BITS(x) __uint_as_float((unsigned)(x))
#define F64_FROM_BITS(x) __longlong_as_double((long long)(x))
/* Images: a texture object, read at the texel's centre (unnormalized
 * coordinates, point filtering; see the CUDA backend's allocate_image_f32). */
#define IMAGE2D_F32 cudaTextureObject_t
#define READ_IMAGE_F32(img, px, py) tex2D<float>((img), (float)(px) + 0.5f, (float)(py) + 0.5f)

#else
/* ------------------------------------------------ host C++ (CPU runtimes) */
#define HARNESS_DIALECT_HOST 1
#include <bit>
#include <cmath>
#include <cstdint>
typedef unsigned char uchar;
typedef std::uint32_t u32;
typedef std::int32_t i32;
typedef std::uint64_t u64;
typedef std::int64_t i64;

#define DEVICE_FN static inline
#define GLOBAL
#define LOCAL_PTR
#define CONSTANT_PTR const
#define SQRT_F32(x) std::sqrt((float)(x))
#define F32_BITS(x) std::bit_cast<u32>((float)(x))
#define F32_FROM_BITS(x) std::bit_cast<float>((u32)(x))
#define F64_FROM_BITS(x) std::bit_cast<double>((u64)(x))
#define POPCOUNT_U32(x) ((u32)std::popcount((u32)(x)))
/* Kernel-only: host code that includes a kernel file runs it on one thread. */
#define FENCE_DEVICE()
/* KERNEL, LOCAL_ARRAY, LOCAL_DYNAMIC, ids and barriers have no host meaning: host code calls
 * user functions directly and never compiles a KERNEL. */

#endif

#endif /* HARNESS_DIALECT_H */
