/* StreamMR kernels (seed S0, section V): map with per-work-group output and
 * one hash table per wavefront (a work-group is one wavefront), its second
 * pass, the reduce across all tables with its cleanup, the tree-like
 * merge of tables, and the compaction of map-only output. Included after the app's user functions
 * (frameworks/mapreduce/common/mapreduce_program.cpp).
 *
 * The paper relies on the lock-step execution of a wavefront; here every step
 * that hands data from one work-item to another is separated by a barrier, and
 * every loop around a barrier has the same trip count for the whole group. */

DEVICE_FN SmrStore smr_store(GLOBAL SmrEntry* entries, GLOBAL APP_VAL_T* vals, GLOBAL uchar* keys,
                             GLOBAL SmrEntry* ovf_entries, GLOBAL APP_VAL_T* ovf_vals,
                             GLOBAL uchar* ovf_keys, u32 primary) {
  SmrStore s;
  s.entries = entries;
  s.vals = vals;
  s.keys = keys;
  s.ovf_entries = ovf_entries;
  s.ovf_vals = ovf_vals;
  s.ovf_keys = ovf_keys;
  s.primary = primary;
  return s;
}

DEVICE_FN EmitCtx smr_ctx(GLOBAL const uchar* side, u32 side_size, LOCAL_PTR u32* counters,
                          u32 hash_mask) {
  EmitCtx ctx;
  ctx.side = side;
  ctx.side_size = side_size;
  ctx.counters = counters;
  ctx.cap_pairs = 0xffffffffu;
  ctx.cap_bytes = 0xffffffffu;
  ctx.slot_base = 0u;
  ctx.byte_base = 0u;
  ctx.hash_mask = hash_mask;
  ctx.reducing = 0u;
  ctx.emitted = 0u;
  ctx.skip = 0u;
  ctx.spilled = 0u;
  ctx.spill_at = 0u;
  ctx.entries = 0;
  ctx.vals = 0;
  ctx.keys = 0;
  ctx.out_recs = 0;
  ctx.out_vals = 0;
  ctx.source = SMR_NONE;
  ctx.table = 0u;
  return ctx;
}

/* Work-items of the election that hold a value in local memory at once: the
 * wavefront, halved until the local value buffer holds them all (S0 V.C.1). */
DEVICE_FN u32 smr_active_threads(u32 wave, u32 local_values, u32 combine) {
  u32 active = wave;
  if (combine) {
    while (active > 1u && active > local_values) active >>= 1;
  }
  return active;
}

#if APP_HAS_REDUCE
/* Figure 6, step 3: master work-item m links the entries of its bucket
 * (slaves[j] == m, in work-item order) into table `table`. A key already in
 * the bucket gets the entry appended to its chain, or, with the combiner, the
 * value combined into its head (slaves' values wait in local memory, and equal
 * keys of the same step are combined there first). A new key's entry becomes
 * a head at the bucket's tail. */
