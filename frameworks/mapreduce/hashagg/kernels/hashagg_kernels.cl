/* hashagg kernels: map over byte ranges with local pre-aggregation into the
 * global table, and the per-key reduce. Included after the app's user
 * functions (mapreduce_program.cpp); bodies are empty for apps hashagg does
 * not run (the host refuses them). */

#include "frameworks/mapreduce/hashagg/kernels/short_key_table.clh"

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

/* A context that adds to the global table only (no local table, no output). */
DEVICE_FN EmitCtx ha_table_ctx(GLOBAL const uchar* side, u32 side_size, GhtTable table,
                               GLOBAL u32* sums) {
  EmitCtx ctx;
  ctx.side = side;
  ctx.side_size = side_size;
  ctx.group_table.words = 0;
  ctx.group_table.values = 0;
  ctx.group_table.used = 0;
  ctx.use_local = 0u;
  ctx.stage = 0;
  ctx.stage_count = 0;
  ctx.table = table;
  ctx.sums = sums;
  ctx.out_val = 0;
  ctx.emitted = 0u;
  return ctx;
}

/* The map kernels' context: the app's side data, the work-group's local
 * table (cleared here, by every work-item's share; the caller's barrier
 * follows) and the global table. */
DEVICE_FN EmitCtx ha_map_ctx(GLOBAL const uchar* side, u32 side_size, LOCAL_PTR u32* local_words,
                             LOCAL_PTR u32* local_values, LOCAL_PTR u32* local_used, GhtTable table,
                             GLOBAL u32* sums) {
  EmitCtx ctx = ha_table_ctx(side, side_size, table, sums);
  ctx.group_table.words = local_words;
  ctx.group_table.values = local_values;
  ctx.group_table.used = local_used;
  ctx.use_local = 1u;
  for (u32 s = LOCAL_ID; s < 3u * HA_LOCAL_SLOTS; s += LOCAL_SIZE) local_words[s] = 0u;
  for (u32 s = LOCAL_ID; s < HA_LOCAL_SLOTS; s += LOCAL_SIZE) local_values[s] = 0u;
  if (LOCAL_ID == 0u) local_used[0] = 0u;
  return ctx;
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
  EmitCtx ctx = ha_map_ctx(side, side_size, local_words, local_values, local_used,
                           ght_table(slots, slot_mask, hash_mask, entries, entry_capacity, keys,
                                     key_capacity, 0, 0, 0u, counters),
                           sums);
  ctx.use_local = use_local;
  ctx.stage = stage;
  ctx.stage_count = stage_count;
  if (LOCAL_ID == 0u) stage_count[0] = 0u;
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
  HA_UNUSED_GLOBAL_TABLE_ARGS();
#endif
}

#if defined(APP_KEYS_ARE_RUNS)
/* The runs path reads the input as 16-byte pieces (HA_RUN_PIECE), one a
 * work-item, and classifies them 8 bytes at a time with the app's word-wide
 * run classes (app_run_bytes_swar, app_run_codes_swar). A piece is the
 * 16-bit mask of its run bytes and its codes packed into 80 bits (code k at
 * bit HA_CODE_BITS x k): `lo` the low 64 bits, `hi` the rest. Bytes past the
 * input's end are not run bytes. */
typedef struct {
  u32 runs;
  u64 lo, hi;
} HaPiece;

DEVICE_FN HaPiece ha_classify(u64 x0, u64 x1) {
  const u64 r0 = app_run_bytes_swar(x0), r1 = app_run_bytes_swar(x1);
  const u64 p0 = swar_pack_codes(app_run_codes_swar(x0, r0), HA_CODE_BITS);
  const u64 p1 = swar_pack_codes(app_run_codes_swar(x1, r1), HA_CODE_BITS);
  HaPiece piece;
  piece.runs = swar_movemask(r0) | (swar_movemask(r1) << 8);
  piece.lo = p0 | (p1 << (8u * HA_CODE_BITS));
  piece.hi = p1 >> (64u - 8u * HA_CODE_BITS);
  return piece;
}

/* The piece of input[first, first + 16): one 16-byte load where it is whole
 * (the input starts 16-byte aligned), else its bytes, zeros past `size`. */
