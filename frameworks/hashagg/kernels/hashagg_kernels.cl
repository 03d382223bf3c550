/* hashagg kernels: map over byte ranges with local pre-aggregation into the
 * global table, and the per-key reduce. Included after the app's user
 * functions (mapreduce_program.cpp); bodies are empty for apps hashagg does
 * not run (the host refuses them). */

#if APP_COMBINE_ADD_U32 && defined(APP_SPLITS_ANYWHERE)
/* Work-item `lane` of a tile of LOCAL_SIZE segments: the bytes of the
 * segment whose words start in it, as [*b, *e) (empty when none does). */
DEVICE_FN void ha_segment(GLOBAL const uchar* input, u32 size, u32 seg_begin, u32 segment, u32* b,
                          u32* e) {
  u32 begin = seg_begin, end = seg_begin + segment < size ? seg_begin + segment : size;
  /* a key running into the segment belongs to the segment before */
  if (begin > 0u && !app_is_separator(input[begin - 1u])) {
    while (begin < end && !app_is_separator(input[begin])) ++begin;
  }
  /* the key running out of the segment is finished here */
  if (end > begin && !app_is_separator(input[end - 1u])) {
    while (end < size && !app_is_separator(input[end])) ++end;
  }
  *b = begin;
  *e = end > begin ? end : begin;
}
#endif

/* Adds v to the packed key's entry of the global table. */
DEVICE_FN void ha_global_add_packed(EmitCtx* ctx, const u32* w, u32 v) {
#if APP_COMBINE_ADD_U32
  const u32 len = w[0] & 0xffu;
  uchar key[HA_LOCAL_KEY_BYTES];
  for (u32 i = 0; i < len; ++i) key[i] = ha_packed_byte(w, i);
  ha_global_add_p(ctx, key, len, v);
#else
  (void)ctx;
  (void)w;
  (void)v;
#endif
}

/* Empties the caller's share of the local table into the global table (slots
 * LOCAL_ID, LOCAL_ID + LOCAL_SIZE, ...). Call between barriers. */
DEVICE_FN void ha_flush(EmitCtx* ctx) {
#if APP_COMBINE_ADD_U32
  LOCAL_PTR u32* words = ctx->group_table.words;
  for (u32 s = LOCAL_ID; s < HA_LOCAL_SLOTS; s += LOCAL_SIZE) {
    u32 w[3];
    w[0] = words[s];
    if (w[0] == 0u) continue;
    w[1] = words[HA_LOCAL_SLOTS + s];
    w[2] = words[2u * HA_LOCAL_SLOTS + s];
    ha_global_add_packed(ctx, w, ctx->group_table.values[s]);
    words[s] = 0u;
    words[HA_LOCAL_SLOTS + s] = 0u;
    words[2u * HA_LOCAL_SLOTS + s] = 0u;
    ctx->group_table.values[s] = 0u;
  }
#else
  (void)ctx;
#endif
}

/* Map over input[0, size): work-group g takes tiles g, g + groups, ... of
 * LOCAL_SIZE x segment bytes, work-item i the i-th segment of a tile (the
 * words that start in it: ha_segment). After each tile the work-group looks
 * at its local table and empties it when it is half full; at the end it
 * empties it whatever it holds. */
