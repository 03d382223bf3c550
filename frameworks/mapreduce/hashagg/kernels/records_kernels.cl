/* hashagg's records path: map over records the host split
 * (MapReduceApp::split_records), for apps whose input cannot be cut anywhere.
 * Record r of a launch is rec_off[first + r] .. rec_off[first + r + 1] - base
 * in `input` (base: the first byte of a streamed chunk, else 0).
 *   - HA_HASH_AGG apps (page view count's job 2): each pair adds to its key's
 *     sum in the global table (hashagg_map_records_add), then hashagg_reduce.
 *   - The others (hashagg_map_pairs): pairs staged per work-group, one
 *     reservation per round (pairs_emit.clh), combined in a work-group table
 *     first where the app has a combiner; keys that are entries of the
 *     global table are then grouped by a radix sort of the entries
 *     (frameworks/blocks/radix_sort; host), hashagg_pairs_bounds marks each
 *     entry's run, and hashagg_pairs_reduce (or, map-only,
 *     hashagg_pairs_gather) follows.
 * Included at the end of hashagg_kernels.cl. */
#ifndef HASHAGG_RECORDS_KERNELS_CL
#define HASHAGG_RECORDS_KERNELS_CL

/* The combine table's slots; apps without a combiner use none, but their
 * arrays keep the full size: arrays of one element indexed by LOCAL_ID made
 * PoCL 3.1 compile the whole kernel to `unreachable`. */
#define HA_SLOTS HA_COMBINE_SLOTS
/* A work-item's slots: LOCAL_ID + j * LOCAL_SIZE for j < HA_SLOT_STEPS (work-
 * groups have 32 work-items at least). Not `for (s = LOCAL_ID; s < HA_SLOTS;
 * s += LOCAL_SIZE)`: with fewer slots than work-items PoCL 3.1 (LLVM 15)
 * never ran that loop's body, or compiled the kernel to `unreachable`. */
#define HA_SLOT_STEPS (HA_SLOTS / 32u)
#define HA_NO_SLOT 0xffffffffu
/* Work-items folding each used slot's staged pairs in a round: as many as
 * share the work-group evenly, at most 16 (a fold then walks a sixteenth of
 * the stage and its owner folds 16 partials), and no more partials than the
 * stage holds (they are written over it); 1 or 0: one owner a slot. */
DEVICE_FN u32 ha_fold_helpers(u32 used, u32 local_size) {
  if (used == 0u) return 0u;
  const u32 room = local_size < HA_PAIR_STAGE ? local_size : HA_PAIR_STAGE;
  const u32 even = room / used;
  return even < 16u ? even : 16u;
}

/* hashagg_map_pairs: a combine table for apps with a combiner, their keys as
 * entries. From the kernel's arguments wherever it is used: as a private
 * variable kept across barriers, PoCL 3.1 read it as 0 in some regions. */
#define HA_COMBINING (combine != 0u && mode == HA_PAIRS_ENTRY ? (u32)APP_HAS_COMBINE : 0u)

KERNEL hashagg_map_records_add(GLOBAL const uchar* input, GLOBAL const u32* rec_off, u32 first,
                               u32 records, u32 base, GLOBAL const uchar* side, u32 side_size,
                               GLOBAL u32* slots, u32 slot_mask, u32 hash_mask,
                               GLOBAL GhtEntry* entries, u32 entry_capacity, GLOBAL uchar* keys,
                               u32 key_capacity, GLOBAL u32* counters, GLOBAL u32* sums) {
#if HA_HASH_AGG
  EmitCtx ctx = ha_table_ctx(side, side_size,
                             ght_table(slots, slot_mask, hash_mask, entries, entry_capacity, keys,
                                       key_capacity, 0, 0, 0u, counters),
                             sums);
  for (u32 r = GLOBAL_ID; r < records; r += GLOBAL_SIZE) {
    app_map(&ctx, input, rec_off[first + r] - base, rec_off[first + r + 1u] - base);
  }
#else
  HA_UNUSED_RECORD_ARGS();
  HA_UNUSED_GLOBAL_TABLE_ARGS();
#endif
}