DEVICE_FN void smr_master_insert(SmrStore* s, GLOBAL SmrBucket* table, u32 m, u32 active,
                                 u32 combine, LOCAL_PTR u32* slaves, LOCAL_PTR u32* list_ids,
                                 LOCAL_PTR APP_VAL_T* local_vals, LOCAL_PTR u32* counters) {
  /* Slaves folded into an earlier slave of the same key: a private mask, so
   * that masters never write the local arrays other masters scan. */
  u64 folded = 0u;
#if APP_HAS_COMBINE
  if (combine) {
    for (u32 j = m + 1u; j < active; ++j) {
      if (slaves[j] != m) continue;
      const u32 ej = list_ids[j];
      const SmrEntry e = *smr_entry(s, ej);
      for (u32 k = m; k < j; ++k) {
        if (slaves[k] != m || ((folded >> k) & 1u)) continue;
        if (smr_same_key(s, list_ids[k], *smr_entry(s, list_ids[k]), ej, e)) {
          local_vals[k] = app_combine(local_vals[k], local_vals[j]);
          folded |= (u64)1u << j;
          break;
        }
      }
    }
  }
#else
  (void)local_vals;
#endif
  for (u32 j = m; j < active; ++j) {
    if (slaves[j] != m || ((folded >> j) & 1u)) continue;
    const u32 id = list_ids[j];
    GLOBAL SmrEntry* e = smr_entry(s, id);
    u32 found = SMR_NONE;
    const SmrEntry ev = *e;
    for (u32 h = table->head; h != SMR_NONE;) {
      const SmrEntry eh = *smr_entry(s, h);
      if (smr_same_key(s, h, eh, id, ev)) {
        found = h;
        break;
      }
      h = eh.next_key;
    }
    if (found != SMR_NONE) {
#if APP_HAS_COMBINE
      if (combine) {
        GLOBAL APP_VAL_T* hv = smr_value(s, found);
        *hv = app_combine(*hv, local_vals[j]);
        continue;
      }
#endif
      GLOBAL SmrEntry* head = smr_entry(s, found);
      smr_entry(s, head->last_val)->next_val = id;
      head->last_val = id;
      head->count += 1u;
    } else {
#if APP_HAS_COMBINE
      if (combine) *smr_value(s, id) = local_vals[j];
#endif
      e->last_val = id;
      if (table->tail == SMR_NONE) {
        table->head = id;
      } else {
        smr_entry(s, table->tail)->next_key = id;
      }
      table->tail = id;
      ATOMIC_INC_U32(&counters[SMR_C_HEADS]);
      ATOMIC_ADD_U32(&counters[SMR_C_HEAD_BYTES], ev.key_len);
    }
  }
}
#endif

/* ------------------------------------------------------------------ map */
/* Pass 0 (streammr_map) maps records (r * groups + group) * wave + lane in
 * rounds and writes into the group's preallocated region; pass 1
 * (streammr_map_overflow) re-runs the group's spilled records, skipping the
 * emits pass 0 wrote, and writes the rest into the overflow buffer at the
 * group's offsets (prefix sums of the counts). After each round's map the
 * group inserts the round's entries into its hash table, `active` entries per
 * election step (figure 6). Map-only apps skip the hash table. */
#define SMR_MAP_PARAMS GLOBAL const uchar* input, GLOBAL const u32* rec_off, u32 num_records,               \
              GLOBAL const uchar* side, u32 side_size, u32 cap_pairs, u32 cap_bytes,               \
              GLOBAL SmrBucket* tables, u32 buckets, u32 hash_mask, u32 combine, u32 local_values, \
              LOCAL_DYNAMIC_PARAM(APP_VAL_T, local_vals), GLOBAL SmrEntry* entries,                \
              GLOBAL APP_VAL_T* vals, GLOBAL uchar* keys, GLOBAL SmrEntry* ovf_entries,            \
              GLOBAL APP_VAL_T* ovf_vals, GLOBAL uchar* ovf_keys, GLOBAL const u32* ovf_pair_base, \
              GLOBAL const u32* ovf_byte_base, GLOBAL u32* spill, GLOBAL u32* stats

/* The map call of a round: the app's map over buffers, or (streammr/image)
 * over the image copies of its input (app_map_image, streammr.image). */
#define SMR_CALL_MAP app_map(&ctx, input, rec_off[rec], rec_off[rec + 1u])
#define SMR_CALL_MAP_IMAGE app_map_image(&ctx, image_a, image_b, rec_off[rec])

