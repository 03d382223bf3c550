#include "frameworks/workloads/netflix/pair_scores_output.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <iterator>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>

#include "frameworks/workloads/netflix/netflix_format.h"
#include "frameworks/workloads/outputs.h"

namespace harness::workloads::netflix {
namespace {

bool by_pair(const PairTally& x, const PairTally& y) { return x.pair < y.pair; }

// Rows in ascending pair order: an LSD radix sort on the pair key's
// significant bits, 16 at a time (a 40-bit key: 3 passes over the rows), a
// stable counting pass each. At 1 GiB of input the check sorts millions of
// rows after every run; std::sort with the comparator took most of it.
void sort_by_pair(std::vector<PairTally>& rows) {
  if (rows.size() < 2 || std::is_sorted(rows.begin(), rows.end(), by_pair)) return;
  std::uint64_t largest = 0;
  for (const PairTally& r : rows) largest = std::max(largest, r.pair);
  const int bits = static_cast<int>(std::bit_width(largest));
  constexpr int kDigit = 16;
  std::vector<PairTally> other(rows.size());
  std::vector<std::size_t> start(std::size_t{1} << kDigit);
  for (int shift = 0; shift < bits; shift += kDigit) {
    std::fill(start.begin(), start.end(), 0);
    for (const PairTally& r : rows) ++start[(r.pair >> shift) & 0xffff];
    std::size_t sum = 0;
    for (std::size_t& c : start) sum += std::exchange(c, sum);
    for (const PairTally& r : rows) other[start[(r.pair >> shift) & 0xffff]++] = r;
    rows.swap(other);
  }
}

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
  sort_by_pair(rows_);
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