/* The pairs map's context (kernel arguments and local arrays), built where it
 * is used: kept across barriers, PoCL lost the local pointers in it. */
#define HA_PAIRS_CTX(ctx)                                                                          \
  EmitCtx ctx = ha_table_ctx(side, side_size,                                                      \
                             ght_table(slots, slot_mask, hash_mask, entries, entry_capacity, keys, \
                                       key_capacity, 0, 0, 0u, ght_counters),                      \
                             0);                                                                   \
  ctx.pairs.mode = mode;                                                                           \
  ctx.pairs.stage_key = stage_key;                                                                 \
  ctx.pairs.stage_len = stage_len;                                                                 \
  ctx.pairs.stage_val = stage_val;                                                                 \
  ctx.pairs.stage_bytes = (LOCAL_PTR uchar*)stage_words;                                           \
  ctx.pairs.stage_count = stage_count;                                                             \
  ctx.pairs.counters = counters;                                                                   \
  ctx.pairs.pair_capacity = pair_capacity;                                                         \
  ctx.pairs.key_capacity = out_key_capacity;                                                       \
  ctx.pairs.out_key = out_key;                                                                     \
  ctx.pairs.out_len = out_len;                                                                     \
  ctx.pairs.out_val = out_val;                                                                     \
  ctx.pairs.out_bytes = out_bytes;

/* When `flush` (the same for the whole work-group), writes the work-group's
 * combine table out as pairs and empties it: each slot's owner reserves its
 * pair (at most HA_COMBINE_SLOTS atomics per flush; a leader's one reservation
 * for the table made PoCL 3.1 run its block on every work-item). In the
 * kernel body: every work-item reaches the barrier whatever `flush` is. */
#define HA_COMBINE_FLUSH(flush)                               \
  for (u32 j = 0; j < HA_SLOT_STEPS && (flush); ++j) {        \
    const u32 s = LOCAL_ID + j * LOCAL_SIZE;                  \
    if (s >= HA_SLOTS) break;                                 \
    if (slot_entry[s] == 0u) continue;                        \
    HA_PAIRS_CTX(ctx)                                         \
    u32 at = 0, key_at = 0;                                   \
    if (ha_pairs_reserve(&ctx.pairs, 1u, 0u, &at, &key_at)) { \
      out_key[at] = slot_entry[s] - 1u;                       \
      out_val[at] = slot_val[s];                              \
    }                                                         \
    slot_entry[s] = 0u;                                       \
    slot_count[s] = 0u;                                       \
  }                                                           \
  if (LOCAL_ID == 0u && (flush)) shared[3] = 0u;              \
  BARRIER_LOCAL();

/* Map over records [first, first + records) in rounds of one record per
 * work-item (work-group g takes records (round * groups + g) * LOCAL_SIZE +
 * LOCAL_ID, so every work-item reaches every barrier). A round's emits are
 * staged (pairs_emit.clh); after the round:
 *   - without combine: the work-group reserves room for the staged pairs and
 *     their key bytes with one atomic each and writes them out coalesced;
 *   - with combine (apps with APP_HAS_COMBINE, keys as entries): each staged
 *     pair claims its entry's slot of the work-group's table (CAS, a few
 *     probes; a pair without a slot is written out directly), then the
 *     round's pairs of each slot are folded with app_combine (by helpers
 *     while few slots are used, else by the slot's owner in stage order);
 *     the table is written out when half full and at the end.
 * Records longer than `long_record` bytes (0: none) are not mapped in the
 * first pass (deferred_pass 0) but listed in `deferred` (a record that finds
 * the list full is mapped at once), and a second launch (deferred_pass 1)
 * maps the listed ones, one a work-group and round, as many as the counter
 * says: a round lasts as long as its longest record, so one html line of
 * kilobytes among lines of 55 bytes held its whole work-group at the barrier
 * (inverted index on an H100: 3.1 of 32 threads active a warp instruction, 7
 * of 21 cycles stalled at the barrier). Nothing is written past the
 * capacities; the counters tell the host the sizes to map again with. */