#define SMR_MAP_BODY(PASS, CALL) \
    SMR_ELECTION_LOCALS                                                                            \
    LOCAL_ARRAY(u32, counters, SMR_COUNTERS);                                                      \
    const u32 lane = LOCAL_ID, wave = LOCAL_SIZE, g = GROUP_ID, groups = NUM_GROUPS;               \
    const u32 primary = groups * cap_pairs;                                                        \
    const u32 per_group = ((num_records + groups * wave - 1u) / (groups * wave)) * wave;           \
    SmrStore store =                                                                               \
        smr_store(entries, vals, keys, ovf_entries, ovf_vals, ovf_keys, primary);                  \
    for (u32 i = lane; i < SMR_COUNTERS; i += wave) counters[i] = 0u;                              \
    if (PASS == 0 && APP_HAS_REDUCE) {                                                             \
      for (u32 b = lane; b < buckets; b += wave) {                                                 \
        tables[g * buckets + b].head = SMR_NONE;                                                   \
        tables[g * buckets + b].tail = SMR_NONE;                                                   \
      }                                                                                            \
    }                                                                                              \
    BARRIER_ALL();                                                                                 \
    const u32 combine_on = combine && APP_HAS_COMBINE;                                             \
    const u32 active = smr_active_threads(wave, local_values, combine_on);                         \
    const u32 tasks = PASS == 0 ? num_records : stats[SMR_STAT_SPILLS * groups + g];               \
    const u32 rounds = PASS == 0 ? per_group / wave : (tasks + wave - 1u) / wave;                  \
    for (u32 r = 0; r < rounds; ++r) {                                                             \
      const u32 begin = counters[SMR_C_SLOTS] < cap_pairs || PASS == 1 ? counters[SMR_C_SLOTS]     \
                                                                       : cap_pairs;                \
      BARRIER_LOCAL(); /* everyone has read `begin` before this round's emits move it */           \
      EmitCtx ctx = smr_ctx(side, side_size, counters, hash_mask);                                 \
      u32 rec = SMR_NONE;                                                                          \
      if (PASS == 0) {                                                                             \
        ctx.cap_pairs = cap_pairs;                                                                 \
        ctx.cap_bytes = cap_bytes;                                                                 \
        ctx.slot_base = g * cap_pairs;                                                             \
        ctx.byte_base = g * cap_bytes;                                                             \
        ctx.entries = entries;                                                                     \
        ctx.vals = vals;                                                                           \
        ctx.keys = keys;                                                                           \
        const u32 t = (r * groups + g) * wave + lane;                                              \
        if (t < num_records) rec = t;                                                              \
      } else {                                                                                     \
        ctx.slot_base = ovf_pair_base[g];                                                          \
        ctx.byte_base = ovf_byte_base[g];                                                          \
        ctx.entries = ovf_entries;                                                                 \
        ctx.vals = ovf_vals;                                                                       \
        ctx.keys = ovf_keys;                                                                       \
        const u32 i = r * wave + lane;                                                             \
        if (i < tasks) {                                                                           \
          rec = spill[2u * (g * per_group + i)];                                                   \
          ctx.skip = spill[2u * (g * per_group + i) + 1u];                                         \
        }                                                                                          \
      }                                                                                            \
      if (rec != SMR_NONE) CALL;                                                                   \
      if (PASS == 0 && ctx.spilled) {                                                              \
        const u32 at = ATOMIC_INC_U32(&counters[SMR_C_SPILLS]);                                    \
        spill[2u * (g * per_group + at)] = rec;                                                    \
        spill[2u * (g * per_group + at) + 1u] = ctx.spill_at;                                      \
      }                                                                                            \
      BARRIER_ALL(); /* the round's entries are written */                                         \
      SMR_INSERT_ROUND(PASS)                                                                       \
    }                                                                                              \
    BARRIER_ALL();                                                                                 \
    if (lane == 0u) {                                                                              \
      if (PASS == 0) {                                                                             \
        const u32 slots = counters[SMR_C_SLOTS];                                                   \
        stats[SMR_STAT_SLOTS * groups + g] = slots < cap_pairs ? slots : cap_pairs;                \
        stats[SMR_STAT_WRITTEN * groups + g] = counters[SMR_C_WRITTEN];                            \
        stats[SMR_STAT_OVF_PAIRS * groups + g] = counters[SMR_C_OVF_PAIRS];                        \
        stats[SMR_STAT_OVF_BYTES * groups + g] = counters[SMR_C_OVF_BYTES];                        \
        stats[SMR_STAT_SPILLS * groups + g] = counters[SMR_C_SPILLS];                              \
        stats[SMR_STAT_HEADS * groups + g] = counters[SMR_C_HEADS];                                \
        stats[SMR_STAT_HEAD_BYTES * groups + g] = counters[SMR_C_HEAD_BYTES];                      \
        stats[SMR_STAT_ROUNDS * groups + g] = wave / active;                                       \
        const u32 used_bytes = (counters[SMR_C_BYTES] + 3u) & ~3u; /* whole words */              \
        stats[SMR_STAT_KEY_BYTES * groups + g] = used_bytes < cap_bytes ? used_bytes : cap_bytes;  \
      } else {                                                                                     \
        stats[SMR_STAT_HEADS * groups + g] += counters[SMR_C_HEADS];                               \
        stats[SMR_STAT_HEAD_BYTES * groups + g] += counters[SMR_C_HEAD_BYTES];                     \
      }                                                                                            \
    }

