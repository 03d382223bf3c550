/* Mars runtime kernels (seed S1, section 3): map count / emit, bitonic sort of
 * the directory index, group detection, reduce count / emit. Included after
 * the app's user functions (frameworks/mapreduce/common/mapreduce_program.cpp). */

/* Task k of thread t. Coalesced (Mars 3.4): thread t takes tasks t, t+T, t+2T,
 * so neighbouring threads touch neighbouring records. Chunked: a contiguous run.
 * The four kernels below keep their own counted `for (k < per)` loops: folding
 * them into one "next task" helper made the reduce 38% slower on an H100
 * (1237 -> 1710 ms at 1 GiB; nvcc scheduled the hot key's value loop worse). */
DEVICE_FN u32 mars_task(u32 t, u32 k, u32 threads, u32 per_thread, u32 coalesced) {
  return coalesced ? t + k * threads : t * per_thread + k;
}

DEVICE_FN EmitCtx mars_ctx(GLOBAL const uchar* side, u32 side_size, u32 mode, u32 key_bytes,
                           u32 pairs) {
  EmitCtx ctx;
  ctx.side = side;
  ctx.side_size = side_size;
  ctx.mode = mode;
  ctx.key_bytes = key_bytes;
  ctx.pairs = pairs;
  ctx.keys = 0;
  ctx.recs = 0;
  ctx.vals = 0;
  ctx.out_recs = 0;
  ctx.out_vals = 0;
  ctx.vector_loads = 0;
  ctx.counters = 0;
  ctx.key_capacity = 0;
  ctx.pair_capacity = 0;
  ctx.reserved = 0;
  return ctx;
}

/* ------------------------------------------------------------------ map */
/* Thread GLOBAL_ID's map tasks (mars_task: coalesced or chunked), each
 * through the app's map with `ctx` (count, write or reserve mode). */
DEVICE_FN void mars_map_tasks(EmitCtx* ctx, GLOBAL const uchar* input, GLOBAL const u32* rec_off,
                              u32 num_records, u32 coalesced) {
  const u32 t = GLOBAL_ID, threads = GLOBAL_SIZE;
  const u32 per = (num_records + threads - 1) / threads;
  for (u32 k = 0; k < per; ++k) {
    const u32 r = mars_task(t, k, threads, per, coalesced);
    if (r >= num_records) break;
    app_map(ctx, input, rec_off[r], rec_off[r + 1]);
  }
}

KERNEL mars_map_count(GLOBAL const uchar* input, GLOBAL const u32* rec_off, u32 num_records,
                      u32 coalesced, GLOBAL const uchar* side, u32 side_size, GLOBAL u32* key_bytes,
                      GLOBAL u32* pairs) {
  const u32 t = GLOBAL_ID;
  EmitCtx ctx = mars_ctx(side, side_size, MARS_MODE_COUNT, 0u, 0u);
  mars_map_tasks(&ctx, input, rec_off, num_records, coalesced);
  key_bytes[t] = ctx.key_bytes;
  pairs[t] = ctx.pairs;
}

KERNEL mars_map_emit(GLOBAL const uchar* input, GLOBAL const u32* rec_off, u32 num_records,
                     u32 coalesced, GLOBAL const uchar* side, u32 side_size,
                     GLOBAL const u32* key_offsets, GLOBAL const u32* pair_offsets,
                     GLOBAL uchar* keys, GLOBAL MarsRecord* recs, GLOBAL APP_VAL_T* vals,
                     u32 vector_loads) {
  const u32 t = GLOBAL_ID;
  EmitCtx ctx = mars_ctx(side, side_size, MARS_MODE_WRITE, key_offsets[t], pair_offsets[t]);
  ctx.vector_loads = vector_loads;
  ctx.keys = keys;
  ctx.recs = recs;
  ctx.vals = vals;
  mars_map_tasks(&ctx, input, rec_off, num_records, coalesced);
}

/* ------------------------------------------------- map, AtomicMR (S0) */
/* No count pass: every emit reserves its key bytes and its pair with global
 * atomics (MARS_MODE_RESERVE_EACH) in buffers of the capacity the host
 * guessed; past it nothing is written, and the counters tell the host the
 * size to retry with. */