DEVICE_FN HaPiece ha_load_piece(GLOBAL const uchar* input, u32 size, u32 first) {
  u64 x0 = 0u, x1 = 0u;
  if (first + HA_RUN_PIECE <= size) {
    const swar_u64x2 v = ((GLOBAL const swar_u64x2*)input)[first / HA_RUN_PIECE];
    x0 = v.x;
    x1 = v.y;
  } else {
    for (u32 b = 0; b < 8u && first + b < size; ++b) x0 |= (u64)input[first + b] << (8u * b);
    for (u32 b = 8u; b < 16u && first + b < size; ++b) x1 |= (u64)input[first + b] << (8u * (b - 8u));
  }
  return ha_classify(x0, x1);
}

/* The codes of a piece from code `s` on, in the low bits (s < 16). */
DEVICE_FN u64 ha_codes_from(HaPiece piece, u32 s) {
  const u32 shift = HA_CODE_BITS * s;
  if (shift == 0u) return piece.lo;
  return shift < 64u ? (piece.lo >> shift) | (piece.hi << (64u - shift))
                     : piece.hi >> (shift - 64u);
}

/* The low n codes' bits of a packed key (n <= HA_SHORT_MAX_LEN). */
DEVICE_FN u64 ha_first_codes(u64 codes, u32 n) {
  return n * HA_CODE_BITS >= 64u ? codes : codes & (((u64)1 << (n * HA_CODE_BITS)) - 1u);
}

/* The end of a run in hashagg_map_runs, at list position `at` (reserved for
 * it): a short key is listed for the work-group while the list has room, else
 * added now to the work-group's short-key table (or the global one); a key
 * that is not short (longer than HA_SHORT_MAX_LEN) leaves 0 (no key) at its
 * position and is listed apart for the byte-keyed table, or added to it now
 * when that list is full. A macro, expanded in the kernel body: PoCL 3.1 lost
 * these stores and adds when a helper function made them through the local
 * arrays passed to it. */
#define HA_RUN_DONE(packed, len, start)                                                 \
  {                                                                                     \
    const u32 is_short = (len) <= HA_SHORT_MAX_LEN;                                     \
    if (at < HA_RUN_KEYS) list[at] = is_short ? (packed) : (u64)0u;                     \
    if (is_short && at >= HA_RUN_KEYS) {                                                \
      if (!ha_short_local_add(local_keys, local_sums, (packed), APP_RUN_VALUE))         \
        ha_short_global_add(&global_short, (packed), APP_RUN_VALUE);                    \
    } else if (!is_short) {                                                             \
      const u32 k = ATOMIC_ADD_U32(long_count, 1u);                                     \
      if (k < HA_RUN_LONG_KEYS) {                                                       \
        long_start[k] = (start);                                                        \
        long_len[k] = (len);                                                            \
      } else {                                                                          \
        ha_global_add_g(&ctx, input + (start), (len), APP_RUN_VALUE);                   \
      }                                                                                 \
    }                                                                                   \
    ++at;                                                                               \
  }
#endif /* APP_KEYS_ARE_RUNS */

/* Map over input[0, size) for apps whose keys are the maximal runs of
 * non-separator bytes, without app_map: work-group g takes tiles g, g +
 * groups, ... of LOCAL_SIZE pieces of 16 bytes (HA_RUN_PIECE).
 * (1) Each work-item loads its piece with one 16-byte load (a warp reads 512
 *     contiguous bytes) and classifies it 8 bytes an operation: the mask of
 *     its run bytes and their codes packed (ha_classify). The byte before
 *     the piece says whether its first run began earlier.
 * (2) The runs that start in the piece are the mask's bits with no run byte
 *     before them. The work-item reserves room for that many keys in the
 *     tile's key list with one local atomic add, then takes each start with
 *     bit operations: its length is the run of set bits from it, its packed
 *     key the codes from it. Only a run that reaches the piece's end reads
 *     on: the next piece (a load that the neighbouring work-item's load has
 *     brought into the cache), and byte by byte past that (a run of more than
 *     16 bytes there is too long to pack; only its length is wanted). Runs
 *     too long to pack (about 1% of text-zipf's words) are listed apart.
 * (3) The work-group takes the listed keys evenly and adds APP_RUN_VALUE to
 *     the work-group's short-key table, else to the global short-key table;
 *     then the long runs, one a work-item, to the byte-keyed table (added
 *     where they were found, one after another in a warp, they cost more
 *     than all the short keys' adds).
 * The local table lives as long as the work-group (it is never emptied
 * between tiles, so hot keys stay) and is added to the global short table at
 * the end. Without 64-bit atomics the kernel only raises HA_SHORT_COUNTER_NO_U64. */
