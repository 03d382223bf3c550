// Answers of numeric rows keyed by a 64-bit integer, one row per key (netflix's
// pair scores, key-counts' counts): too many rows to turn into TableOutput's
// string keys (10^8 at the papers' sizes), so they stay 16-byte structs.
// A run writes its rows into the output's storage in pieces (its hash
// partitions, a table's slots), each in any order; finish() (untimed)
// gathers them, sorts them by key on every core and refuses a repeated key;
// compare_with merges two sorted answers and names the first 3 unexpected,
// missing or different keys, with the count of the rest; dump writes one line
// per row in key order.
//
// An answer is a class derived from KeyedRowsOutput<Traits>, the Traits
// saying what a row is and how it reads:
//   using Row = ...;                     // trivially copyable and default-
//                                        // constructible, no initializers
//   static constexpr const char* kApp;   // "netflix": "netflix output holds the pair X twice"
//   static constexpr const char* kWhat;  // "pair scores": "pair scores compared before finish()"
//   static constexpr const char* kKey;   // "pair": "missing pair X"
//   static constexpr const char* kKeys;  // "pairs": "5 pairs (expected 6): ..."
//   static std::uint64_t key(const Row&);
//   static std::string key_name(std::uint64_t key);  // X above, as in the dump
//   static bool same_values(const Row&, const Row&);
//   static std::string values(const Row&);   // "pair X: 3 3 (expected 3 2)"
//   static void append_line(std::string& text, const Row&);  // its dump line, '\n' included
// Each answer's header declares `extern template class KeyedRowsOutput<Its
// traits>;` and its .cpp instantiates it, so the sort is compiled once.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "frameworks/workloads/outputs.h"
#include "frameworks/workloads/workload.h"
#include "harness/core/huge_page_array.h"
#include "harness/core/parallel_sort.h"

namespace harness::workloads {

template <class Traits>
class KeyedRowsOutput : public Output {
 public:
  using Row = typename Traits::Row;
  static_assert(std::is_trivially_copyable_v<Row> &&
                std::is_trivially_default_constructible_v<Row>);

  // Uninitialized room for up to `capacity` rows, replacing any earlier.
  Row* storage(std::size_t capacity) {
    storage_ = HugePageArray<Row>(capacity);
    owned_.clear();
    pieces_.clear();
    finished_ = false;
    return storage_.data();
  }
  // Rows [first, first + count) of the storage hold rows of the answer.
  void add_piece(const Row* first, std::size_t count) {
    if (count > 0) pieces_.emplace_back(first, count);
    finished_ = false;
  }
  // Rows of the answer the run built in a vector of its own, kept as they
  // are (no copy into the storage).
  void add_rows(std::vector<Row> rows) {
    if (rows.empty()) return;
    owned_.push_back(std::move(rows));
    add_piece(owned_.back().data(), owned_.back().size());
  }
  // After finish(): every key once, ascending.
  const std::vector<Row>& rows() const { return rows_; }

  void finish() override;
  std::string compare_with(const Output& expected, const ValidationPolicy& policy) const override;
  void dump(std::ostream& out) const override;
  std::uint64_t items() const override {
    std::uint64_t n = rows_.size();
    for (const auto& piece : pieces_) n += piece.size();
    return n;
  }

 private:
  // A function object, not a function pointer, so that adjacent_find inlines it.
  struct SameKey {
    bool operator()(const Row& x, const Row& y) const { return Traits::key(x) == Traits::key(y); }
  };

  HugePageArray<Row> storage_;
  std::vector<std::vector<Row>> owned_;  // add_rows' (their data never moves)
  std::vector<std::span<const Row>> pieces_;
  std::vector<Row> rows_;
  bool finished_ = false;
};

template <class Traits>
void KeyedRowsOutput<Traits>::finish() {
  if (finished_) return;
  // Millions of rows at 1 GiB, after every run: gathered and sorted on all
  // cores (rows finished before, if any, are one more piece).
  std::vector<Row> earlier;
  earlier.swap(rows_);
  if (!earlier.empty()) pieces_.emplace_back(earlier.data(), earlier.size());
  gather_sorted_by_key(pieces_, rows_, [](const Row& r) { return Traits::key(r); });
  pieces_.clear();
  storage_ = {};
  owned_.clear();
  const auto repeat = std::adjacent_find(rows_.begin(), rows_.end(), SameKey{});
  if (repeat != rows_.end())
    throw std::logic_error(fmt::format("{} output holds the {} {} twice", Traits::kApp,
                                       Traits::kKey, Traits::key_name(Traits::key(*repeat))));
  finished_ = true;
}

template <class Traits>
std::string KeyedRowsOutput<Traits>::compare_with(const Output& expected,
                                                  const ValidationPolicy&) const {
  const auto& e = expect_same_type<KeyedRowsOutput>(expected, Traits::kWhat);
  if (!finished_ || !e.finished_)
    throw std::logic_error(fmt::format("{} compared before finish()", Traits::kWhat));
  const std::vector<Row>&got = rows_, &want = e.rows_;
  std::string why;
  std::uint64_t differences = 0;
  auto note = [&](const std::string& s) {
    if (++differences <= 3) why += (why.empty() ? "" : "; ") + s;
  };
  std::size_t i = 0, j = 0;
  while (i < got.size() || j < want.size()) {
    if (j == want.size() || (i < got.size() && Traits::key(got[i]) < Traits::key(want[j]))) {
      note(fmt::format("unexpected {} {}", Traits::kKey, Traits::key_name(Traits::key(got[i++]))));
    } else if (i == got.size() || Traits::key(want[j]) < Traits::key(got[i])) {
      note(fmt::format("missing {} {}", Traits::kKey, Traits::key_name(Traits::key(want[j++]))));
    } else {
      if (!Traits::same_values(got[i], want[j]))
        note(fmt::format("{} {}: {} (expected {})", Traits::kKey,
                         Traits::key_name(Traits::key(got[i])), Traits::values(got[i]),
                         Traits::values(want[j])));
      ++i;
      ++j;
    }
  }
  if (differences > 3) why += fmt::format(" (and {} more differences)", differences - 3);
  if (!why.empty())
    why = fmt::format("{} {} (expected {}): {}", got.size(), Traits::kKeys, want.size(), why);
  return why;
}

template <class Traits>
void KeyedRowsOutput<Traits>::dump(std::ostream& out) const {
  std::string text;
  for (const Row& row : rows_) {
    Traits::append_line(text, row);
    if (text.size() > (1u << 20)) {
      out << text;
      text.clear();
    }
  }
  out << text;
}

}  // namespace harness::workloads
