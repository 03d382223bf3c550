// netflix's CPU-MT implementation: a radix-partitioned hash aggregation
// (radix_aggregate.h, shared with key-counts).
//  1. Each thread scans its own contiguous range of records and appends one
//     tally per record (pair, similarity term, 1 movie) to its buffer of the
//     pair's hash partition (the top bits of a 64-bit mix of the pair key).
//  2. Each partition is then aggregated by one thread (partitions handed out
//     dynamically): every thread's tallies of it are summed in an
//     open-addressing table (linear probing on the mixed key) sized for the
//     partition, so it stays cache-resident, and its rows are written to the
//     partition's own range of the output's storage.
// A pair lives in one partition, so the merge of the threads' tallies needs
// no locks, and no table is ever larger than a partition's share of the data
// (the paper's inputs hold about 10^8 distinct pairs: a table per thread over
// its whole range would miss the cache on every record).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "frameworks/workloads/netflix/pair_scores_output.h"

namespace harness::workloads::netflix {

// Fills `out` with the tallies of every pair in `records` records at `data`,
// in pieces (one per hash partition).
void tally_pairs_parallel(const std::uint8_t* data, std::size_t records, unsigned threads,
                          PairScoresOutput& out);

// Partial tallies in slots (a GPU's per-chunk hash tables; a slot whose pair
// is 0 is empty): every pair once, its sums added, by the same partitioned
// aggregation on `threads` threads.
struct TallySlots {
  const PairTally* slots = nullptr;
  std::size_t count = 0;
};
void combine_slots_parallel(const std::vector<TallySlots>& tables, unsigned threads,
                            PairScoresOutput& out);

}  // namespace harness::workloads::netflix