KERNEL hashagg_map_runs(GLOBAL const uchar* input, u32 size, GLOBAL const uchar* side,
                        u32 side_size, GLOBAL u64* short_keys, GLOBAL u32* short_sums,
                        u32 short_mask, GLOBAL u32* short_counters, GLOBAL u32* slots,
                        u32 slot_mask, u32 hash_mask, GLOBAL GhtEntry* entries, u32 entry_capacity,
                        GLOBAL uchar* keys, u32 key_capacity, GLOBAL u32* counters,
                        GLOBAL u32* sums) {
#if APP_COMBINE_ADD_U32 && defined(APP_KEYS_ARE_RUNS) && defined(HARNESS_HAS_ATOMIC_U64)
  LOCAL_ARRAY(u64, local_keys, HA_SHORT_LOCAL_SLOTS);
  LOCAL_ARRAY(u32, local_sums, HA_SHORT_LOCAL_SLOTS);
  LOCAL_ARRAY(u64, list, HA_RUN_KEYS);
  LOCAL_ARRAY(u32, list_count, 1);
  LOCAL_ARRAY(u32, long_start, HA_RUN_LONG_KEYS);
  LOCAL_ARRAY(u32, long_len, HA_RUN_LONG_KEYS);
  LOCAL_ARRAY(u32, long_count, 1);
  EmitCtx ctx = ha_table_ctx(side, side_size,
                             ght_table(slots, slot_mask, hash_mask, entries, entry_capacity, keys,
                                       key_capacity, 0, 0, 0u, counters),
                             sums);
  ShortTable global_short;
  global_short.keys = short_keys;
  global_short.sums = short_sums;
  global_short.slot_mask = short_mask;
  global_short.hash_mask = hash_mask;
  global_short.counters = short_counters;
  for (u32 s = LOCAL_ID; s < HA_SHORT_LOCAL_SLOTS; s += LOCAL_SIZE) {
    local_keys[s] = 0u;
    local_sums[s] = 0u;
  }
  if (LOCAL_ID == 0u) {
    list_count[0] = 0u;
    long_count[0] = 0u;
  }
  BARRIER_LOCAL();

  const u32 pieces = size / HA_RUN_PIECE + (size % HA_RUN_PIECE != 0u ? 1u : 0u);
  const u32 tiles = pieces / LOCAL_SIZE + (pieces % LOCAL_SIZE != 0u ? 1u : 0u);
  for (u32 t = GROUP_ID; t < tiles; t += NUM_GROUPS) {
    const u32 first = (t * LOCAL_SIZE + LOCAL_ID) * HA_RUN_PIECE;
    if (first < size) {
      /* (1) */
      const HaPiece piece = ha_load_piece(input, size, first);
      const u32 before = first > 0u && !app_is_separator(input[first - 1u]) ? 1u : 0u;
      /* (2) */
      u32 starts = piece.runs & ~((piece.runs << 1) | before) & 0xffffu;
      u32 at = starts != 0u ? ATOMIC_ADD_U32(list_count, POPCOUNT_U32(starts)) : 0u;
      /* The run at the piece's end goes on in the next piece: its bytes there
       * (`more`) and their codes, found before the loop, where a warp's
       * work-items reach their last run at different turns and would take
       * this path one after another. */
      u32 more = 0u;
      u64 more_codes = 0u;
      if ((piece.runs >> (HA_RUN_PIECE - 1u)) != 0u && first + HA_RUN_PIECE < size) {
        const HaPiece next = ha_load_piece(input, size, first + HA_RUN_PIECE);
        more = swar_ctz32(~next.runs);
        more_codes = next.lo;
        if (more == HA_RUN_PIECE) { /* too long to pack: only its length is wanted */
          for (u32 pos = first + 2u * HA_RUN_PIECE; pos < size && !app_is_separator(input[pos]);
               ++pos) {
            ++more;
          }
        }
      }
      while (starts != 0u) {
        const u32 s = swar_ctz32(starts);
        starts &= starts - 1u;
        u32 len = swar_ctz32(~(piece.runs >> s)); /* run bytes from s in the piece */
        u64 packed = ha_codes_from(piece, s);
        if (s + len == HA_RUN_PIECE) {
          if (len < HA_SHORT_MAX_LEN) packed |= more_codes << (HA_CODE_BITS * len);
          len += more;
        }
        packed = ha_first_codes(packed, len < HA_SHORT_MAX_LEN ? len : HA_SHORT_MAX_LEN);
        HA_RUN_DONE(packed, len, first + s)
      }
    }
    BARRIER_LOCAL();
    /* (3) the listed keys, spread over the work-group */
    const u32 listed = list_count[0] < HA_RUN_KEYS ? list_count[0] : HA_RUN_KEYS;
    for (u32 j = LOCAL_ID; j < listed; j += LOCAL_SIZE) {
      const u64 key = list[j];
      if (key == 0u) continue;
      if (!ha_short_local_add(local_keys, local_sums, key, APP_RUN_VALUE)) {
        ha_short_global_add(&global_short, key, APP_RUN_VALUE);
      }
    }
    const u32 longs = long_count[0] < HA_RUN_LONG_KEYS ? long_count[0] : HA_RUN_LONG_KEYS;
    for (u32 j = LOCAL_ID; j < longs; j += LOCAL_SIZE) {
      ha_global_add_g(&ctx, input + long_start[j], long_len[j], APP_RUN_VALUE);
    }
    BARRIER_LOCAL(); /* every work-item has read the counts before they are reset */
    if (LOCAL_ID == 0u) {
      list_count[0] = 0u;
      long_count[0] = 0u;
    }
    BARRIER_LOCAL();
  }
  for (u32 s = LOCAL_ID; s < HA_SHORT_LOCAL_SLOTS; s += LOCAL_SIZE) {
    const u64 key = local_keys[s];
    if (key != 0u) ha_short_global_add(&global_short, key, local_sums[s]);
  }
#else
  (void)input;
  (void)size;
  (void)side;
  (void)side_size;
  (void)short_keys;
  (void)short_sums;
  (void)short_mask;
  HA_UNUSED_GLOBAL_TABLE_ARGS();
  if (GLOBAL_ID == 0u) short_counters[HA_SHORT_COUNTER_NO_U64] = 1u;
#endif
}

