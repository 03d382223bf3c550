/* One pass of a stable LSD radix sort of (u32 key, u32 value) pairs on the
 * digit (key >> shift) & mask (mask = 2^b - 1, b <= 8); radix_sort.cpp runs
 * one pass per 8 bits of the key, ping-ponging between two buffer pairs.
 *
 * The input is cut into tiles of RS_TILE pairs, one work-group of RS_GROUP
 * items per tile. A pass is:
 *  1. radix_upsweep: each work-group counts its tile's digits into
 *     counts[digit * num_tiles + tile] (digit-major);
 *  2. an exclusive scan of counts (Scan, scan.cl), so that entry
 *     (digit, tile) becomes the global position of the tile's first pair
 *     with that digit: all smaller digits come first, then the same digit in
 *     earlier tiles, which is what makes the pass stable;
 *  3. radix_scatter: each work-group sorts its tile by the digit in local
 *     memory (two stable 4-bit counting-sort steps, low nibble then high),
 *     then writes the pair at local position i to
 *     offset[digit][tile] + (i - first local position of that digit):
 *     runs of one digit go to consecutive addresses.
 *
 * Local ranking uses no sub-group operations and no lock-step assumption:
 * each work-item owns one column of a [16 digits][RS_GROUP items] counter
 * table, counts its own RS_ITEMS consecutive pairs into it, the table is
 * scanned in digit-major order by the whole work-group, and each item then
 * hands out positions from its own column in order (stable by construction).
 *
 * Keep RS_GROUP, RS_TILE and RS_DIGITS in sync with radix_sort.cpp. */
#include "harness/dialect/dialect.h"

#define RS_GROUP 256
#define RS_ITEMS 8
#define RS_TILE (RS_GROUP * RS_ITEMS)
#define RS_DIGITS 256    /* 8-bit digits per global pass */
#define RS_SUB_DIGITS 16 /* 4-bit digits per local counting-sort step */
#define RS_COUNTERS (RS_SUB_DIGITS * RS_GROUP)
#define RS_COUNTERS_PER_ITEM (RS_COUNTERS / RS_GROUP) /* scanned per item: 16 */
/* Upsweep: several copies of the histogram, so that equal digits of one
 * warp/wavefront are spread over RS_HIST_COPIES addresses; each copy is
 * padded by one word so the copies of one digit fall in different banks. */
#define RS_HIST_COPIES 8
#define RS_HIST_STRIDE (RS_DIGITS + 1)

/* Tile index i -> local array index: one pad word per 32, so that an item
 * reading its RS_ITEMS consecutive pairs (stride RS_ITEMS across items) does
 * not hit the same bank as its neighbours. */
#define RS_TILE_PAD(i) ((i) + ((i) >> 5))
#define RS_TILE_WORDS RS_TILE_PAD(RS_TILE)
/* Counter table index j = digit * RS_GROUP + item -> local array index: one
 * pad word per 16, so that the scan's per-item runs of 16 (stride 16 across
 * items) spread over the banks. */
#define RS_COUNTER_PAD(j) ((j) + ((j) >> 4))
#define RS_COUNTER_WORDS RS_COUNTER_PAD(RS_COUNTERS)

KERNEL radix_upsweep(GLOBAL const u32* keys, u32 n, u32 shift, u32 mask, u32 num_tiles,
                     GLOBAL u32* counts) {
  LOCAL_ARRAY(u32, hist, RS_HIST_COPIES * RS_HIST_STRIDE);
  u32 lid = LOCAL_ID;
  for (u32 i = lid; i < RS_HIST_COPIES * RS_HIST_STRIDE; i += RS_GROUP) hist[i] = 0u;
  BARRIER_LOCAL();
  u32 base = GROUP_ID * RS_TILE;
  u32 tile_n = n - base < RS_TILE ? n - base : (u32)RS_TILE; /* base < n: no wrap */
  u32 copy = (lid % RS_HIST_COPIES) * RS_HIST_STRIDE;
  for (u32 k = 0; k < RS_ITEMS; ++k) {
    u32 i = k * RS_GROUP + lid; /* coalesced */
    if (i < tile_n) {
      u32 digit = (keys[base + i] >> shift) & mask;
      ATOMIC_ADD_U32(&hist[copy + digit], 1u);
    }
  }
  BARRIER_LOCAL();
  for (u32 digit = lid; digit < RS_DIGITS; digit += RS_GROUP) {
    u32 sum = 0;
    for (u32 c = 0; c < RS_HIST_COPIES; ++c) sum += hist[c * RS_HIST_STRIDE + digit];
    counts[digit * num_tiles + GROUP_ID] = sum;
  }
}