KERNEL mars_map_atomic_thread(GLOBAL const uchar* input, GLOBAL const u32* rec_off, u32 num_records,
                              u32 coalesced, GLOBAL const uchar* side, u32 side_size,
                              GLOBAL u32* counters, u32 key_capacity, u32 pair_capacity,
                              GLOBAL uchar* keys, GLOBAL MarsRecord* recs, GLOBAL APP_VAL_T* vals,
                              u32 vector_loads) {
  EmitCtx ctx = mars_ctx(side, side_size, MARS_MODE_RESERVE_EACH, 0u, 0u);
  ctx.vector_loads = vector_loads;
  ctx.keys = keys;
  ctx.recs = recs;
  ctx.vals = vals;
  ctx.counters = counters;
  ctx.key_capacity = key_capacity;
  ctx.pair_capacity = pair_capacity;
  mars_map_tasks(&ctx, input, rec_off, num_records, coalesced);
}

/* One reservation per warp and round (S0: a master thread reserves the
 * output space of its whole wavefront), for
 * apps whose map emits exactly one pair with an APP_KEY_SIZE-byte key per
 * record, so a lane's need is known before its map runs: 1 pair if it has a
 * record this round. Lock-step is not assumed: lanes publish their need in
 * local memory, the first lane of every `warp` lanes adds them up and does
 * the one atomic, and after a barrier each lane writes at the warp's base
 * plus the lanes before it. Every work-item runs every round (the barriers'
 * trip count is uniform). Keys have one size, so a pair's key bytes start at
 * pair * APP_KEY_SIZE and one counter serves both. An emit that breaks the
 * declaration (none, two, another key size) sets MARS_COUNTER_BROKEN. */
KERNEL mars_map_atomic_warp(GLOBAL const uchar* input, GLOBAL const u32* rec_off, u32 num_records,
                            u32 coalesced, GLOBAL const uchar* side, u32 side_size,
                            GLOBAL u32* counters, GLOBAL uchar* keys, GLOBAL MarsRecord* recs,
                            GLOBAL APP_VAL_T* vals, u32 vector_loads, u32 warp) {
#if defined(APP_MAP_EMITS_ONE) && defined(APP_KEY_SIZE)
  LOCAL_ARRAY(u32, has_record, MARS_MAX_GROUP_SIZE);
  LOCAL_ARRAY(u32, warp_base, MARS_MAX_GROUP_SIZE); /* at the leader's lane */
  u32 t = GLOBAL_ID, threads = GLOBAL_SIZE, lane = LOCAL_ID;
  u32 leader = lane - lane % warp;
  u32 per = (num_records + threads - 1) / threads;
  EmitCtx ctx = mars_ctx(side, side_size, MARS_MODE_RESERVED_ONE, 0u, 0u);
  ctx.vector_loads = vector_loads;
  ctx.keys = keys;
  ctx.recs = recs;
  ctx.vals = vals;
  ctx.counters = counters;
  for (u32 k = 0; k < per; ++k) {
    u32 r = mars_task(t, k, threads, per, coalesced);
    u32 valid = r < num_records ? 1u : 0u;
    has_record[lane] = valid;
    BARRIER_LOCAL();
    if (lane == leader) {
      u32 need = 0;
      for (u32 i = 0; i < warp; ++i) need += has_record[lane + i];
      warp_base[lane] = need > 0 ? ATOMIC_ADD_U32(counters + MARS_COUNTER_PAIRS, need) : 0u;
    }
    BARRIER_LOCAL();
    if (valid) {
      u32 before = 0;
      for (u32 i = leader; i < lane; ++i) before += has_record[i];
      ctx.pairs = warp_base[leader] + before;
      ctx.key_bytes = ctx.pairs * (u32)APP_KEY_SIZE;
      ctx.reserved = 1u;
      app_map(&ctx, input, rec_off[r], rec_off[r + 1]);
      if (ctx.reserved) ATOMIC_MAX_U32(counters + MARS_COUNTER_BROKEN, 1u);
    }
    BARRIER_LOCAL(); /* has_record and warp_base are rewritten next round */
  }
#else
  /* The host refuses apps without the declaration (mars_runtime.cpp). */
  (void)input;
  (void)rec_off;
  (void)num_records;
  (void)coalesced;
  (void)side;
  (void)side_size;
  (void)counters;
  (void)keys;
  (void)recs;
  (void)vals;
  (void)vector_loads;
  (void)warp;
#endif
}

/* ----------------------------------------------------------------- sort */
/* Sort flags: MARS_SORT_HASH compares hashes first (Mars 3.4 "Sort"), so
 * records compare by hash and fetch key bytes only on equal hashes: equal keys
 * still end up adjacent, though not in byte order. MARS_SORT_VECTOR compares
 * key bytes a 4-byte word at a time where both keys share an alignment (Mars
 * 3.4 "built-in vectors"). */
