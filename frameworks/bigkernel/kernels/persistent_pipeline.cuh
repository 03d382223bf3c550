/* BigKernel's persistent kernel (frameworks/bigkernel/persistent.h: one
 * block's life), CUDA only. A persistent_<app>.cu includes this after its two
 * namespaces (kernels/persistent_roles.cuh) and instantiates bk_persistent
 * (through BK_P_APP_KERNEL, below) with a struct of two device functions
 * that call the app's kernel in each build:
 *   static __device__ void addrgen(const BkPStep&, const PersistentAppArgs&);
 *   static __device__ void compute(const BkPStep&, const PersistentAppArgs&);
 * passing BK_P_MAPPED_ARGS(step) for BK_MAPPED_PARAMS, then the round's first
 * record and record count, then its own arguments; the struct derives from
 * BkPNoRoundWork, or from a struct with work around a round's steps
 * (kernels/persistent_chunk_table.cuh). */
#ifndef BK_PERSISTENT_PIPELINE_CUH
#define BK_PERSISTENT_PIPELINE_CUH

#include "frameworks/bigkernel/persistent.h"
#include "frameworks/bigkernel/persistent_apps.h"

using harness::bigkernel::kPersistentFlagStride;
using harness::bigkernel::kPersistentSlots;
using harness::bigkernel::PersistentAppArgs;
using harness::bigkernel::PersistentLaunch;

/* BK_MAPPED_PARAMS' values for one role's round, and the round. The writes
 * are the pass's (write slot 0 is record 0: chunk_base 0), and the address
 * list's thread dimension is the round's records. */
struct BkPStep {
  const uchar* data;
  u64* list;
  u32* counts;
  u32 capacity;
  u32 layout;
  u32 record_bytes;
  i64* writes;
  const u64* records; /* the round's entries of the record table (variable-length) */
  u32 record_words;
  u64 first_record;  /* of the round */
  u32 round_records; /* the round's records */
};
#define BK_P_MAPPED_ARGS(s)                                                                   \
  (s).data, (s).list, (s).counts, (s).capacity, (s).layout, (u64)0, (u64)0, (s).record_bytes, \
      (s).writes, (s).records, (s).record_words, (s).round_records

/* What an app's roles do around a round's steps in the compute role, by
 * default nothing (a persistent_<app>.cu's struct derives from this):
 * round_begin runs on every compute thread after the round's values arrived
 * and before its first step (which starts with a barrier); round_end runs on
 * every compute thread after the last step (which ended with one), before
 * the role fences and raises compute_done. `tid` is the thread in the role,
 * `round` the pass's round number. */
struct BkPNoRoundWork {
  static __device__ void round_begin(const PersistentAppArgs&, u32 /*block*/, u64 /*round*/,
                                     u32 /*records*/, u32 /*tid*/) {}
  static __device__ void round_end(const PersistentAppArgs&, u32 /*block*/, u64 /*round*/,
                                   u32 /*records*/, u32 /*tid*/) {}
};

