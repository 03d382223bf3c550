#include "frameworks/workloads/netflix/pair_scores_output.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <ostream>
#include <stdexcept>
#include <string>

#include "frameworks/workloads/netflix/netflix_format.h"
#include "frameworks/workloads/outputs.h"
#include "harness/core/parallel_sort.h"

namespace harness::workloads::netflix {
namespace {

// A closure, not a function pointer, so that the sort inlines it.
constexpr auto by_pair = [](const PairTally& x, const PairTally& y) { return x.pair < y.pair; };

std::string pair_name(std::uint64_t pair) {
  return fmt::format("{:010}:{:010}", user_a_of(pair), user_b_of(pair));
}

}  // namespace

PairTally* PairScoresOutput::storage(std::size_t capacity) {
  storage_ = HugePageArray<PairTally>(capacity);
  pieces_.clear();
  finished_ = false;
  return storage_.data();
}

void PairScoresOutput::add_piece(const PairTally* first, std::size_t count) {
  if (count > 0) pieces_.emplace_back(first, count);
  finished_ = false;
}

void PairScoresOutput::finish() {
  if (finished_) return;
  std::size_t total = rows_.size();
  for (const auto& piece : pieces_) total += piece.size();
  rows_.reserve(total);
  for (const auto& piece : pieces_) rows_.insert(rows_.end(), piece.begin(), piece.end());
  pieces_.clear();
  storage_ = {};
  // Millions of rows at 1 GiB, after every run: sorted on all cores.
  if (!std::is_sorted(rows_.begin(), rows_.end(), by_pair)) parallel_sort(rows_, by_pair);
  const auto repeat =
      std::adjacent_find(rows_.begin(), rows_.end(),
                         [](const PairTally& x, const PairTally& y) { return x.pair == y.pair; });
  if (repeat != rows_.end())
    throw std::logic_error("netflix output holds the pair " + pair_name(repeat->pair) + " twice");
  finished_ = true;
}

std::uint64_t PairScoresOutput::items() const {
  std::uint64_t n = rows_.size();
  for (const auto& piece : pieces_) n += piece.size();
  return n;
}

std::string PairScoresOutput::compare_with(const Output& expected, const ValidationPolicy&) const {
  const auto& e = expect_same_type<PairScoresOutput>(expected, "pair scores");
  if (!finished_ || !e.finished_) throw std::logic_error("pair scores compared before finish()");
  const std::vector<PairTally>&got = rows_, &want = e.rows_;
  std::string why;
  std::uint64_t differences = 0;
  auto note = [&](const std::string& s) {
    if (++differences <= 3) why += (why.empty() ? "" : "; ") + s;
  };
  std::size_t i = 0, j = 0;
  while (i < got.size() || j < want.size()) {
    if (j == want.size() || (i < got.size() && got[i].pair < want[j].pair)) {
      note("unexpected pair " + pair_name(got[i++].pair));
    } else if (i == got.size() || want[j].pair < got[i].pair) {
      note("missing pair " + pair_name(want[j++].pair));
    } else {
      if (got[i].similarity != want[j].similarity || got[i].movies != want[j].movies)
        note(fmt::format("pair {}: {} {} (expected {} {})", pair_name(got[i].pair),
                         got[i].similarity, got[i].movies, want[j].similarity, want[j].movies));
      ++i;
      ++j;
    }
  }
  if (differences > 3) why += fmt::format(" (and {} more differences)", differences - 3);
  if (!why.empty()) why = fmt::format("{} pairs (expected {}): {}", got.size(), want.size(), why);
  return why;
}

void PairScoresOutput::dump(std::ostream& out) const {
  std::string text;
  for (const PairTally& row : rows_) {
    fmt::format_to(std::back_inserter(text), "{:010}:{:010}\t{}\t{}\n", user_a_of(row.pair),
                   user_b_of(row.pair), row.similarity, row.movies);
    if (text.size() > (1u << 20)) {
      out << text;
      text.clear();
    }
  }
  out << text;
}

}  // namespace harness::workloads::netflix