KERNEL hashagg_map_pairs(GLOBAL const uchar* input, GLOBAL const u32* rec_off, u32 first,
                         u32 records, u32 base, GLOBAL const uchar* side, u32 side_size, u32 mode,
                         u32 combine, GLOBAL u32* slots, u32 slot_mask, u32 hash_mask,
                         GLOBAL GhtEntry* entries, u32 entry_capacity, GLOBAL uchar* keys,
                         u32 key_capacity, GLOBAL u32* ght_counters, GLOBAL u32* counters,
                         u32 pair_capacity, u32 out_key_capacity, GLOBAL u32* out_key,
                         GLOBAL u32* out_len, GLOBAL APP_VAL_T* out_val, GLOBAL uchar* out_bytes,
                         u32 long_record, GLOBAL u32* deferred, u32 deferred_capacity,
                         u32 deferred_pass) {
#if !HA_HASH_AGG
  LOCAL_ARRAY(u32, stage_key, HA_PAIR_STAGE);
  LOCAL_ARRAY(u32, stage_len, HA_PAIR_STAGE);
  LOCAL_ARRAY(APP_VAL_T, stage_val, HA_PAIR_STAGE);
  LOCAL_ARRAY(u32, stage_words, HA_PAIR_KEY_STAGE / 4u);
  LOCAL_ARRAY(u32, stage_count, 2);
  /* [0] pair base, [1] key byte base, [2] room reserved, [3] table slots used */
  LOCAL_ARRAY(u32, shared, 4);
  LOCAL_ARRAY(u32, slot_entry, HA_SLOTS); /* entry + 1; 0: free */
  LOCAL_ARRAY(u32, slot_count, HA_SLOTS); /* values folded */
  LOCAL_ARRAY(APP_VAL_T, slot_val, HA_SLOTS);
  LOCAL_ARRAY(u32, slot_list, HA_SLOTS); /* the used slots, in the order they were claimed */
  for (u32 j = 0; j < HA_SLOT_STEPS; ++j) {
    const u32 s = LOCAL_ID + j * LOCAL_SIZE;
    if (s >= HA_SLOTS) break;
    slot_entry[s] = 0u;
    slot_count[s] = 0u;
  }
  if (LOCAL_ID == 0u) {
    stage_count[0] = 0u;
    stage_count[1] = 0u;
    shared[3] = 0u;
  }
  BARRIER_LOCAL();

  /* The second pass maps the records the first one listed (their number
   * from the counter the first pass left; the first pass counts on it). */
  const u32 listed = deferred_pass != 0u ? counters[HA_PAIRS_COUNTER_DEFERRED] : 0u;
  const u32 n_records = deferred_pass == 0u           ? records
                        : listed < deferred_capacity ? listed
                                                     : deferred_capacity;
  /* The second pass maps one record a work-group and round (its first
   * work-item): a long record's pairs then fit the stage, where 256 of them
   * (html lines of 4 KB and 25 links) overflowed it into a pair-at-a-time
   * reservation each, contended on the same counters (the second pass took
   * 12.8 ms for 644 lines on an H100). */
  const u32 per_round = deferred_pass != 0u ? NUM_GROUPS : NUM_GROUPS * LOCAL_SIZE;
  const u32 rounds = n_records / per_round + (n_records % per_round != 0u ? 1u : 0u);
  for (u32 round = 0; round < rounds; ++round) {
    const u32 r = deferred_pass != 0u ? round * NUM_GROUPS + GROUP_ID
                                      : (round * NUM_GROUPS + GROUP_ID) * LOCAL_SIZE + LOCAL_ID;
    if (r < n_records && (deferred_pass == 0u || LOCAL_ID == 0u)) {
      const u32 rec = deferred_pass != 0u ? deferred[r] : r;
      const u32 begin = rec_off[first + rec] - base, end = rec_off[first + rec + 1u] - base;
      u32 later = 0u;
      if (deferred_pass == 0u && long_record != 0u && end - begin > long_record) {
        const u32 k = ATOMIC_INC_U32(counters + HA_PAIRS_COUNTER_DEFERRED);
        if (k < deferred_capacity) {
          deferred[k] = rec;
          later = 1u;
        }
      }
      if (later == 0u) {
        HA_PAIRS_CTX(ctx)
        app_map(&ctx, input, begin, end);
      }
    }
    BARRIER_LOCAL();
    const u32 staged = stage_count[0] < HA_PAIR_STAGE ? stage_count[0] : HA_PAIR_STAGE;
    const u32 bytes = mode != HA_PAIRS_BYTES               ? 0u
                      : stage_count[1] < HA_PAIR_KEY_STAGE ? stage_count[1]
                                                           : HA_PAIR_KEY_STAGE;
    /* (1) combine: each staged pair claims its entry's slot; else the
     * round's one reservation */
    for (u32 k = LOCAL_ID; k < staged && HA_COMBINING; k += LOCAL_SIZE) {
      const u32 e = stage_key[k];
      u32 slot = HA_NO_SLOT;
      u32 s = ((e * 2654435761u) >> 16) & (HA_SLOTS - 1u);
      for (u32 probe = 0; probe < HA_COMBINE_PROBES; ++probe) {
        u32 held = slot_entry[s];
        if (held == 0u) {
          held = ATOMIC_CAS_U32(slot_entry + s, 0u, e + 1u);
          if (held == 0u) {
            slot_list[ATOMIC_INC_U32(shared + 3)] = s;
            slot = s;
            break;
          }
        }
        if (held == e + 1u) {
          slot = s;
          break;
        }
        s = (s + 1u) & (HA_SLOTS - 1u);
      }
      stage_len[k] = slot;
      if (slot == HA_NO_SLOT) {
        HA_PAIRS_CTX(ctx)
        ha_pairs_direct_g(&ctx.pairs, 0, 0u, e, stage_val[k]);
      }
    }
    if (LOCAL_ID == 0u && !HA_COMBINING) {
      HA_PAIRS_CTX(ctx)
      u32 at = 0, key_at = 0;
      shared[2] = staged > 0u ? ha_pairs_reserve(&ctx.pairs, staged, bytes, &at, &key_at) : 0u;
      shared[0] = at;
      shared[1] = key_at;
    }
    BARRIER_LOCAL();
    /* (2) combine: the round's pairs folded into their slots; else the
     * staged pairs and key bytes written out */
    const u32 helpers = HA_COMBINING ? ha_fold_helpers(shared[3], LOCAL_SIZE) : 0u;
    /* Few slots used (k-means: 8 clusters): each slot's pairs are folded by
     * `helpers` work-items, each taking every helpers-th staged pair, then
     * the slot's first helper folds their partial sums; one owner walking
     * all the staged pairs kept the rest of the work-group at the barrier
     * (Nsight Compute on an H100: 10 of 18 cycles a warp instruction
     * stalled there). The barriers are outside the branches: PoCL 3.1 ran
     * off the end of a work-group whose barriers sat in a branch taken by
     * all its work-items. */
    const u32 u = helpers > 1u ? LOCAL_ID / helpers : 0u;
    const u32 h = helpers > 1u ? LOCAL_ID % helpers : 0u;
    const u32 fold_slot = helpers > 1u && u < shared[3] ? slot_list[u] : HA_NO_SLOT;
    u32 n = 0u;
    APP_VAL_T acc = stage_val[0]; /* replaced by the first pair folded */
    for (u32 k = h; k < staged && fold_slot != HA_NO_SLOT; k += helpers) {
      if (stage_len[k] != fold_slot) continue;
#if APP_HAS_COMBINE
      acc = n == 0u ? stage_val[k] : app_combine(acc, stage_val[k]);
#endif
      ++n;
    }
    BARRIER_LOCAL(); /* the stage is read: its first entries hold the partials */
    if (fold_slot != HA_NO_SLOT) { /* LOCAL_ID < used * helpers <= HA_PAIR_STAGE */
      stage_key[LOCAL_ID] = n;
      if (n != 0u) stage_val[LOCAL_ID] = acc;
    }
    BARRIER_LOCAL();
    if (h == 0u && fold_slot != HA_NO_SLOT) {
      u32 total = slot_count[fold_slot];
      APP_VAL_T sum = slot_val[fold_slot];
      for (u32 i = LOCAL_ID; i < LOCAL_ID + helpers; ++i) {
        if (stage_key[i] == 0u) continue;
#if APP_HAS_COMBINE
        sum = total == 0u ? stage_val[i] : app_combine(sum, stage_val[i]);
#endif
        total += stage_key[i];
      }
      slot_val[fold_slot] = sum;
      slot_count[fold_slot] = total;
    }
    /* Many slots used: each slot's owner folds the round's pairs of its
     * slot, in stage order. */
    for (u32 j = 0; j < HA_SLOT_STEPS && HA_COMBINING && helpers <= 1u; ++j) {
      const u32 s = LOCAL_ID + j * LOCAL_SIZE;
      if (s >= HA_SLOTS) break;
      if (slot_entry[s] == 0u) continue;
      u32 n = slot_count[s];
      APP_VAL_T acc = slot_val[s];
      for (u32 k = 0; k < staged; ++k) {
        if (stage_len[k] != s) continue;
#if APP_HAS_COMBINE
        acc = n == 0u ? stage_val[k] : app_combine(acc, stage_val[k]);
#endif
        ++n;
      }
      slot_val[s] = acc;
      slot_count[s] = n;
    }
    if (!HA_COMBINING && shared[2]) {
      const u32 at = shared[0], key_at = shared[1];
      for (u32 k = LOCAL_ID; k < staged; k += LOCAL_SIZE) {
        if (mode == HA_PAIRS_BYTES) {
          out_key[at + k] = key_at + stage_key[k];
          out_len[at + k] = stage_len[k];
        } else {
          out_key[at + k] = stage_key[k];
        }
        out_val[at + k] = stage_val[k];
      }
      for (u32 i = LOCAL_ID; i < bytes; i += LOCAL_SIZE) {
        out_bytes[key_at + i] = ((LOCAL_PTR const uchar*)stage_words)[i];
      }
    }
    BARRIER_LOCAL();
    const u32 used = shared[3];
    if (LOCAL_ID == 0u) {
      stage_count[0] = 0u;
      stage_count[1] = 0u;
    }
    BARRIER_LOCAL(); /* every work-item has read the stage and `used` */
    const u32 half_full = 2u * used >= HA_SLOTS ? 1u : 0u;
    HA_COMBINE_FLUSH(HA_COMBINING && half_full)
  }
  HA_COMBINE_FLUSH(HA_COMBINING)
#else
  HA_UNUSED_RECORD_ARGS();
  (void)mode;
  (void)combine;
  (void)slots;
  (void)slot_mask;
  (void)hash_mask;
  (void)entries;
  (void)entry_capacity;
  (void)keys;
  (void)key_capacity;
  (void)ght_counters;
  (void)counters;
  (void)pair_capacity;
  (void)out_key_capacity;
  (void)out_key;
  (void)out_len;
  (void)out_val;
  (void)out_bytes;
  (void)long_record;
  (void)deferred;
  (void)deferred_capacity;
  (void)deferred_pass;
#endif
}

