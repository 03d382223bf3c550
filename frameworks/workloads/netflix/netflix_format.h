// netflix's input and its definition (thesis chapters 4 and 6): 40-byte
// records of two users' ratings of one movie (datasets/netflix_pairs.h has
// the layout). For every user pair (a, b), a < b, the answer is the sum over
// the pair's records (their common movies) of (rating_a - 3) * (rating_b - 3),
// and the number of those records.
#pragma once

#include <cstddef>
#include <cstdint>

#include "datasets/netflix_pairs.h"
#include "frameworks/workloads/fixed_length_records.h"

namespace harness::workloads::netflix {

inline constexpr const char* kApp = "netflix";
inline constexpr std::size_t kRecordBytes = datasets::kNetflixRecordBytes;
// Every pair's sum (|term| <= 4) and count fit 32 bits up to this many
// records (21.4 GB, beyond the paper's 6.6 GB); larger inputs are refused.
inline constexpr std::uint64_t kMaxRecords = std::uint64_t{1} << 29;

// The four fields the similarity kernel reads (bytes 4-15 of a record).
struct RatingPair {
  std::uint32_t user_a, user_b;
  std::uint16_t rating_a, rating_b;
};

inline RatingPair load_rating_pair(const std::uint8_t* record) {
  return {load_field<std::uint32_t>(record, datasets::kNetflixUserAOffset),
          load_field<std::uint32_t>(record, datasets::kNetflixUserBOffset),
          load_field<std::uint16_t>(record, datasets::kNetflixRatingAOffset),
          load_field<std::uint16_t>(record, datasets::kNetflixRatingBOffset)};
}

// A pair's 64-bit key: user_a in the high half, so keys order as (a, b) do.
inline std::uint64_t pair_key(std::uint32_t user_a, std::uint32_t user_b) {
  return std::uint64_t{user_a} << 32 | user_b;
}
inline std::uint32_t user_a_of(std::uint64_t key) { return static_cast<std::uint32_t>(key >> 32); }
inline std::uint32_t user_b_of(std::uint64_t key) { return static_cast<std::uint32_t>(key); }

// One common movie's share of a pair's similarity: the product of the two
// ratings' deviations from the middle rating 3 (from -4 to 4).
inline std::int32_t similarity_term(std::uint16_t rating_a, std::uint16_t rating_b) {
  return (std::int32_t{rating_a} - 3) * (std::int32_t{rating_b} - 3);
}

// RunError for a cut record, user_a >= user_b or a rating outside 1..5
// (naming the record and its byte offset), or more than kMaxRecords records.
void check_rating_pairs(const std::uint8_t* data, std::size_t size);

}  // namespace harness::workloads::netflix