/* After map: every key of the global short table, unpacked, into the
 * byte-keyed table with its sum, so reduce and the output see one table.
 * One work-item per slot. */
KERNEL hashagg_fold_short(GLOBAL const u64* short_keys, GLOBAL const u32* short_sums,
                          u32 short_slots, GLOBAL const uchar* side, u32 side_size,
                          GLOBAL u32* slots, u32 slot_mask, u32 hash_mask, GLOBAL GhtEntry* entries,
                          u32 entry_capacity, GLOBAL uchar* keys, u32 key_capacity,
                          GLOBAL u32* counters, GLOBAL u32* sums) {
  const u32 s = GLOBAL_ID;
  if (s >= short_slots) return;
#if APP_COMBINE_ADD_U32 && defined(APP_KEYS_ARE_RUNS)
  const u64 packed = short_keys[s];
  if (packed == 0u) return;
  uchar key[HA_SHORT_MAX_LEN];
  const u32 len = ha_short_unpack(packed, key);
  EmitCtx ctx = ha_table_ctx(side, side_size,
                             ght_table(slots, slot_mask, hash_mask, entries, entry_capacity, keys,
                                       key_capacity, 0, 0, 0u, counters),
                             sums);
  ha_global_add_p(&ctx, key, len, short_sums[s]);
#else
  (void)short_keys;
  (void)short_sums;
  (void)side;
  (void)side_size;
  HA_UNUSED_GLOBAL_TABLE_ARGS();
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
#if HA_HASH_AGG && APP_HAS_REDUCE
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

/* The records path: map over host-split records (records_kernels.cl). */
#include "frameworks/mapreduce/hashagg/kernels/records_kernels.cl"
