#include "frameworks/workloads/netflix/pair_scores_output.h"

#include <fmt/format.h>

#include <iterator>
#include <string>

#include "frameworks/workloads/netflix/netflix_format.h"

namespace harness::workloads {

template class KeyedRowsOutput<netflix::PairScoresRows>;

namespace netflix {

std::string PairScoresRows::key_name(std::uint64_t pair) {
  return fmt::format("{:010}:{:010}", user_a_of(pair), user_b_of(pair));
}

std::string PairScoresRows::values(const PairTally& row) {
  return fmt::format("{} {}", row.similarity, row.movies);
}

void PairScoresRows::append_line(std::string& text, const PairTally& row) {
  fmt::format_to(std::back_inserter(text), "{:010}:{:010}\t{}\t{}\n", user_a_of(row.pair),
                 user_b_of(row.pair), row.similarity, row.movies);
}

}  // namespace netflix
}  // namespace harness::workloads
