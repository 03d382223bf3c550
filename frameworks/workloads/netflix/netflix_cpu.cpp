#include "frameworks/workloads/netflix/netflix_cpu.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "frameworks/workloads/netflix/netflix_format.h"
#include "frameworks/workloads/radix_aggregate.h"
#include "harness/core/huge_page_array.h"

namespace harness::workloads::netflix {
namespace {

// user_a == user_b: never a valid pair, so it marks an empty table slot.
constexpr std::uint64_t kEmptySlot = ~std::uint64_t{0};

// Open addressing with linear probing, power-of-two slots, at most 2/3 full
// (radix_aggregate.h's table). It lists the slots it fills, so handing the
// rows over and emptying the table cost the rows, not the slots.
class TallyTable {
 public:
  using Item = PairTally;
  using Row = PairTally;
  static std::uint64_t hash(const PairTally& tally) { return radix::mix64(tally.pair); }

  // Sizes the table, empty, for up to `tallies` distinct pairs.
  void prepare(std::size_t tallies) {
    const std::size_t slots = std::bit_ceil(std::max<std::size_t>(16, tallies + tallies / 2));
    if (slots > slots_.size()) {
      slots_ = HugePageArray<PairTally>(slots);
      for (std::size_t i = 0; i < slots; ++i) slots_[i].pair = kEmptySlot;
    }
    mask_ = slots - 1;
  }

  void add(const PairTally& tally, std::uint64_t hash) {
    for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
      PairTally& slot = slots_[i];
      if (slot.pair == tally.pair) {
        slot.similarity += tally.similarity;
        slot.movies += tally.movies;
        return;
      }
      if (slot.pair == kEmptySlot) {
        slot = tally;
        filled_.push_back(static_cast<std::uint32_t>(i));
        return;
      }
    }
  }

  // Copies the rows to `out` and empties the table; returns the rows.
  std::size_t drain_into(PairTally* out) {
    for (std::size_t r = 0; r < filled_.size(); ++r) {
      out[r] = slots_[filled_[r]];
      slots_[filled_[r]].pair = kEmptySlot;
    }
    const std::size_t rows = filled_.size();
    filled_.clear();
    return rows;
  }

 private:
  HugePageArray<PairTally> slots_;
  std::size_t mask_ = 0;
  std::vector<std::uint32_t> filled_;
};

}  // namespace

void tally_pairs_parallel(const std::uint8_t* data, std::size_t records, unsigned threads,
                          PairScoresOutput& out) {
  radix::aggregate_ranges<TallyTable>(
      records, threads,
      [&](std::size_t lo, std::size_t hi, const auto& emit) {
        for (std::size_t i = lo; i < hi; ++i) {
          const RatingPair r = load_rating_pair(data + i * kRecordBytes);
          emit(PairTally{pair_key(r.user_a, r.user_b), similarity_term(r.rating_a, r.rating_b), 1});
        }
      },
      out);
}

void combine_slots_parallel(const std::vector<TallySlots>& tables, unsigned threads,
                            PairScoresOutput& out) {
  std::vector<std::size_t> first(tables.size() + 1, 0);
  for (std::size_t i = 0; i < tables.size(); ++i) first[i + 1] = first[i] + tables[i].count;
  radix::aggregate_ranges<TallyTable>(
      first.back(), threads,
      [&](std::size_t from, std::size_t to, const auto& emit) {
        // Slots [from, to) of the tables laid end to end.
        for (std::size_t i = 0; i < tables.size(); ++i) {
          const std::size_t lo = std::max(from, first[i]), hi = std::min(to, first[i + 1]);
          for (std::size_t s = lo; s < hi; ++s) {
            const PairTally& slot = tables[i].slots[s - first[i]];
            if (slot.pair != 0) emit(slot);
          }
        }
      },
      out);
}

}  // namespace harness::workloads::netflix