/* order[i] = i: the values of the radix sort of the pairs' entries. */
KERNEL hashagg_pairs_iota(GLOBAL u32* order, u32 n) {
  const u32 i = GLOBAL_ID;
  if (i < n) order[i] = i;
}

/* After the sort: entry e's pairs are [begin[e], end[e]) of the sorted ones
 * (end[e] stays 0 for entries without pairs). */
KERNEL hashagg_pairs_bounds(GLOBAL const u32* sorted, u32 n, GLOBAL u32* begin, GLOBAL u32* end) {
  const u32 i = GLOBAL_ID;
  if (i >= n) return;
  const u32 e = sorted[i];
  if (i == 0u || sorted[i - 1u] != e) begin[e] = i;
  if (i + 1u == n || sorted[i + 1u] != e) end[e] = i + 1u;
}

/* Reduce: one work-item per entry, app_reduce over its pairs' values;
 * out_count[e] = outputs emitted (0 for entries without pairs; the host
 * fails a run where one emitted more than one). */
/* Before reduce, for apps with a combiner when entries have many pairs each
 * (the host launches it then; k-means: 8 entries of 528 pairs): work-group g
 * takes entries g, g + groups, ..., folds each one's values with app_combine
 * (every LOCAL_SIZE-th value a work-item, then a tree in local memory) and
 * leaves one value, the fold, at its first pair: end = begin + 1.
 * hashagg_pairs_reduce then reads one value where one work-item walked all of
 * an entry's values in a chain (k-means' reduce: 0.18 ms on an H100).
 * Launched with HA_FOLD_GROUP work-items a work-group (pairs_types.clh). */