#if APP_HAS_REDUCE
/* The round's entries, `active` at a time: figure 6's three steps with a
 * barrier after each. Step 1: each work-item publishes its entry's bucket
 * (HashedKeys) and id (KeyValListId), and its value in local memory for the
 * combiner. Step 2: the first work-item of each bucket is its master
 * (Slaves). Step 3: masters update their buckets. */
#define SMR_INSERT_ROUND(PASS)                                                                     \
  const u32 end = PASS == 1 || counters[SMR_C_SLOTS] < cap_pairs ? counters[SMR_C_SLOTS]           \
                                                                   : cap_pairs;                    \
  for (u32 c = begin; c < end; c += active) {                                                      \
    u32 mine = SMR_NONE;                                                                           \
    if (lane < active && c + lane < end) {                                                         \
      const u32 id = PASS == 0 ? g * cap_pairs + c + lane : primary + ovf_pair_base[g] + c + lane; \
      const SmrEntry e = *smr_entry(&store, id);                                                   \
      if (e.key_len != SMR_DEAD) {                                                                 \
        mine = e.hash & (buckets - 1u);                                                            \
        list_ids[lane] = id;                                                                       \
        if (combine_on) local_vals[lane] = *smr_value(&store, id);                                 \
      }                                                                                            \
    }                                                                                              \
    hashed_keys[lane] = mine;                                                                      \
    BARRIER_ALL();                                                                                 \
    if (mine != SMR_NONE) {                                                                        \
      u32 master = lane;                                                                           \
      for (u32 j = 0; j < lane; ++j) {                                                             \
        if (hashed_keys[j] == mine) {                                                              \
          master = j;                                                                              \
          break;                                                                                   \
        }                                                                                          \
      }                                                                                            \
      slaves[lane] = master;                                                                       \
    } else {                                                                                       \
      slaves[lane] = SMR_NONE;                                                                     \
    }                                                                                              \
    BARRIER_ALL();                                                                                 \
    if (mine != SMR_NONE && slaves[lane] == lane) {                                                \
      smr_master_insert(&store, tables + g * buckets + mine, lane, active, combine_on, slaves,     \
                        list_ids, local_vals, counters);                                           \
    }                                                                                              \
    BARRIER_ALL();                                                                                 \
  }
#else
#define SMR_INSERT_ROUND(PASS) \
  (void)begin;                 \
  (void)store;
#endif

/* The election's local memory (map-only apps have no hash table). */
#if APP_HAS_REDUCE
#define SMR_ELECTION_LOCALS                    \
  LOCAL_DYNAMIC(APP_VAL_T, local_vals);        \
  LOCAL_ARRAY(u32, hashed_keys, SMR_MAX_WAVE); \
  LOCAL_ARRAY(u32, slaves, SMR_MAX_WAVE);      \
  LOCAL_ARRAY(u32, list_ids, SMR_MAX_WAVE);
#else
#define SMR_ELECTION_LOCALS
#endif

KERNEL streammr_map(SMR_MAP_PARAMS) { SMR_MAP_BODY(0, SMR_CALL_MAP) }
KERNEL streammr_map_overflow(SMR_MAP_PARAMS) { SMR_MAP_BODY(1, SMR_CALL_MAP) }

/* streammr/image: the same two passes with the input's matrices read through
 * the texture path. Every program has these kernels (the CUDA kernel tables
 * list every KERNEL line); they are empty for apps without APP_MAP_IMAGES and
 * absent on OpenCL devices without images. */
