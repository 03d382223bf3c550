/* BigKernel's persistent kernel (frameworks/bigkernel/persistent.h), CUDA
 * only: how an app's plain kernel, written once in the dialect, runs inside
 * one warp role of a block. A persistent_<app>.cu includes this after the
 * dialect, then the app's file twice, each time in a namespace of its own
 * with one mode and one role:
 *
 *   namespace bk_p_addrgen {   #define BK_MODE_ADDRGEN 1, BK_P_ROLE 0
 *     #include <app>.clh, pattern.clh }
 *   #include "persistent_next_role.h"   (forgets the first mode)
 *   namespace bk_p_compute {   #define BK_MODE_COMPUTE 1, BK_P_ROLE 1
 *     #include <app>.clh }
 *
 * A block is two roles of 256 threads: role 0 (warps 0-7) generates
 * addresses, role 1 (warps 8-15) computes. Each role runs the app's kernel as
 * a device function over a round, one virtual work-group of 256 work-items a
 * step: the work-item macros below read the role's current step (set by the
 * role's first thread between two of its barriers), and a work-group barrier
 * is the role's named barrier (bar.sync 1 or 2 with 256 threads), so the two
 * roles never wait for each other. */
#ifndef BK_PERSISTENT_ROLES_CUH
#define BK_PERSISTENT_ROLES_CUH

#if !defined(__CUDACC__)
#error "the persistent kernel is CUDA code"
#endif

#include "harness/dialect/dialect.h"

#define BK_P_ROLE_THREADS 256u

/* The step each role is at: its first virtual work-item, its virtual
 * work-group, and the virtual launch's size. */
static __shared__ u32 bk_p_step_first[2];
static __shared__ u32 bk_p_step_group[2];
static __shared__ u32 bk_p_step_size[2];

/* Role r's named barrier: barrier 1 + r among its 256 threads (barrier 0 is
 * __syncthreads, which would wait for the other role). */
static __device__ __forceinline__ void bk_p_role_barrier(u32 role) {
  asm volatile("bar.sync %0, %1;" ::"r"(1u + role), "r"(BK_P_ROLE_THREADS) : "memory");
}

#undef KERNEL
#define KERNEL static __device__ __forceinline__ void
#define BK_P_LOCAL_ID ((u32)threadIdx.x - BK_P_ROLE * BK_P_ROLE_THREADS)
#undef GLOBAL_ID
#define GLOBAL_ID (bk_p_step_first[BK_P_ROLE] + BK_P_LOCAL_ID)
#undef GLOBAL_SIZE
#define GLOBAL_SIZE (bk_p_step_size[BK_P_ROLE])
#undef LOCAL_ID
#define LOCAL_ID BK_P_LOCAL_ID
#undef LOCAL_SIZE
#define LOCAL_SIZE BK_P_ROLE_THREADS
#undef GROUP_ID
#define GROUP_ID (bk_p_step_group[BK_P_ROLE])
#undef NUM_GROUPS
#define NUM_GROUPS (bk_p_step_size[BK_P_ROLE] / BK_P_ROLE_THREADS)
#undef BARRIER_LOCAL
#define BARRIER_LOCAL() bk_p_role_barrier(BK_P_ROLE)
#undef BARRIER_ALL
#define BARRIER_ALL() bk_p_role_barrier(BK_P_ROLE)

/* The values of a slot are rewritten by the copy engine two rounds later:
 * read them at L2 (ld.global.cg), never from an L1 line of an earlier round
 * (kernels/bigkernel.clh's BK_LOAD). */
#define BK_LOAD(type, p) __ldcg((const type*)(p))

#endif /* BK_PERSISTENT_ROLES_CUH */