KERNEL hashagg_map_bytes(GLOBAL const uchar* input, u32 size, u32 segment, GLOBAL const uchar* side,
                         u32 side_size, u32 use_local, GLOBAL u32* slots, u32 slot_mask,
                         u32 hash_mask, GLOBAL GhtEntry* entries, u32 entry_capacity,
                         GLOBAL uchar* keys, u32 key_capacity, GLOBAL u32* counters,
                         GLOBAL u32* sums) {
#if APP_COMBINE_ADD_U32 && defined(APP_SPLITS_ANYWHERE)
  LOCAL_ARRAY(u32, local_words, 3u * HA_LOCAL_SLOTS);
  LOCAL_ARRAY(u32, local_values, HA_LOCAL_SLOTS);
  LOCAL_ARRAY(u32, local_used, 1);
  LOCAL_ARRAY(u32, stage, 4u * HA_STAGE_CAPACITY);
  LOCAL_ARRAY(u32, stage_count, 1);
  EmitCtx ctx;
  ctx.side = side;
  ctx.side_size = side_size;
  ctx.group_table.words = local_words;
  ctx.group_table.values = local_values;
  ctx.group_table.used = local_used;
  ctx.use_local = use_local;
  ctx.stage = stage;
  ctx.stage_count = stage_count;
  ctx.table = ght_table(slots, slot_mask, hash_mask, entries, entry_capacity, keys, key_capacity, 0,
                        0, 0u, counters);
  ctx.sums = sums;
  ctx.out_val = 0;
  ctx.emitted = 0u;
  for (u32 s = LOCAL_ID; s < 3u * HA_LOCAL_SLOTS; s += LOCAL_SIZE) local_words[s] = 0u;
  for (u32 s = LOCAL_ID; s < HA_LOCAL_SLOTS; s += LOCAL_SIZE) local_values[s] = 0u;
  if (LOCAL_ID == 0u) {
    local_used[0] = 0u;
    stage_count[0] = 0u;
  }
  BARRIER_LOCAL();

  const u32 tile_bytes = LOCAL_SIZE * segment;
  const u32 tiles = size / tile_bytes + (size % tile_bytes != 0u ? 1u : 0u);
  for (u32 tile = GROUP_ID; tile < tiles; tile += NUM_GROUPS) {
    const u32 seg_begin = tile * tile_bytes + LOCAL_ID * segment;
    if (seg_begin < size) {
      u32 b = 0, e = 0;
      ha_segment(input, size, seg_begin, segment, &b, &e);
      if (e > b) app_map(&ctx, input, b, e);
    }
    BARRIER_LOCAL();
    const u32 staged = stage_count[0] < HA_STAGE_CAPACITY ? stage_count[0] : HA_STAGE_CAPACITY;
    for (u32 k = LOCAL_ID; k < staged; k += LOCAL_SIZE) {
      u32 w[3];
      w[0] = stage[4u * k];
      w[1] = stage[4u * k + 1u];
      w[2] = stage[4u * k + 2u];
      const u32 v = stage[4u * k + 3u];
      if (!ha_local_add(&ctx.group_table, w, v)) ha_global_add_packed(&ctx, w, v);
    }
    BARRIER_LOCAL();
    const u32 used = local_used[0];
    if (LOCAL_ID == 0u) stage_count[0] = 0u;
    BARRIER_LOCAL(); /* every work-item has read `used` before it is reset */
    if (used >= HA_LOCAL_FLUSH_AT) {
      ha_flush(&ctx);
      if (LOCAL_ID == 0u) local_used[0] = 0u;
    }
    BARRIER_LOCAL();
  }
  ha_flush(&ctx);
#else
  (void)input;
  (void)size;
  (void)segment;
  (void)side;
  (void)side_size;
  (void)use_local;
  (void)slots;
  (void)slot_mask;
  (void)hash_mask;
  (void)entries;
  (void)entry_capacity;
  (void)keys;
  (void)key_capacity;
  (void)counters;
  (void)sums;
#endif
}

/* Reduce: one work-item per entry of the global table, app_reduce over the
 * key's combined value; out_count[e] = outputs emitted (0 for entries
 * without a value; the host fails a run where one emitted more than one). */
KERNEL hashagg_reduce(GLOBAL const GhtEntry* entries, u32 num_entries, GLOBAL const uchar* keys,
                      GLOBAL const u32* sums, GLOBAL const uchar* side, u32 side_size,
                      GLOBAL APP_OUT_T* out_vals, GLOBAL u32* out_count) {
  const u32 e = GLOBAL_ID;
  if (e >= num_entries) return;
#if APP_COMBINE_ADD_U32 && APP_HAS_REDUCE
  const GhtEntry entry = entries[e];
  if (entry.head == GHT_NONE) {
    out_count[e] = 0u;
    return;
  }
  EmitCtx ctx;
  ctx.side = side;
  ctx.side_size = side_size;
  ctx.use_local = 0u;
  ctx.table = ght_table(0, 0u, 0u, 0, 0u, 0, 0u, 0, 0, 0u, 0);
  ctx.sums = 0;
  ctx.out_val = out_vals + e;
  ctx.emitted = 0u;
  ValueList values;
  values.value = sums[e];
  app_reduce(&ctx, keys + entry.key_off, entry.key_len, &values);
  out_count[e] = ctx.emitted;
#else
  (void)entries;
  (void)keys;
  (void)sums;
  (void)side;
  (void)side_size;
  (void)out_vals;
  out_count[e] = 0u;
#endif
}