#if defined(IMAGE2D_F32)
#if defined(APP_MAP_IMAGES)
#define SMR_MAP_IMAGE_BODY(PASS) SMR_MAP_BODY(PASS, SMR_CALL_MAP_IMAGE)
#else
#define SMR_MAP_IMAGE_BODY(PASS)
#endif
KERNEL streammr_map_image(SMR_MAP_PARAMS, IMAGE2D_F32 image_a, IMAGE2D_F32 image_b) {
  SMR_MAP_IMAGE_BODY(0)
}
KERNEL streammr_map_image_overflow(SMR_MAP_PARAMS, IMAGE2D_F32 image_a, IMAGE2D_F32 image_b) {
  SMR_MAP_IMAGE_BODY(1)
}
#endif

/* --------------------------------------------------------------- reduce */
#if APP_HAS_REDUCE
/* Reduces the key whose head is `head` (bucket b of table t): its values are
 * its chains in tables t .. num_tables - 1. */
DEVICE_FN void smr_reduce_key(EmitCtx* ctx, SmrStore* s, GLOBAL const SmrBucket* tables,
                              u32 buckets, u32 num_tables, u32 t, u32 b, u32 head) {
  ValueList values;
  values.store = s;
  values.tables = tables;
  values.buckets = buckets;
  values.num_tables = num_tables;
  values.bucket = b;
  values.head = head;
  values.table = t;
  values.count = smr_entry(s, head)->count;
  for (u32 u = t + 1u; u < num_tables; ++u) {
    const u32 h = smr_find_head(s, tables, buckets, u, b, head);
    if (h != SMR_NONE) values.count += smr_entry(s, h)->count;
  }
  values.cur_index = 0u;
  values.cur_entry = head;
  values.cur_table = t;
  const SmrEntry e = *smr_entry(s, head);
  ctx->source = head;
  ctx->table = t;
  ctx->emitted = 0u;
  app_reduce(ctx, smr_key(s, head, e), e.key_len, &values);
}
#endif

/* One work-item per (table t, bucket b) with t < num_tables: it reduces each
 * key of that bucket of table t over tables t .. num_tables - 1 (S0 V.B.2).
 * A key also in an earlier table is reduced there too, with more values: the
 * cleanup kernel drops this partial output. Output goes to the work-group's
 * region as in map (pass 0), else counted; pass 1 (streammr_reduce_overflow)
 * resumes each spilled work-item at the key where it ran out. A spill is
 * (task, key ordinal in the bucket, emits of that key already written). */
#define SMR_REDUCE_PARAMS GLOBAL SmrEntry* entries, GLOBAL APP_VAL_T* vals, GLOBAL uchar* keys,                \
              GLOBAL SmrEntry* ovf_entries, GLOBAL APP_VAL_T* ovf_vals, GLOBAL uchar* ovf_keys,    \
              u32 primary, GLOBAL const SmrBucket* tables, u32 buckets, u32 num_tables,            \
              GLOBAL const uchar* side, u32 side_size, u32 cap_pairs, u32 cap_bytes,               \
              GLOBAL SmrOutRecord* out_recs, GLOBAL APP_OUT_T* out_vals, GLOBAL uchar* out_keys,   \
              GLOBAL SmrOutRecord* ovf_out_recs, GLOBAL APP_OUT_T* ovf_out_vals,                   \
              GLOBAL uchar* ovf_out_keys, GLOBAL const u32* ovf_pair_base,                         \
              GLOBAL const u32* ovf_byte_base, GLOBAL u32* spill, GLOBAL u32* stats

