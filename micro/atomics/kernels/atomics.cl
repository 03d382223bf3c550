/* System vs software atomic add (paper section VI): the two micro-benchmarks
 * (figures 8 and 9), the applications (figures 10-13) and the probes that
 * measure the speedup model's parameters (section V). Every kernel comes as a
 * system version (the device's atomic_add / atomicAdd) and a software version
 * (swatomic.clh: group 0 coordinates, groups 1.. request); MM and KMeans also
 * as a per-wavefront system version (the first active lane of a wavefront
 * reserves the wavefront's output slots with one atomic).
 *
 * Work-item g's increment in the micro-benchmarks is 1 + (g mod 1024): never 0
 * (so the old values a variable returns are distinct and chain up to its final
 * value) and small (the sums stay below 2^32 up to 4M work-items). Its variable
 * is (g / wave) mod nvars (one per wavefront, the paper's restriction); with
 * skip_every > 0 the work-items with g mod skip_every == 0 do not add
 * (divergent callers). */
#include "harness/dialect/dialect.h"
#include "micro/atomics/kernels/swatomic.clh"

DEVICE_FN u32 atomics_inc_of(u32 g) { return 1u + (g & 1023u); }
DEVICE_FN u32 atomics_var_of(u32 g, u32 wave, u32 nvars) { return (g / wave) % nvars; }
DEVICE_FN u32 atomics_active(u32 g, u32 skip_every) {
  return skip_every == 0u || (g % skip_every) != 0u;
}

/* ---------------------------------------------------------------- fig 8 / 9 */

KERNEL atomics_system_add(GLOBAL u32* vars, u32 nvars, u32 wave, u32 skip_every) {
  const u32 g = GLOBAL_ID;
  if (atomics_active(g, skip_every))
    ATOMIC_ADD_U32(&vars[atomics_var_of(g, wave, nvars)], atomics_inc_of(g));
}

/* With one memory transaction more per work-item: the old value is stored. */
KERNEL atomics_system_add_mem(GLOBAL u32* vars, u32 nvars, u32 wave, u32 skip_every,
                              GLOBAL u32* old) {
  const u32 g = GLOBAL_ID;
  u32 r = 0u;
  if (atomics_active(g, skip_every))
    r = ATOMIC_ADD_U32(&vars[atomics_var_of(g, wave, nvars)], atomics_inc_of(g));
  old[g] = r;
}

KERNEL atomics_software_add(GLOBAL u32* vars, u32 nvars, u32 skip_every, GLOBAL u64* swa_slots,
                            GLOBAL u32* swa_finished, GLOBAL u32* swa_status, u32 wave,
                            u32 spin_limit, LOCAL_DYNAMIC_PARAM(u32, swa_scratch)) {
  LOCAL_DYNAMIC(u32, swa_scratch);
  SWA_LOCALS_NORET;
  if (GROUP_ID == 0u) {
    SWA_COORDINATE(vars);
  } else {
    SWA_BEGIN();
    const u32 g = SWA_GID;
    SWA_ADD_NORET(vars, atomics_var_of(g, wave, nvars), atomics_inc_of(g),
                  atomics_active(g, skip_every));
    SWA_END();
  }
}

KERNEL atomics_software_add_mem(GLOBAL u32* vars, u32 nvars, u32 skip_every, GLOBAL u32* old,
                                GLOBAL u64* swa_slots, GLOBAL u32* swa_finished,
                                GLOBAL u32* swa_status, u32 wave, u32 spin_limit,
                                LOCAL_DYNAMIC_PARAM(u32, swa_scratch)) {
  LOCAL_DYNAMIC(u32, swa_scratch);
  SWA_LOCALS;
  if (GROUP_ID == 0u) {
    SWA_COORDINATE(vars);
  } else {
    SWA_BEGIN();
    const u32 g = SWA_GID;
    const u32 active = atomics_active(g, skip_every);
    u32 r = 0u;
    SWA_ADD(vars, atomics_var_of(g, wave, nvars), atomics_inc_of(g), active, r);
    old[g] = active ? r : 0u;
    SWA_END();
  }
}

/* ------------------------------------------------------ scalar product (12) */
/* Element i = g + k * threads for k < per_thread: result += x[i] * y[i] (mod 2^32). */