KERNEL hashagg_pairs_combine(GLOBAL const u32* begin, GLOBAL u32* end, GLOBAL const u32* order,
                             GLOBAL APP_VAL_T* vals, u32 num_entries) {
#if !HA_HASH_AGG && APP_HAS_COMBINE
  LOCAL_ARRAY(APP_VAL_T, part, HA_FOLD_GROUP);
  LOCAL_ARRAY(u32, part_count, HA_FOLD_GROUP);
  for (u32 e = GROUP_ID; e < num_entries; e += NUM_GROUPS) {
    const u32 first = begin[e], last = end[e]; /* last 0: the entry has no pairs */
    const u32 n = last > first ? last - first : 0u;
    u32 count = 0u;
    APP_VAL_T acc = vals[order[first < last ? first : 0u]]; /* replaced by the first folded */
    for (u32 j = LOCAL_ID; j < n; j += LOCAL_SIZE) {
      const APP_VAL_T v = vals[order[first + j]];
      acc = count == 0u ? v : app_combine(acc, v);
      ++count;
    }
    part[LOCAL_ID] = acc;
    part_count[LOCAL_ID] = count;
    BARRIER_LOCAL();
    for (u32 span = LOCAL_SIZE / 2u; span > 0u; span /= 2u) { /* not `half`: an OpenCL type */
      if (LOCAL_ID < span && part_count[LOCAL_ID + span] != 0u) {
        part[LOCAL_ID] = part_count[LOCAL_ID] == 0u
                             ? part[LOCAL_ID + span]
                             : app_combine(part[LOCAL_ID], part[LOCAL_ID + span]);
        part_count[LOCAL_ID] += part_count[LOCAL_ID + span];
      }
      BARRIER_LOCAL();
    }
    if (LOCAL_ID == 0u && n > 1u) {
      vals[order[first]] = part[0];
      end[e] = first + 1u;
    }
    BARRIER_LOCAL(); /* part is read before the next entry writes it */
  }
#else
  (void)begin;
  (void)end;
  (void)order;
  (void)vals;
  (void)num_entries;
#endif
}