#define SMR_REDUCE_BODY(PASS) \
    LOCAL_ARRAY(u32, counters, SMR_COUNTERS);                                                      \
    const u32 lane = LOCAL_ID, wave = LOCAL_SIZE, g = GROUP_ID, groups = NUM_GROUPS;               \
    for (u32 i = lane; i < SMR_COUNTERS; i += wave) counters[i] = 0u;                              \
    BARRIER_LOCAL();                                                                               \
    SmrStore store =                                                                               \
        smr_store(entries, vals, keys, ovf_entries, ovf_vals, ovf_keys, primary);                  \
    EmitCtx ctx = smr_ctx(side, side_size, counters, 0xffffffffu);                                 \
    ctx.reducing = 1u;                                                                             \
    u32 task = SMR_NONE, first = 0u;                                                               \
    if (PASS == 0) {                                                                               \
      ctx.cap_pairs = cap_pairs;                                                                   \
      ctx.cap_bytes = cap_bytes;                                                                   \
      ctx.slot_base = g * cap_pairs;                                                               \
      ctx.byte_base = g * cap_bytes;                                                               \
      ctx.out_recs = out_recs;                                                                     \
      ctx.out_vals = out_vals;                                                                     \
      ctx.keys = out_keys;                                                                         \
      if (GLOBAL_ID < num_tables * buckets) task = GLOBAL_ID;                                      \
    } else {                                                                                       \
      ctx.slot_base = ovf_pair_base[g];                                                            \
      ctx.byte_base = ovf_byte_base[g];                                                            \
      ctx.out_recs = ovf_out_recs;                                                                 \
      ctx.out_vals = ovf_out_vals;                                                                 \
      ctx.keys = ovf_out_keys;                                                                     \
      if (lane < stats[SMR_STAT_SPILLS * groups + g]) {                                            \
        task = spill[3u * (g * wave + lane)];                                                      \
        first = spill[3u * (g * wave + lane) + 1u];                                                \
      }                                                                                            \
    }                                                                                              \
    SMR_REDUCE_TASK(PASS)                                                                          \
    BARRIER_LOCAL();                                                                               \
    if (lane == 0u && PASS == 0) {                                                                 \
      const u32 slots = counters[SMR_C_SLOTS];                                                     \
      stats[SMR_STAT_SLOTS * groups + g] = slots < cap_pairs ? slots : cap_pairs;                  \
      stats[SMR_STAT_WRITTEN * groups + g] = counters[SMR_C_WRITTEN];                              \
      stats[SMR_STAT_OVF_PAIRS * groups + g] = counters[SMR_C_OVF_PAIRS];                          \
      stats[SMR_STAT_OVF_BYTES * groups + g] = counters[SMR_C_OVF_BYTES];                          \
      stats[SMR_STAT_SPILLS * groups + g] = counters[SMR_C_SPILLS];                                \
    }

#if APP_HAS_REDUCE
#define SMR_REDUCE_TASK(PASS)                                                          \
  if (task != SMR_NONE) {                                                              \
    const u32 t = task / buckets, b = task % buckets;                                  \
    u32 k = 0u;                                                                        \
    for (u32 h = tables[t * buckets + b].head; h != SMR_NONE; ++k) {                   \
      if (k >= first) {                                                                \
        ctx.skip = PASS == 1 && k == first ? spill[3u * (g * wave + lane) + 2u] : 0u;  \
        const u32 was_spilled = ctx.spilled;                                           \
        smr_reduce_key(&ctx, &store, tables, buckets, num_tables, t, b, h);            \
        if (PASS == 0 && ctx.spilled && !was_spilled) {                                \
          const u32 at = ATOMIC_INC_U32(&counters[SMR_C_SPILLS]);                      \
          spill[3u * (g * wave + at)] = task;                                          \
          spill[3u * (g * wave + at) + 1u] = k;                                        \
          spill[3u * (g * wave + at) + 2u] = ctx.spill_at;                             \
        }                                                                              \
      }                                                                                \
      h = smr_entry(&store, h)->next_key;                                              \
    }                                                                                  \
  }
#else
#define SMR_REDUCE_TASK(PASS)
/* Map-only apps: the reduce kernels exist (every program has the same
 * kernels) but do nothing and are never launched. */
#undef SMR_REDUCE_BODY
#define SMR_REDUCE_BODY(PASS)
#endif

KERNEL streammr_reduce(SMR_REDUCE_PARAMS) { SMR_REDUCE_BODY(0) }
KERNEL streammr_reduce_overflow(SMR_REDUCE_PARAMS) { SMR_REDUCE_BODY(1) }