KERNEL atomics_dot_system(GLOBAL const u32* x, GLOBAL const u32* y, u32 per_thread,
                          GLOBAL u32* result) {
  for (u32 k = 0u; k < per_thread; ++k) {
    const u32 i = GLOBAL_ID + k * GLOBAL_SIZE;
    ATOMIC_ADD_U32(result, x[i] * y[i]);
  }
}

KERNEL atomics_dot_software(GLOBAL const u32* x, GLOBAL const u32* y, u32 per_thread,
                            GLOBAL u32* result, GLOBAL u64* swa_slots, GLOBAL u32* swa_finished,
                            GLOBAL u32* swa_status, u32 wave, u32 spin_limit,
                            LOCAL_DYNAMIC_PARAM(u32, swa_scratch)) {
  LOCAL_DYNAMIC(u32, swa_scratch);
  SWA_LOCALS_NORET;
  if (GROUP_ID == 0u) {
    SWA_COORDINATE(result);
  } else {
    SWA_BEGIN();
    for (u32 k = 0u; k < per_thread; ++k) {
      const u32 i = SWA_GID + k * SWA_THREADS;
      SWA_ADD_NORET(result, 0u, x[i] * y[i], 1u);
    }
    SWA_END();
  }
}

/* --------------------------------------------------------- string match (13) */
/* Work-item g scans positions [g * chunk, min((g + 1) * chunk, n)); every match
 * of key (klen bytes) starting there takes the next output slot from
 * count[0] and writes its position there. */

DEVICE_FN u32 atomics_match_at(GLOBAL const uchar* text, u32 n, u32 p, GLOBAL const uchar* key,
                               u32 klen) {
  if (p + klen > n) return 0u;
  for (u32 j = 0u; j < klen; ++j) {
    if (text[p + j] != key[j]) return 0u;
  }
  return 1u;
}

KERNEL atomics_match_system(GLOBAL const uchar* text, u32 n, GLOBAL const uchar* key, u32 klen,
                            u32 chunk, GLOBAL u32* count, GLOBAL u32* positions) {
  const u32 begin = GLOBAL_ID * chunk;
  const u32 end = begin + chunk < n ? begin + chunk : n;
  for (u32 p = begin; p < end; ++p) {
    if (atomics_match_at(text, n, p, key, klen)) {
      const u32 slot = ATOMIC_ADD_U32(count, 1u);
      positions[slot] = p;
    }
  }
}

/* The software version in rounds (the call must be reached by the whole
 * group): each work-item scans on to its next match, then the group adds
 * together, the work-items without a match passing active = 0; the group stops
 * when none of its work-items found one. */
KERNEL atomics_match_software(GLOBAL const uchar* text, u32 n, GLOBAL const uchar* key, u32 klen,
                              u32 chunk, GLOBAL u32* count, GLOBAL u32* positions,
                              GLOBAL u64* swa_slots, GLOBAL u32* swa_finished,
                              GLOBAL u32* swa_status, u32 wave, u32 spin_limit,
                              LOCAL_DYNAMIC_PARAM(u32, swa_scratch)) {
  LOCAL_DYNAMIC(u32, swa_scratch);
  SWA_LOCALS;
  if (GROUP_ID == 0u) {
    SWA_COORDINATE(count);
  } else {
    SWA_BEGIN();
    const u32 begin = SWA_GID * chunk;
    const u32 end = begin < n ? (begin + chunk < n ? begin + chunk : n) : begin;
    u32 p = begin;
    for (;;) {
      while (p < end && !atomics_match_at(text, n, p, key, klen)) ++p;
      const u32 found = p < end ? 1u : 0u;
      if (LOCAL_ID == 0u) swa_ctl[0] = 0u;
      BARRIER_LOCAL();
      if (found) swa_ctl[0] = 1u;
      BARRIER_LOCAL();
      if (swa_ctl[0] == 0u) break;
      u32 slot = 0u;
      SWA_ADD(count, 0u, 1u, found, slot);
      if (found) {
        positions[slot] = p;
        ++p;
      }
    }
    SWA_END();
  }
}

/* ------------------------------------------- MapReduce map phases (10, 11) */
/* Every map task emits one record through an output slot taken from count[0]:
 * per work-item (system atomic), per wavefront (the first active lane takes
 * the wavefront's slots with one system atomic; a local ticket orders the
 * lanes), or through the software atomic. Tasks t = g + r * threads, for
 * `rounds` rounds (the same for every work-item), active while t < tasks. */