#define MARS_SORT_HASH 1u
#define MARS_SORT_VECTOR 2u

DEVICE_FN int mars_compare(GLOBAL const uchar* keys, MarsRecord a, MarsRecord b, u32 flags) {
  int a_pad = a.key_len == MARS_SENTINEL, b_pad = b.key_len == MARS_SENTINEL;
  if (a_pad || b_pad) return a_pad - b_pad;
  if ((flags & MARS_SORT_HASH) && a.hash != b.hash) return a.hash < b.hash ? -1 : 1;
  u32 n = a.key_len < b.key_len ? a.key_len : b.key_len;
  u32 i = 0;
  if ((flags & MARS_SORT_VECTOR) && ((a.key_off ^ b.key_off) & 3u) == 0u) {
    for (; i < n && ((a.key_off + i) & 3u) != 0u; ++i) {
      uchar x = keys[a.key_off + i], y = keys[b.key_off + i];
      if (x != y) return x < y ? -1 : 1;
    }
    /* Equal words are skipped whole; the first unequal one is compared byte by byte below. */
    while (i + 4u <= n && *((GLOBAL const u32*)(keys + a.key_off + i)) ==
                              *((GLOBAL const u32*)(keys + b.key_off + i))) {
      i += 4u;
    }
  }
  for (; i < n; ++i) {
    uchar x = keys[a.key_off + i], y = keys[b.key_off + i];
    if (x != y) return x < y ? -1 : 1;
  }
  return (a.key_len > b.key_len) - (a.key_len < b.key_len);
}

/* One compare-exchange step (stage k, distance j) of a bitonic sort over a
 * power-of-two count of records; one work-item per pair. */
KERNEL mars_bitonic_step(GLOBAL MarsRecord* recs, GLOBAL const uchar* keys, u32 pairs, u32 j, u32 k,
                         u32 flags) {
  u32 t = GLOBAL_ID;
  if (t >= pairs) return;
  u32 i = (t / j) * 2u * j + (t % j);
  u32 l = i + j;
  int ascending = (i & k) == 0;
  MarsRecord a = recs[i], b = recs[l];
  int c = mars_compare(keys, a, b, flags);
  if (ascending ? c > 0 : c < 0) {
    recs[i] = b;
    recs[l] = a;
  }
}

/* The steps with distance j < MARS_SORT_TILE stay inside one tile of
 * MARS_SORT_TILE records, so a work-group does them all in local memory: one
 * launch sorts every tile from scratch (stages k <= tile), and one launch per
 * larger stage finishes that stage after its long-distance global steps.
 * MARS_SORT_GROUP and MARS_SORT_TILE: mars_types.clh (via mars_emit.clh). */

/* k_max = 0: sort each tile (all stages up to the tile size); else finish stage
 * k_max with the steps j = tile/2 .. 1. The barriers stay in the kernel body's
 * own loops (uniform bounds): PoCL's work-group loops handle them there. */
KERNEL mars_bitonic_tile(GLOBAL MarsRecord* recs, GLOBAL const uchar* keys, u32 k_max, u32 flags) {
  LOCAL_ARRAY(MarsRecord, tile, MARS_SORT_TILE);
  u32 base = GROUP_ID * MARS_SORT_TILE;
  u32 t = LOCAL_ID;
  tile[t] = recs[base + t];
  tile[t + MARS_SORT_GROUP] = recs[base + t + MARS_SORT_GROUP];
  BARRIER_LOCAL();
  u32 k_first = k_max == 0 ? 2u : k_max;
  u32 k_last = k_max == 0 ? (u32)MARS_SORT_TILE : k_max;
  for (u32 k = k_first; k <= k_last; k <<= 1) {
    for (u32 j = (k_max == 0 ? k : (u32)MARS_SORT_TILE) >> 1; j > 0; j >>= 1) {
      u32 i = (t / j) * 2u * j + (t % j);
      u32 l = i + j;
      int ascending = ((base + i) & k) == 0;
      MarsRecord a = tile[i], b = tile[l];
      int c = mars_compare(keys, a, b, flags);
      if (ascending ? c > 0 : c < 0) {
        tile[i] = b;
        tile[l] = a;
      }
      BARRIER_LOCAL();
    }
  }
  recs[base + t] = tile[t];
  recs[base + t + MARS_SORT_GROUP] = tile[t + MARS_SORT_GROUP];
}