KERNEL hashagg_pairs_reduce(GLOBAL const GhtEntry* entries, u32 num_entries,
                            GLOBAL const uchar* keys, GLOBAL const u32* begin,
                            GLOBAL const u32* end, GLOBAL const u32* order,
                            GLOBAL const APP_VAL_T* vals, GLOBAL const uchar* side, u32 side_size,
                            GLOBAL APP_OUT_T* out_vals, GLOBAL u32* out_count) {
  const u32 e = GLOBAL_ID;
  if (e >= num_entries) return;
#if !HA_HASH_AGG && APP_HAS_REDUCE
  if (end[e] == 0u) {
    out_count[e] = 0u;
    return;
  }
  EmitCtx ctx = ha_table_ctx(side, side_size, ght_table(0, 0u, 0u, 0, 0u, 0, 0u, 0, 0, 0u, 0), 0);
  ctx.out_val = out_vals + e;
  ValueList values;
  values.vals = vals;
  values.order = order;
  values.begin = begin[e];
  values.count = end[e] - begin[e];
  const GhtEntry entry = entries[e];
  app_reduce(&ctx, keys + entry.key_off, entry.key_len, &values);
  out_count[e] = ctx.emitted;
#else
  (void)entries;
  (void)keys;
  (void)begin;
  (void)end;
  (void)order;
  (void)vals;
  (void)side;
  (void)side_size;
  (void)out_vals;
  out_count[e] = 0u;
#endif
}

/* Map-only apps grouped by entry: the values in sorted order. */
KERNEL hashagg_pairs_gather(GLOBAL const u32* order, GLOBAL const APP_VAL_T* vals, u32 n,
                            GLOBAL APP_VAL_T* sorted_vals) {
  const u32 i = GLOBAL_ID;
  if (i < n) sorted_vals[i] = vals[order[i]];
}

#endif
