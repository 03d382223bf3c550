// netflix's answer: one row per user pair, its similarity sum and its number
// of common movies, in TableOutput's dump format (`key<TAB>similarity<TAB>
// movies`, the key `user_a:user_b` as zero-padded 10-digit decimals so byte
// order is numeric order) but held as 16-byte numeric rows: at the paper's
// sizes there are about 10^8 pairs, too many to turn into string keys.
// A run writes its rows into the output's storage in pieces (its hash
// partitions), each in any order; finish() gathers and sorts them, untimed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "frameworks/workloads/workload.h"
#include "harness/core/huge_page_array.h"

namespace harness::workloads::netflix {

// A user pair's tally. No member initializers: arrays of it are left
// uninitialized for the threads that fill them.
struct PairTally {
  std::uint64_t pair;       // pair_key(user_a, user_b)
  std::int32_t similarity;  // sum of similarity_term over the pair's records
  std::uint32_t movies;     // the pair's records
};

class PairScoresOutput final : public Output {
 public:
  // Uninitialized room for up to `capacity` rows, replacing any earlier.
  PairTally* storage(std::size_t capacity);
  // Rows [first, first + count) of the storage hold rows of the answer.
  void add_piece(const PairTally* first, std::size_t count);
  // After finish(): every pair once, ascending.
  const std::vector<PairTally>& rows() const { return rows_; }

  void finish() override;
  std::string compare_with(const Output& expected, const ValidationPolicy& policy) const override;
  void dump(std::ostream& out) const override;
  std::uint64_t items() const override;

 private:
  HugePageArray<PairTally> storage_;
  std::vector<std::span<const PairTally>> pieces_;
  std::vector<PairTally> rows_;
  bool finished_ = false;
};

}  // namespace harness::workloads::netflix
