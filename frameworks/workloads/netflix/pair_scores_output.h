// netflix's answer: one row per user pair, its similarity sum and its number
// of common movies, in TableOutput's dump format (`key<TAB>similarity<TAB>
// movies`, the key `user_a:user_b` as zero-padded 10-digit decimals so byte
// order is numeric order) but held as 16-byte numeric rows: at the paper's
// sizes there are about 10^8 pairs, too many to turn into string keys.
// A run writes its rows into the output's storage in pieces (its hash
// partitions), each in any order; finish() gathers and sorts them, untimed
// (keyed_rows_output.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "frameworks/workloads/keyed_rows_output.h"

namespace harness::workloads::netflix {

// A user pair's tally. No member initializers: arrays of it are left
// uninitialized for the threads that fill them.
struct PairTally {
  std::uint64_t pair;       // pair_key(user_a, user_b)
  std::int32_t similarity;  // sum of similarity_term over the pair's records
  std::uint32_t movies;     // the pair's records
};

// PairTally rows as KeyedRowsOutput reads them.
struct PairScoresRows {
  using Row = PairTally;
  static constexpr const char* kApp = "netflix";
  static constexpr const char* kWhat = "pair scores";
  static constexpr const char* kKey = "pair";
  static constexpr const char* kKeys = "pairs";
  static std::uint64_t key(const PairTally& row) { return row.pair; }
  static std::string key_name(std::uint64_t pair);  // "0000000001:0000000002"
  static bool same_values(const PairTally& a, const PairTally& b) {
    return a.similarity == b.similarity && a.movies == b.movies;
  }
  static std::string values(const PairTally& row);  // "similarity movies"
  static void append_line(std::string& text, const PairTally& row);
};

}  // namespace harness::workloads::netflix

namespace harness::workloads {
extern template class KeyedRowsOutput<netflix::PairScoresRows>;
}  // namespace harness::workloads

namespace harness::workloads::netflix {

// storage(capacity) and add_piece(first, count) as a run fills it; rows()
// after finish(): every pair once, ascending.
class PairScoresOutput final : public KeyedRowsOutput<PairScoresRows> {};

}  // namespace harness::workloads::netflix