/* --------------------------------------------------------------- groups */
DEVICE_FN int mars_same_key(GLOBAL const uchar* keys, MarsRecord a, MarsRecord b) {
  if (a.key_len != b.key_len || a.hash != b.hash) return 0;
  for (u32 i = 0; i < a.key_len; ++i) {
    if (keys[a.key_off + i] != keys[b.key_off + i]) return 0;
  }
  return 1;
}

/* ----------------------------------------------------------- radix sort */
/* mars/radix groups the records with a device-wide radix sort
 * (frameworks/blocks/kernels/radix_sort.cl) of a 64-bit key hash instead of
 * the bitonic sort: the low word is a second hash of the key bytes, sorted
 * first (LSD), the high word the record's FNV-1a hash, sorted last; the
 * records are then gathered in that order. Equal keys end up adjacent unless
 * two different keys share both hashes: mars_radix_collisions counts such
 * neighbours, and the host then falls back to the bitonic sort. `mask` keeps
 * bits of the second hash (all but in tests, which force collisions). */
DEVICE_FN u32 mars_hash2(GLOBAL const uchar* keys, MarsRecord r) {
  u32 h = 0x9e3779b9u ^ r.key_len;
  for (u32 i = 0; i < r.key_len; ++i)
    h = (((h << 5) | (h >> 27)) ^ keys[r.key_off + i]) * 0x27d4eb2du;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  return h ^ (h >> 13);
}

KERNEL mars_radix_keys(GLOBAL const MarsRecord* recs, GLOBAL const uchar* keys, u32 n, u32 mask,
                       GLOBAL u32* low, GLOBAL u32* order) {
  u32 i = GLOBAL_ID;
  if (i >= n) return;
  low[i] = mars_hash2(keys, recs[i]) & mask;
  order[i] = i;
}

KERNEL mars_radix_gather_hash(GLOBAL const MarsRecord* recs, GLOBAL const u32* order, u32 n,
                              GLOBAL u32* high) {
  u32 i = GLOBAL_ID;
  if (i < n) high[i] = recs[order[i]].hash;
}

KERNEL mars_radix_gather(GLOBAL const MarsRecord* recs, GLOBAL const u32* order, u32 n,
                         GLOBAL MarsRecord* sorted) {
  u32 i = GLOBAL_ID;
  if (i < n) sorted[i] = recs[order[i]];
}

KERNEL mars_radix_collisions(GLOBAL const MarsRecord* recs, GLOBAL const uchar* keys, u32 n,
                             u32 mask, GLOBAL u32* collisions) {
  u32 i = GLOBAL_ID;
  if (i == 0 || i >= n) return;
  MarsRecord a = recs[i - 1], b = recs[i];
  if (a.hash == b.hash && !mars_same_key(keys, a, b) &&
      ((mars_hash2(keys, a) ^ mars_hash2(keys, b)) & mask) == 0u) {
    ATOMIC_INC_U32(collisions);
  }
}

KERNEL mars_mark_groups(GLOBAL const MarsRecord* recs, GLOBAL const uchar* keys, u32 n,
                        GLOBAL u32* flags) {
  u32 i = GLOBAL_ID;
  if (i >= n) return;
  flags[i] = (i == 0 || !mars_same_key(keys, recs[i - 1], recs[i])) ? 1u : 0u;
}

/* ids = exclusive scan of flags, so a group's first record i has ids[i] = group. */
KERNEL mars_group_starts(GLOBAL const u32* flags, GLOBAL const u32* ids, u32 n,
                         GLOBAL u32* starts) {
  u32 i = GLOBAL_ID;
  if (i < n && flags[i]) starts[ids[i]] = i;
}

/* noReduce output: the sorted index as (key offset, key length) records and
 * the values gathered in that order, so the host reads the output as it
 * stands. */
KERNEL mars_intermediate_out(GLOBAL const MarsRecord* recs, GLOBAL const APP_VAL_T* vals, u32 n,
                             GLOBAL MarsOutRecord* out_recs, GLOBAL APP_VAL_T* out_vals) {
  u32 i = GLOBAL_ID;
  if (i >= n) return;
  MarsRecord r = recs[i];
  MarsOutRecord o;
  o.key_off = r.key_off;
  o.key_len = r.key_len;
  out_recs[i] = o;
  out_vals[i] = vals[r.val_idx];
}