/* The GPU's global timer, in ns. */
static __device__ __forceinline__ u64 bk_p_now() {
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* Waits (one thread) until a flag another agent raises reaches `at_least`;
 * adds the time it waited to *waited. */
static __device__ __forceinline__ void bk_p_wait(const u64* flag, u64 at_least, u64* waited) {
  const u64 start = bk_p_now();
  while (*(const volatile u64*)flag < at_least) __nanosleep(256);
  *waited += bk_p_now() - start;
}
static __device__ __forceinline__ void bk_p_raise(u64* flag, u64 value) {
  *(volatile u64*)flag = value;
}

/* Runs `body` (the app's kernel, or a pattern kernel) over a round of
 * `records` virtual work-items in role `role`, a work-group of 256 a step.
 * The work-groups are numbered across the pass from `group0` (round g's
 * first is g x groups_per_round), as the app's tallies number them
 * (apps/group_tallies.h), so an app's per-group output lands in one place. */
template <class Body>
static __device__ __forceinline__ void bk_p_steps(u32 role, u32 group0, u32 records, Body body) {
  const u32 tid = threadIdx.x - role * BK_P_ROLE_THREADS;
  const u32 size = (records + BK_P_ROLE_THREADS - 1) / BK_P_ROLE_THREADS * BK_P_ROLE_THREADS;
  for (u32 first = 0; first < size; first += BK_P_ROLE_THREADS) {
    if (tid == 0) {
      bk_p_step_first[role] = first;
      bk_p_step_group[role] = group0 + first / BK_P_ROLE_THREADS;
      bk_p_step_size[role] = size;
    }
    bk_p_role_barrier(role);
    body();
    bk_p_role_barrier(role); /* before the next step's numbers */
  }
}

/* Block b's k-th round: the pass's round g = b + k x P, its slot, its first
 * record and records, and (variable-length records) its entries of the
 * record table. */
struct BkPRound {
  u64 g, slot, first;
  u32 records;
  const u64* table;
};
static __device__ __forceinline__ BkPRound bk_p_round(const PersistentLaunch& L, u32 b, u64 k) {
  BkPRound rd;
  rd.g = b + k * L.blocks;
  rd.slot = (u64)b * kPersistentSlots + k % kPersistentSlots;
  rd.first = rd.g * L.round_records;
  rd.records = (u32)min((u64)L.round_records, L.records - rd.first);
  rd.table =
      L.records_table ? (const u64*)L.records_table + rd.first * L.record_words : (const u64*)0;
  return rd;
}

/* A role's time working and waiting (its first thread's), for the host. */
static __device__ __forceinline__ void bk_p_store_times(const PersistentLaunch& L, u32 b, u32 role,
                                                        u64 started, u64 waited) {
  L.role_ns[4 * (u64)b + 2 * role] = bk_p_now() - started - waited;
  L.role_ns[4 * (u64)b + 2 * role + 1] = waited;
}

/* Role 0: address generation, pattern recognition, the hand-off to the host. */
template <class App>
static __device__ void bk_p_address_role(const PersistentLaunch& L, const PersistentAppArgs& A) {
  const u32 tid = threadIdx.x, b = blockIdx.x;
  const u64 R = L.round_records;
  u64* list = (u64*)L.list + (u64)b * R * L.capacity;
  u32* counts = (u32*)L.counts + (u64)b * R;
  u64* desc = (u64*)L.descriptor + (u64)b * L.descriptor_words;
  u64* ready = (u64*)L.addr_ready + (u64)b * kPersistentFlagStride;
  const u64* freed = (const u64*)L.addr_free + (u64)b * kPersistentFlagStride;
  const u64 started = bk_p_now();
  u64 waited = 0;
  for (u64 k = 0; b + k * L.blocks < L.rounds; ++k) {
    const BkPRound rd = bk_p_round(L, b, k);
    const u64 g = rd.g, slot = rd.slot, first = rd.first;
    const u32 r = rd.records;
    const u64* records = rd.table;
    /* The host has read what this slot held kPersistentSlots rounds ago. */
    if (k >= kPersistentSlots && tid == 0) bk_p_wait(freed, k - kPersistentSlots + 1, &waited);
    if (tid < 3) desc[tid] = 0;
    const u32 group0 = (u32)(g * L.groups_per_round);
    BkPStep st = {L.stand_in,     list,    counts,         L.capacity, L.layout, L.record_bytes,
                  (i64*)L.writes, records, L.record_words, first,      r};
    bk_p_steps(0, group0, r, [&] { App::addrgen(st, A); });
    bool holds = false;
    if (L.patterns && records) { /* a record pattern: the longest thread, then every thread */
      bk_p_steps(0, group0, r, [&] { bk_p_addrgen::bk_find_longest(counts, r, desc); });
      bk_p_steps(0, group0, r, [&] {
        bk_p_addrgen::bk_find_record_pattern(list, counts, records, L.record_words, r, L.capacity,
                                             desc);
      });
      holds = *(volatile u64*)desc == 0;
    } else if (L.patterns) {
      bk_p_steps(0, group0, r,
                 [&] { bk_p_addrgen::bk_find_pattern(list, counts, r, r, L.capacity, desc); });
      holds = *(volatile u64*)desc == 0;
    }
    u64* host_desc = (u64*)L.host_descriptor + slot * L.descriptor_words;
    u32* host_counts = (u32*)L.host_counts + slot * R;
    if (holds) {
      const u32 words = 3u + min((u32)desc[1], L.capacity);
      for (u32 w = tid; w < words; w += BK_P_ROLE_THREADS) host_desc[w] = desc[w];
    } else { /* the fallback: the raw list */
      u64* host_list = (u64*)L.host_list + slot * R * L.capacity;
      for (u64 i = tid; i < (u64)r * L.capacity; i += BK_P_ROLE_THREADS) host_list[i] = list[i];
      if (tid == 0) host_desc[0] = 1;
    }
    /* The counts: a raw list's, or a record pattern's (each thread's own). */
    if (!holds || records) {
      for (u32 i = tid; i < r; i += BK_P_ROLE_THREADS) host_counts[i] = counts[i];
    }
    __threadfence_system(); /* each writer's stores reach the host before the flag */
    bk_p_role_barrier(0);
    if (tid == 0) bk_p_raise(ready, k + 1);
  }
  if (tid == 0) bk_p_store_times(L, b, 0, started, waited);
}

/* Role 1: the computation, on the values the host sent into this block's slot. */
template <class App>
static __device__ void bk_p_compute_role(const PersistentLaunch& L, const PersistentAppArgs& A) {
  const u32 tid = threadIdx.x - BK_P_ROLE_THREADS, b = blockIdx.x;
  u64* done = (u64*)L.compute_done + (u64)b * kPersistentFlagStride;
  u64 waited = 0;
  const u64 started = bk_p_now();
  for (u64 k = 0; b + k * L.blocks < L.rounds; ++k) {
    const BkPRound rd = bk_p_round(L, b, k);
    /* The round's number arrives after its values (one stream, in order). */
    if (tid == 0) {
      bk_p_wait((const u64*)L.data_ready + rd.slot, k + 1, &waited);
      __threadfence();
    }
    /* Coalesced values: the COMPUTE build's capacity is the round's threads. */
    BkPStep st = {L.values + rd.slot * L.value_slot_bytes,
                  (u64*)0,
                  (u32*)0,
                  rd.records,
                  L.layout,
                  L.record_bytes,
                  (i64*)L.writes,
                  rd.table,
                  L.record_words,
                  rd.first,
                  rd.records};
    App::round_begin(A, b, rd.g, rd.records, tid);
    bk_p_steps(1, (u32)(rd.g * L.groups_per_round), rd.records, [&] { App::compute(st, A); });
    App::round_end(A, b, rd.g, rd.records, tid);
    __threadfence_system(); /* mapped writes reach the host before the flag */
    bk_p_role_barrier(1);
    if (tid == 0) bk_p_raise(done, k + 1);
  }
  if (tid == 0) bk_p_store_times(L, b, 1, started, waited);
}

template <class App>
__global__ void __launch_bounds__(2 * BK_P_ROLE_THREADS)
    bk_persistent(PersistentLaunch L, PersistentAppArgs A) {
  if (threadIdx.x < BK_P_ROLE_THREADS) {
    bk_p_address_role<App>(L, A);
  } else {
    bk_p_compute_role<App>(L, A);
  }
}

/* The app's entry in persistent_apps.h: its launch and occupancy, for the
 * struct `Roles` of its two device functions, as `accessor()`. */
#define BK_P_APP_KERNEL(Roles, app_name, accessor)                                               \
  namespace harness::bigkernel {                                                                 \
  const PersistentAppKernel& accessor() {                                                        \
    static const PersistentAppKernel kernel{                                                     \
        app_name,                                                                                \
        [](const PersistentLaunch& l, const PersistentAppArgs& a, void* stream) {                \
          bk_persistent<Roles>                                                                   \
              <<<l.blocks, 2 * BK_P_ROLE_THREADS, 0, static_cast<cudaStream_t>(stream)>>>(l, a); \
        },                                                                                       \
        [] {                                                                                     \
          int blocks = 0;                                                                        \
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bk_persistent<Roles>,           \
                                                        2 * BK_P_ROLE_THREADS, 0);               \
          return blocks;                                                                         \
        }};                                                                                      \
    return kernel;                                                                               \
  }                                                                                              \
  }

#endif /* BK_PERSISTENT_PIPELINE_CUH */
