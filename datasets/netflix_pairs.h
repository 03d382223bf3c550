// "netflix-pairs": the Netflix app's input (thesis chapters 4 and 6), records
// of two users' ratings of one movie, each 40 bytes, little-endian:
//   bytes  0-3   u32 movie
//   bytes  4-7   u32 user_a      user_a < user_b
//   bytes  8-11  u32 user_b
//   bytes 12-13  u16 rating_a    1..5
//   bytes 14-15  u16 rating_b    1..5
//   bytes 16-19  u32 date_a      days since 1998-01-01
//   bytes 20-23  u32 date_b
//   bytes 24-27  u32 movie_year
//   bytes 28-31  u32 flags       bit 0: rating a is in the probe set, bit 1: rating b
//   bytes 32-39  u64 serial      the record's index in the file
// The similarity kernel reads user_a, user_b, rating_a and rating_b (bytes
// 4-15: 12 of 40, table 4.1's 30%).
//
// Populations: the Netflix prize's 480189 users and 17770 movies from
// kNetflixFullPopulationRecords records (1.6 GB, table 6.1's dataset #1) on,
// both scaled down in proportion below it (at least 16 each), so a small file
// repeats user pairs about as often as the paper's sizes do. Ids are a
// seeded shuffle of 1..users (1..movies), so popularity does not follow the
// id. A record draws a movie by Zipf popularity (exponent 1, offset 10),
// then two distinct raters by Zipf activity (exponent 1, offset 10: at 1.6 GB
// about 70% of the records' pairs are distinct, and the hottest pair appears
// thousands of times), stored with the smaller id as user_a. The first rater's
// rating is drawn from the Netflix prize's rating shares (1: 4.6%, 2: 10.1%,
// 3: 28.7%, 4: 33.6%, 5: 23%); the second rater agrees with it with
// probability 1/3, else draws independently, so both keep those shares and
// raters correlate (a pair's expected similarity term is positive).
// Dates are uniform over 1998-2005, years over 1900-2005, 1% of ratings are in
// the probe set.
//
// output_bytes(size) is `size` rounded down to whole records (nothing is
// padded). Independent chunks of 104857 records (chunk i seeded from (seed,
// i)), generated in parallel and written in order: the bytes never depend on
// the thread count.
#pragma once

#include <cstddef>
#include <cstdint>

#include "datasets/dataset.h"

namespace harness::datasets {

inline constexpr std::size_t kNetflixRecordBytes = 40;
inline constexpr std::size_t kNetflixMovieOffset = 0;     // u32
inline constexpr std::size_t kNetflixUserAOffset = 4;     // u32
inline constexpr std::size_t kNetflixUserBOffset = 8;     // u32
inline constexpr std::size_t kNetflixRatingAOffset = 12;  // u16
inline constexpr std::size_t kNetflixRatingBOffset = 14;  // u16
inline constexpr std::size_t kNetflixDateAOffset = 16;    // u32
inline constexpr std::size_t kNetflixDateBOffset = 20;    // u32
inline constexpr std::size_t kNetflixYearOffset = 24;     // u32
inline constexpr std::size_t kNetflixFlagsOffset = 28;    // u32
inline constexpr std::size_t kNetflixSerialOffset = 32;   // u64

inline constexpr std::uint32_t kNetflixUsers = 480189;
inline constexpr std::uint32_t kNetflixMovies = 17770;
inline constexpr std::uint64_t kNetflixFullPopulationRecords = 40'000'000;

struct NetflixPopulation {
  std::uint32_t users, movies;
};
// The users and movies a file of `records` records draws from.
NetflixPopulation netflix_population(std::uint64_t records);

const Generator& netflix_pairs_generator();

}  // namespace harness::datasets
