#include "frameworks/workloads/netflix/netflix_format.h"

#include <fmt/format.h>

namespace harness::workloads::netflix {

void check_rating_pairs(const std::uint8_t* data, std::size_t size) {
  const std::uint64_t records = whole_records(kApp, size, kRecordBytes);
  if (records > kMaxRecords)
    throw RunError(fmt::format("{}: {} records, more than the {} whose sums fit 32 bits", kApp,
                               records, kMaxRecords));
  for (std::uint64_t i = 0; i < records; ++i) {
    const RatingPair r = load_rating_pair(data + i * kRecordBytes);
    if (r.user_a >= r.user_b)
      throw_bad_record(kApp, i, kRecordBytes,
                       fmt::format("user_a {} is not below user_b {}", r.user_a, r.user_b));
    auto check_rating = [&](char which, std::uint16_t rating) {
      if (rating < 1 || rating > 5)
        throw_bad_record(kApp, i, kRecordBytes,
                         fmt::format("rating_{} is {} (ratings are 1..5)", which, rating));
    };
    check_rating('a', r.rating_a);
    check_rating('b', r.rating_b);
  }
}

}  // namespace harness::workloads::netflix