/* The paper's cleanup: output i (slots of the preallocated regions first,
 * then the overflow buffer) is kept unless its key is also in an earlier
 * table, whose reduce saw all of its values. keep[i] = 1 / 0. */
KERNEL streammr_cleanup(GLOBAL SmrEntry* entries, GLOBAL APP_VAL_T* vals, GLOBAL uchar* keys,
                        GLOBAL SmrEntry* ovf_entries, GLOBAL APP_VAL_T* ovf_vals,
                        GLOBAL uchar* ovf_keys, u32 primary, GLOBAL const SmrBucket* tables,
                        u32 buckets, GLOBAL const SmrOutRecord* out_recs, u32 out_groups,
                        u32 cap_pairs, GLOBAL const u32* out_stats,
                        GLOBAL const SmrOutRecord* ovf_out_recs, u32 ovf_outputs,
                        GLOBAL u32* keep) {
  const u32 i = GLOBAL_ID, out_slots = out_groups * cap_pairs;
  if (i >= out_slots + ovf_outputs) return;
  /* Slots past a group's used ones hold nothing (not even a dead mark). */
  if (i < out_slots && i % cap_pairs >= out_stats[SMR_STAT_SLOTS * out_groups + i / cap_pairs]) {
    keep[i] = 0u;
    return;
  }
  const SmrOutRecord r = i < out_slots ? out_recs[i] : ovf_out_recs[i - out_slots];
  u32 k = 0u;
  if (r.key_len != SMR_DEAD && r.source != SMR_NONE) {
    SmrStore s = smr_store(entries, vals, keys, ovf_entries, ovf_vals, ovf_keys, primary);
    const u32 b = smr_entry(&s, r.source)->hash & (buckets - 1u);
    k = 1u;
    for (u32 t = 0; t < r.table && k; ++t) {
      if (smr_find_head(&s, tables, buckets, t, b, r.source) != SMR_NONE) k = 0u;
    }
  }
  keep[i] = k;
}

/* Tree-like reduce (S0 V.C.2): one launch per level; work-item (pair p,
 * bucket b) merges bucket b of table src = p * 2 * stride + stride into table
 * dst = p * 2 * stride: a key already in dst gets src's chain appended (or its
 * value combined), a new key's head moves to dst's bucket. After log2(tables)
 * levels table 0 holds every key once, and the reduce runs over table 0
 * alone (no cleanup). */
KERNEL streammr_tree_merge(GLOBAL SmrEntry* entries, GLOBAL APP_VAL_T* vals, GLOBAL uchar* keys,
                           GLOBAL SmrEntry* ovf_entries, GLOBAL APP_VAL_T* ovf_vals,
                           GLOBAL uchar* ovf_keys, u32 primary, GLOBAL SmrBucket* tables,
                           u32 buckets, u32 num_tables, u32 stride, u32 combine) {
  const u32 i = GLOBAL_ID;
  const u32 p = i / buckets, b = i % buckets;
  const u32 dst = p * 2u * stride, src = dst + stride;
  if (src >= num_tables) return;
  SmrStore s = smr_store(entries, vals, keys, ovf_entries, ovf_vals, ovf_keys, primary);
  GLOBAL SmrBucket* to = tables + dst * buckets + b;
  u32 h = tables[src * buckets + b].head;
  while (h != SMR_NONE) {
    GLOBAL SmrEntry* eh = smr_entry(&s, h);
    const u32 next = eh->next_key;
    const u32 d = smr_find_head(&s, tables, buckets, dst, b, h);
    if (d != SMR_NONE) {
      GLOBAL SmrEntry* ed = smr_entry(&s, d);
#if APP_HAS_COMBINE
      if (combine) {
        GLOBAL APP_VAL_T* dv = smr_value(&s, d);
        *dv = app_combine(*dv, *smr_value(&s, h));
        h = next;
        continue;
      }
#endif
      smr_entry(&s, ed->last_val)->next_val = h;
      ed->last_val = eh->last_val;
      ed->count += eh->count;
    } else {
      eh->next_key = SMR_NONE;
      if (to->tail == SMR_NONE) {
        to->head = h;
      } else {
        smr_entry(&s, to->tail)->next_key = h;
      }
      to->tail = h;
    }
    h = next;
  }
#if !APP_HAS_COMBINE
  (void)combine;
#endif
}

