/* atomicmr/hash kernels: map inserting into the global hash table, reduce
 * per distinct key, and the pairs of a map-only app laid out as output.
 * Included after the app's user functions (mapreduce_program.cpp). */

/* Thread t takes records t, t+T, ... (coalesced) or a contiguous run. */
DEVICE_FN u32 amr_task(u32 t, u32 k, u32 threads, u32 per_thread, u32 coalesced) {
  return coalesced ? t + k * threads : t * per_thread + k;
}

DEVICE_FN EmitCtx amr_ctx(GLOBAL const uchar* side, u32 side_size) {
  EmitCtx ctx;
  ctx.side = side;
  ctx.side_size = side_size;
  ctx.table = ght_table(0, 0u, 0u, 0, 0u, 0, 0u, 0, 0, 0u, 0);
  ctx.vals = 0;
  ctx.out_counters = 0;
  ctx.out_key_capacity = 0;
  ctx.out_capacity = 0;
  ctx.out_keys = 0;
  ctx.out_recs = 0;
  ctx.out_vals = 0;
  return ctx;
}

KERNEL atomicmr_map(GLOBAL const uchar* input, GLOBAL const u32* rec_off, u32 num_records,
                    u32 coalesced, GLOBAL const uchar* side, u32 side_size, GLOBAL u32* slots,
                    u32 slot_mask, u32 hash_mask, GLOBAL GhtEntry* entries, u32 entry_capacity,
                    GLOBAL uchar* keys, u32 key_capacity, GLOBAL u32* node_next,
                    GLOBAL u32* node_entry, u32 node_capacity, GLOBAL u32* counters,
                    GLOBAL APP_VAL_T* vals) {
  u32 t = GLOBAL_ID, threads = GLOBAL_SIZE;
  u32 per = (num_records + threads - 1) / threads;
  EmitCtx ctx = amr_ctx(side, side_size);
  ctx.table = ght_table(slots, slot_mask, hash_mask, entries, entry_capacity, keys, key_capacity,
                        node_next, node_entry, node_capacity, counters);
  ctx.vals = vals;
  for (u32 k = 0; k < per; ++k) {
    u32 r = amr_task(t, k, threads, per, coalesced);
    if (r >= num_records) break;
    app_map(&ctx, input, rec_off[r], rec_off[r + 1]);
  }
}

/* One task per entry: app_reduce over its value list. Entries without values
 * (created by an insert that lost its slot to the same key) are skipped. */
KERNEL atomicmr_reduce(GLOBAL const GhtEntry* entries, u32 num_entries, GLOBAL const uchar* keys,
                       GLOBAL const u32* node_next, GLOBAL const APP_VAL_T* vals, u32 coalesced,
                       GLOBAL const uchar* side, u32 side_size, GLOBAL u32* out_counters,
                       u32 out_key_capacity, u32 out_capacity, GLOBAL uchar* out_keys,
                       GLOBAL AmrOutRecord* out_recs, GLOBAL APP_OUT_T* out_vals) {
#if APP_HAS_REDUCE
  u32 t = GLOBAL_ID, threads = GLOBAL_SIZE;
  u32 per = (num_entries + threads - 1) / threads;
  EmitCtx ctx = amr_ctx(side, side_size);
  ctx.out_counters = out_counters;
  ctx.out_key_capacity = out_key_capacity;
  ctx.out_capacity = out_capacity;
  ctx.out_keys = out_keys;
  ctx.out_recs = out_recs;
  ctx.out_vals = out_vals;
  for (u32 k = 0; k < per; ++k) {
    u32 e = amr_task(t, k, threads, per, coalesced);
    if (e >= num_entries) break;
    const GhtEntry entry = entries[e];
    if (entry.head == GHT_NONE) continue;
    ValueList values;
    values.vals = vals;
    values.next = node_next;
    values.head = entry.head;
    values.count = 0;
    for (u32 n = entry.head; n != GHT_NONE; n = node_next[n]) values.count += 1;
    values.cursor_index = 0;
    values.cursor_node = entry.head;
    app_reduce(&ctx, keys + entry.key_off, entry.key_len, &values);
  }
#else
  /* Map-only apps output the pairs (atomicmr_pairs_out); never launched. */
  (void)entries;
  (void)num_entries;
  (void)keys;
  (void)node_next;
  (void)vals;
  (void)coalesced;
  (void)side;
  (void)side_size;
  (void)out_counters;
  (void)out_key_capacity;
  (void)out_capacity;
  (void)out_keys;
  (void)out_recs;
  (void)out_vals;
#endif
}

/* Map-only apps: every node is one output pair, its key the entry's bytes in
 * the table (read back whole by the host). */
KERNEL atomicmr_pairs_out(GLOBAL const u32* node_entry, GLOBAL const GhtEntry* entries,
                          GLOBAL const APP_VAL_T* vals, u32 nodes, GLOBAL AmrOutRecord* out_recs,
                          GLOBAL APP_VAL_T* out_vals) {
  u32 i = GLOBAL_ID;
  if (i >= nodes) return;
  const GhtEntry entry = entries[node_entry[i]];
  AmrOutRecord r;
  r.key_off = entry.key_off;
  r.key_len = entry.key_len;
  out_recs[i] = r;
  out_vals[i] = vals[i];
}