/* --------------------------------------------------------------- reduce */
/* Apps without reduce (Mars' noReduce) define no app_reduce: the sorted
 * intermediate pairs are the output and the reduce kernels are never launched
 * (they still exist, empty, so every program has the same kernels). */
DEVICE_FN void mars_reduce_group(EmitCtx* ctx, GLOBAL const MarsRecord* recs,
                                 GLOBAL const uchar* keys, GLOBAL const APP_VAL_T* vals,
                                 GLOBAL const u32* starts, u32 g) {
#if APP_HAS_REDUCE
  ValueList values;
  values.recs = recs;
  values.vals = vals;
  values.begin = starts[g];
  values.count = starts[g + 1] - starts[g];
  MarsRecord first = recs[values.begin];
  app_reduce(ctx, keys + first.key_off, first.key_len, &values);
#else
  (void)ctx;
  (void)recs;
  (void)keys;
  (void)vals;
  (void)starts;
  (void)g;
#endif
}

KERNEL mars_reduce_count(GLOBAL const MarsRecord* recs, GLOBAL const uchar* keys,
                         GLOBAL const APP_VAL_T* vals, GLOBAL const u32* starts, u32 groups,
                         u32 coalesced, GLOBAL const uchar* side, u32 side_size,
                         GLOBAL u32* key_bytes, GLOBAL u32* outputs) {
  u32 t = GLOBAL_ID, threads = GLOBAL_SIZE;
  u32 per = (groups + threads - 1) / threads;
  EmitCtx ctx = mars_ctx(side, side_size, MARS_MODE_COUNT, 0u, 0u);
  for (u32 k = 0; k < per; ++k) {
    u32 g = mars_task(t, k, threads, per, coalesced);
    if (g >= groups) break;
    mars_reduce_group(&ctx, recs, keys, vals, starts, g);
  }
  key_bytes[t] = ctx.key_bytes;
  outputs[t] = ctx.pairs;
}

KERNEL mars_reduce_emit(GLOBAL const MarsRecord* recs, GLOBAL const uchar* keys,
                        GLOBAL const APP_VAL_T* vals, GLOBAL const u32* starts, u32 groups,
                        u32 coalesced, GLOBAL const uchar* side, u32 side_size,
                        GLOBAL const u32* key_offsets, GLOBAL const u32* out_offsets,
                        GLOBAL uchar* out_keys, GLOBAL MarsOutRecord* out_recs,
                        GLOBAL APP_OUT_T* out_vals) {
  u32 t = GLOBAL_ID, threads = GLOBAL_SIZE;
  u32 per = (groups + threads - 1) / threads;
  EmitCtx ctx = mars_ctx(side, side_size, MARS_MODE_WRITE, key_offsets[t], out_offsets[t]);
  ctx.keys = out_keys;
  ctx.out_recs = out_recs;
  ctx.out_vals = out_vals;
  for (u32 k = 0; k < per; ++k) {
    u32 g = mars_task(t, k, threads, per, coalesced);
    if (g >= groups) break;
    mars_reduce_group(&ctx, recs, keys, vals, starts, g);
  }
}

/* AtomicMR's reduce: one reservation per emit (S0 reserves reduce output per
 * thread in every variant), in buffers of the capacity the host guessed. */
KERNEL mars_reduce_atomic(GLOBAL const MarsRecord* recs, GLOBAL const uchar* keys,
                          GLOBAL const APP_VAL_T* vals, GLOBAL const u32* starts, u32 groups,
                          u32 coalesced, GLOBAL const uchar* side, u32 side_size,
                          GLOBAL u32* counters, u32 key_capacity, u32 out_capacity,
                          GLOBAL uchar* out_keys, GLOBAL MarsOutRecord* out_recs,
                          GLOBAL APP_OUT_T* out_vals) {
  u32 t = GLOBAL_ID, threads = GLOBAL_SIZE;
  u32 per = (groups + threads - 1) / threads;
  EmitCtx ctx = mars_ctx(side, side_size, MARS_MODE_RESERVE_EACH, 0u, 0u);
  ctx.keys = out_keys;
  ctx.out_recs = out_recs;
  ctx.out_vals = out_vals;
  ctx.counters = counters;
  ctx.key_capacity = key_capacity;
  ctx.pair_capacity = out_capacity;
  for (u32 k = 0; k < per; ++k) {
    u32 g = mars_task(t, k, threads, per, coalesced);
    if (g >= groups) break;
    mars_reduce_group(&ctx, recs, keys, vals, starts, g);
  }
}