/* Map-only output, compacted before it is copied back: group g's used slots
 * (stats row SMR_STAT_SLOTS; dead slots keep key_len SMR_DEAD and the host
 * skips them) go to slot_base[g] on, its used key bytes (row
 * SMR_STAT_KEY_BYTES) to key_base[g] on (bases: prefix sums over the groups);
 * then the overflow buffer's pairs from ovf_at on and its key bytes from
 * ovf_key_at on. Work-group g < groups copies map group g; the work-groups
 * after those stride over the overflow buffer. Key bytes move in 4-byte words
 * when cap_bytes is a multiple of 4 (the default): the used key bytes of a
 * group are then whole words, and so every offset is. */
KERNEL streammr_compact(GLOBAL const SmrEntry* entries, GLOBAL const APP_VAL_T* vals,
                        GLOBAL const uchar* keys, GLOBAL const SmrEntry* ovf_entries,
                        GLOBAL const APP_VAL_T* ovf_vals, GLOBAL const uchar* ovf_keys, u32 groups,
                        u32 cap_pairs, u32 cap_bytes, GLOBAL const u32* stats,
                        GLOBAL const u32* slot_base, GLOBAL const u32* key_base, u32 ovf_pairs,
                        u32 ovf_bytes, u32 ovf_at, u32 ovf_key_at, GLOBAL SmrPair* out_pairs,
                        GLOBAL APP_VAL_T* out_vals, GLOBAL uchar* out_keys) {
  const u32 lane = LOCAL_ID, size = LOCAL_SIZE, g = GROUP_ID;
  if (g < groups) {
    const u32 used = stats[SMR_STAT_SLOTS * groups + g];
    const u32 bytes = stats[SMR_STAT_KEY_BYTES * groups + g];
    const u32 src_slot = g * cap_pairs, src_byte = g * cap_bytes;
    const u32 dst_slot = slot_base[g], dst_byte = key_base[g];
    for (u32 i = lane; i < used; i += size) {
      SmrPair p;
      p.key_len = entries[src_slot + i].key_len;
      p.key_off = p.key_len == SMR_DEAD ? 0u : entries[src_slot + i].key_off - src_byte + dst_byte;
      out_pairs[dst_slot + i] = p;
      out_vals[dst_slot + i] = vals[src_slot + i];
    }
    if (cap_bytes % 4u == 0u) {
      GLOBAL const u32* src = (GLOBAL const u32*)(keys + src_byte);
      GLOBAL u32* dst = (GLOBAL u32*)(out_keys + dst_byte);
      for (u32 i = lane; i < bytes / 4u; i += size) dst[i] = src[i];
    } else {
      for (u32 i = lane; i < bytes; i += size) out_keys[dst_byte + i] = keys[src_byte + i];
    }
  } else {
    const u32 stride = (NUM_GROUPS - groups) * size;
    const u32 first = (g - groups) * size + lane;
    for (u32 i = first; i < ovf_pairs; i += stride) {
      SmrPair p;
      p.key_len = ovf_entries[i].key_len;
      p.key_off = ovf_entries[i].key_off + ovf_key_at;
      out_pairs[ovf_at + i] = p;
      out_vals[ovf_at + i] = ovf_vals[i];
    }
    u32 words = 0u;
    if (ovf_key_at % 4u == 0u) {
      words = ovf_bytes / 4u;
      GLOBAL const u32* src = (GLOBAL const u32*)ovf_keys;
      GLOBAL u32* dst = (GLOBAL u32*)(out_keys + ovf_key_at);
      for (u32 i = first; i < words; i += stride) dst[i] = src[i];
    }
    for (u32 i = 4u * words + first; i < ovf_bytes; i += stride) {
      out_keys[ovf_key_at + i] = ovf_keys[i];
    }
  }
}