/* MM: task t = i * n + j computes z = sum_k X[i][k] * Y[k][j] (u32, mod 2^32)
 * and emits (t, z). */
DEVICE_FN u32 atomics_mm_task(GLOBAL const u32* x, GLOBAL const u32* y, u32 n, u32 t) {
  const u32 i = t / n, j = t % n;
  u32 z = 0u;
  for (u32 k = 0u; k < n; ++k) z += x[i * n + k] * y[k * n + j];
  return z;
}

/* KMeans map: task t = point t (dims coordinates), emits (t, nearest centroid):
 * squared Euclidean distance in u32, ties to the lower centroid index. */
DEVICE_FN u32 atomics_km_task(GLOBAL const u32* points, GLOBAL const u32* centroids, u32 dims,
                              u32 k, u32 t) {
  u32 best = 0u, best_d = 0xffffffffu;
  for (u32 c = 0u; c < k; ++c) {
    u32 d = 0u;
    for (u32 j = 0u; j < dims; ++j) {
      const u32 a = points[t * dims + j], b = centroids[c * dims + j];
      const u32 diff = a > b ? a - b : b - a;
      d += diff * diff;
    }
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

/* The three emit strategies as kernel bodies (the KERNEL lines are written
 * out below, so the CUDA build finds them). */
#define ATOMICS_EMIT_THREAD(TASK_CALL)                 \
  for (u32 r = 0u; r < rounds; ++r) {                  \
    const u32 t = GLOBAL_ID + r * GLOBAL_SIZE;         \
    if (t < tasks) {                                   \
      const u32 v = TASK_CALL;                         \
      const u32 slot = ATOMIC_ADD_U32(count, 1u);      \
      out_key[slot] = t;                               \
      out_val[slot] = v;                               \
    }                                                  \
  }

#define ATOMICS_EMIT_WAVE(TASK_CALL)                                 \
  LOCAL_ARRAY(u32, wave_cnt, SWA_MAX_WAVES);                         \
  LOCAL_ARRAY(u32, wave_base, SWA_MAX_WAVES);                        \
  const u32 w = LOCAL_ID / wave;                                     \
  if (LOCAL_ID % wave == 0u) wave_cnt[w] = 0u;                       \
  BARRIER_LOCAL();                                                   \
  for (u32 r = 0u; r < rounds; ++r) {                                \
    const u32 t = GLOBAL_ID + r * GLOBAL_SIZE;                       \
    const u32 active = t < tasks ? 1u : 0u;                          \
    u32 v = 0u, ticket = 0xffffffffu;                                \
    if (active) {                                                    \
      v = TASK_CALL;                                                 \
      ticket = ATOMIC_INC_U32(&wave_cnt[w]);                         \
    }                                                                \
    BARRIER_LOCAL();                                                 \
    if (ticket == 0u) {                                              \
      wave_base[w] = ATOMIC_ADD_U32(count, wave_cnt[w]);             \
      wave_cnt[w] = 0u;                                              \
    }                                                                \
    BARRIER_LOCAL();                                                 \
    if (active) {                                                    \
      out_key[wave_base[w] + ticket] = t;                            \
      out_val[wave_base[w] + ticket] = v;                            \
    }                                                                \
    BARRIER_LOCAL();                                                 \
  }

#define ATOMICS_EMIT_SOFTWARE(TASK_CALL)                 \
  LOCAL_DYNAMIC(u32, swa_scratch);                       \
  SWA_LOCALS;                                            \
  if (GROUP_ID == 0u) {                                  \
    SWA_COORDINATE(count);                               \
  } else {                                               \
    SWA_BEGIN();                                         \
    for (u32 r = 0u; r < rounds; ++r) {                  \
      const u32 t = SWA_GID + r * SWA_THREADS;           \
      const u32 active = t < tasks ? 1u : 0u;            \
      u32 v = 0u, slot = 0u;                             \
      if (active) v = TASK_CALL;                         \
      SWA_ADD(count, 0u, 1u, active, slot);              \
      if (active) {                                      \
        out_key[slot] = t;                               \
        out_val[slot] = v;                               \
      }                                                  \
    }                                                    \
    SWA_END();                                           \
  }

#define ATOMICS_SWA_PARAMS                                                               \
  GLOBAL u64 *swa_slots, GLOBAL u32 *swa_finished, GLOBAL u32 *swa_status, u32 wave, \
      u32 spin_limit, LOCAL_DYNAMIC_PARAM(u32, swa_scratch)

KERNEL atomics_mm_thread(GLOBAL const u32* x, GLOBAL const u32* y, u32 n, u32 tasks, u32 rounds,
                         GLOBAL u32* count, GLOBAL u32* out_key, GLOBAL u32* out_val) {
  ATOMICS_EMIT_THREAD(atomics_mm_task(x, y, n, t))
}
KERNEL atomics_mm_wave(GLOBAL const u32* x, GLOBAL const u32* y, u32 n, u32 tasks, u32 rounds,
                       GLOBAL u32* count, GLOBAL u32* out_key, GLOBAL u32* out_val, u32 wave) {
  ATOMICS_EMIT_WAVE(atomics_mm_task(x, y, n, t))
}
KERNEL atomics_mm_software(GLOBAL const u32* x, GLOBAL const u32* y, u32 n, u32 tasks,
                           u32 rounds, GLOBAL u32* count, GLOBAL u32* out_key,
                           GLOBAL u32* out_val, ATOMICS_SWA_PARAMS) {
  ATOMICS_EMIT_SOFTWARE(atomics_mm_task(x, y, n, t))
}

KERNEL atomics_km_thread(GLOBAL const u32* points, GLOBAL const u32* centroids, u32 dims, u32 k,
                         u32 tasks, u32 rounds, GLOBAL u32* count, GLOBAL u32* out_key,
                         GLOBAL u32* out_val) {
  ATOMICS_EMIT_THREAD(atomics_km_task(points, centroids, dims, k, t))
}
KERNEL atomics_km_wave(GLOBAL const u32* points, GLOBAL const u32* centroids, u32 dims, u32 k,
                       u32 tasks, u32 rounds, GLOBAL u32* count, GLOBAL u32* out_key,
                       GLOBAL u32* out_val, u32 wave) {
  ATOMICS_EMIT_WAVE(atomics_km_task(points, centroids, dims, k, t))
}
KERNEL atomics_km_software(GLOBAL const u32* points, GLOBAL const u32* centroids, u32 dims, u32 k,
                           u32 tasks, u32 rounds, GLOBAL u32* count, GLOBAL u32* out_key,
                           GLOBAL u32* out_val, ATOMICS_SWA_PARAMS) {
  ATOMICS_EMIT_SOFTWARE(atomics_km_task(points, centroids, dims, k, t))
}

/* ------------------------------------------------------ model probes (V) */

/* t_fast: one work-item follows `steps` links of a random cycle (dependent
 * global loads through the normal path); out[0] = where it ends. */
KERNEL atomics_probe_chase(GLOBAL const u32* next, u32 steps, GLOBAL u32* out) {
  if (GLOBAL_ID != 0u) return;
  u32 p = 0u;
  for (u32 s = 0u; s < steps; ++s) p = next[p];
  out[0] = p;
}

/* t_comp: every work-item adds 1 `iters` times to one global word, using the
 * returned value (sink[g] = the sum of what it got back, so the adds are real
 * read-modify-writes). */
KERNEL atomics_probe_global(GLOBAL u32* counter, u32 iters, GLOBAL u32* sink) {
  u32 acc = 0u;
  for (u32 i = 0u; i < iters; ++i) acc += ATOMIC_ADD_U32(counter, 1u);
  sink[GLOBAL_ID] = acc;
}

/* t_local: the work-items of a group add 1 `iters` times to one local word;
 * out[group] = its final value. */
KERNEL atomics_probe_local(u32 iters, GLOBAL u32* out, GLOBAL u32* sink) {
  LOCAL_ARRAY(u32, counter, 1);
  if (LOCAL_ID == 0u) counter[0] = 0u;
  BARRIER_LOCAL();
  u32 acc = 0u;
  for (u32 i = 0u; i < iters; ++i) acc += ATOMIC_ADD_U32(&counter[0], 1u);
  BARRIER_LOCAL();
  if (LOCAL_ID == 0u) out[GROUP_ID] = counter[0];
  sink[GLOBAL_ID] = acc;
}