/* offsets: the scanned counts of radix_upsweep (same shift, mask, num_tiles). */
KERNEL radix_scatter(GLOBAL const u32* keys_in, GLOBAL const u32* values_in, GLOBAL u32* keys_out,
                     GLOBAL u32* values_out, u32 n, u32 shift, u32 mask, u32 num_tiles,
                     GLOBAL const u32* offsets) {
  LOCAL_ARRAY(u32, tile_keys, RS_TILE_WORDS);
  LOCAL_ARRAY(u32, tile_values, RS_TILE_WORDS);
  LOCAL_ARRAY(u32, counters, RS_COUNTER_WORDS);
  LOCAL_ARRAY(u32, partial, 2 * RS_GROUP);
  /* Per digit: global position of the tile's pair at local position 0 of the
   * digit's run, minus that local position (set only for digits present). */
  LOCAL_ARRAY(u32, digit_base, RS_DIGITS);
  u32 lid = LOCAL_ID;
  u32 base = GROUP_ID * RS_TILE;
  u32 tile_n = n - base < RS_TILE ? n - base : (u32)RS_TILE;

  /* Load the tile (coalesced). Missing pairs of a partial tile get the
   * largest digit: being last in tile order, they stay behind every real
   * pair and are never written out. */
  for (u32 k = 0; k < RS_ITEMS; ++k) {
    u32 i = k * RS_GROUP + lid;
    tile_keys[RS_TILE_PAD(i)] = i < tile_n ? keys_in[base + i] : 0xffffffffu;
    tile_values[RS_TILE_PAD(i)] = i < tile_n ? values_in[base + i] : 0u;
  }
  BARRIER_LOCAL();

  /* Stable local sort by the digit: low nibble, then (if the digit has more
   * than 4 bits) high nibble. Every bound below is uniform over the group. */
  u32 steps = mask > RS_SUB_DIGITS - 1u ? 2u : 1u;
  for (u32 step = 0; step < steps; ++step) {
    u32 sub_shift = shift + 4u * step;
    /* This item's RS_ITEMS consecutive pairs, in tile order. */
    u32 key[RS_ITEMS], value[RS_ITEMS];
    for (u32 k = 0; k < RS_ITEMS; ++k) {
      u32 i = RS_TILE_PAD(lid * RS_ITEMS + k);
      key[k] = tile_keys[i];
      value[k] = tile_values[i];
    }
    for (u32 d = 0; d < RS_SUB_DIGITS; ++d) counters[RS_COUNTER_PAD(d * RS_GROUP + lid)] = 0u;
    for (u32 k = 0; k < RS_ITEMS; ++k) {
      u32 d = (key[k] >> sub_shift) & (mask >> (4u * step)) & (RS_SUB_DIGITS - 1u);
      counters[RS_COUNTER_PAD(d * RS_GROUP + lid)] += 1u; /* own column only */
    }
    BARRIER_LOCAL();

    /* Exclusive scan of the table in digit-major order: each item sums a run
     * of RS_COUNTERS_PER_ITEM entries, the run totals are scanned
     * (Hillis-Steele, double-buffered as in scan.cl), and each item writes
     * its run back as exclusive prefixes. */
    u32 run = lid * RS_COUNTERS_PER_ITEM;
    u32 sum = 0;
    for (u32 m = 0; m < RS_COUNTERS_PER_ITEM; ++m) sum += counters[RS_COUNTER_PAD(run + m)];
    u32 in = 0;
    partial[lid] = sum;
    BARRIER_LOCAL();
    for (u32 offset = 1; offset < RS_GROUP; offset <<= 1) {
      u32 out = 1u - in;
      u32 x = partial[in * RS_GROUP + lid];
      if (lid >= offset) x += partial[in * RS_GROUP + lid - offset];
      partial[out * RS_GROUP + lid] = x;
      BARRIER_LOCAL();
      in = out;
    }
    u32 running = partial[in * RS_GROUP + lid] - sum;
    for (u32 m = 0; m < RS_COUNTERS_PER_ITEM; ++m) {
      u32 j = RS_COUNTER_PAD(run + m);
      u32 c = counters[j];
      counters[j] = running;
      running += c;
    }
    BARRIER_LOCAL();

    /* Entry (d, lid) is now where this item's first pair with sub-digit d
     * goes; later ones follow in order. All items read their pairs into
     * registers before the barriers above, so the tile may be overwritten. */
    for (u32 k = 0; k < RS_ITEMS; ++k) {
      u32 d = (key[k] >> sub_shift) & (mask >> (4u * step)) & (RS_SUB_DIGITS - 1u);
      u32 j = RS_COUNTER_PAD(d * RS_GROUP + lid);
      u32 pos = RS_TILE_PAD(counters[j]);
      counters[j] += 1u;
      tile_keys[pos] = key[k];
      tile_values[pos] = value[k];
    }
    BARRIER_LOCAL();
  }

  /* The tile is sorted by digit: find where each present digit's run starts. */
  for (u32 k = 0; k < RS_ITEMS; ++k) {
    u32 i = k * RS_GROUP + lid;
    if (i < tile_n) {
      u32 digit = (tile_keys[RS_TILE_PAD(i)] >> shift) & mask;
      if (i == 0u || digit != ((tile_keys[RS_TILE_PAD(i - 1u)] >> shift) & mask)) {
        digit_base[digit] = offsets[digit * num_tiles + GROUP_ID] - i;
      }
    }
  }
  BARRIER_LOCAL();
  for (u32 k = 0; k < RS_ITEMS; ++k) {
    u32 i = k * RS_GROUP + lid;
    if (i < tile_n) {
      u32 key = tile_keys[RS_TILE_PAD(i)];
      u32 pos = digit_base[(key >> shift) & mask] + i;
      keys_out[pos] = key;
      values_out[pos] = tile_values[RS_TILE_PAD(i)];
    }
  }
}
