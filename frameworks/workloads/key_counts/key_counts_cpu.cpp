#include "frameworks/workloads/key_counts/key_counts_cpu.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "frameworks/workloads/radix_aggregate.h"
#include "harness/core/huge_page_array.h"

namespace harness::workloads::key_counts {
namespace {

// Open addressing with linear probing, power-of-two slots, at most 2/3 full
// (radix_aggregate.h's table); a slot counting 0 is free. It starts at the
// size of a partition of distinct keys and doubles when it fills, so a
// skewed partition (a Zipf input's top keys: many items, few keys) gets a
// small table. It lists the slots it fills, so growing, handing the rows over
// and emptying the table cost the rows, not the slots. An item is a key.
class CountTable {
 public:
  using Item = std::uint64_t;
  using Row = KeyCount;
  static std::uint64_t hash(const Item& key) { return radix::mix64(key); }

  // Sizes the table, empty, for a partition of `keys` keys.
  void prepare(std::size_t keys) {
    keys = std::min(keys, radix::kItemsPerPartition);
    resize(std::bit_ceil(std::max<std::size_t>(16, keys + keys / 2)));
  }

  void add(const Item& key, std::uint64_t hash) {
    for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
      KeyCount& slot = slots_[i];
      if (slot.count == 0) {
        slot = KeyCount{key, 1};
        filled_.push_back(i);
        if (3 * filled_.size() > 2 * (mask_ + 1)) grow();
        return;
      }
      if (slot.key == key) {
        ++slot.count;
        return;
      }
    }
  }

  // Copies the rows to `out` and empties the table; returns the rows.
  std::size_t drain_into(KeyCount* out) {
    for (std::size_t r = 0; r < filled_.size(); ++r) {
      out[r] = slots_[filled_[r]];
      slots_[filled_[r]].count = 0;
    }
    const std::size_t rows = filled_.size();
    filled_.clear();
    return rows;
  }

 private:
  // `slots` (a power of two) in use; the table is empty.
  void resize(std::size_t slots) {
    if (slots > slots_.size()) {
      slots_ = HugePageArray<KeyCount>(slots);
      for (std::size_t i = 0; i < slots; ++i) slots_[i].count = 0;
    }
    mask_ = slots - 1;
  }

  // Twice the slots, the rows moved over.
  void grow() {
    std::vector<KeyCount> rows(filled_.size());
    drain_into(rows.data());
    resize(2 * (mask_ + 1));
    for (const KeyCount& row : rows) {
      std::size_t i = radix::mix64(row.key) & mask_;
      while (slots_[i].count != 0) i = (i + 1) & mask_;
      slots_[i] = row;
      filled_.push_back(i);
    }
  }

  HugePageArray<KeyCount> slots_;
  std::size_t mask_ = 0;
  std::vector<std::size_t> filled_;
};

}  // namespace

void count_keys_parallel(const std::uint64_t* keys, std::size_t count, unsigned threads,
                         KeyCountsOutput& out) {
  radix::aggregate_ranges<CountTable>(
      count, threads,
      [&](std::size_t lo, std::size_t hi, const auto& emit) {
        for (std::size_t i = lo; i < hi; ++i) emit(keys[i]);
      },
      out);
}

}  // namespace harness::workloads::key_counts
