#include "datasets/netflix_pairs.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "datasets/chunked.h"
#include "datasets/random.h"
#include "datasets/zipf_table.h"

namespace harness::datasets {
namespace {

constexpr std::uint64_t kChunkRecords = 104857;  // about 4 MiB
constexpr double kZipfOffset = 10.0;             // users' activity and movies' popularity
constexpr std::uint32_t kDays = 2922;            // 1998-01-01 .. 2005-12-31

// The Netflix prize's rating shares, cumulative, in thousandths.
constexpr std::uint32_t kRatingCumulative[5] = {46, 147, 434, 770, 1000};

std::uint16_t draw_rating(Rng& rng) {
  const std::uint32_t u = rng.below(1000);
  std::uint16_t r = 1;
  while (u >= kRatingCumulative[r - 1]) ++r;
  return r;
}

// Ids 1..n in a seeded order (Fisher-Yates).
std::vector<std::uint32_t> shuffled_ids(std::uint32_t n, Rng& rng) {
  std::vector<std::uint32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 1u);
  for (std::uint32_t i = n - 1; i > 0; --i) std::swap(ids[i], ids[rng.below(i + 1)]);
  return ids;
}

struct Movie {
  std::uint32_t id, year;
};

struct Population {
  std::vector<std::uint32_t> user_ids;  // by activity rank
  std::vector<Movie> movies;            // by popularity rank
  ZipfTable user_zipf, movie_zipf;
};

Population build_population(std::uint64_t records, std::uint64_t seed) {
  const NetflixPopulation size = netflix_population(records);
  Population p;
  Rng rng(mix_seed(seed, 0x4e7f11c5));
  p.user_ids = shuffled_ids(size.users, rng);
  for (std::uint32_t id : shuffled_ids(size.movies, rng))
    p.movies.push_back({id, 1900 + rng.below(106)});
  p.user_zipf = ZipfTable(size.users, kZipfOffset);
  p.movie_zipf = ZipfTable(size.movies, kZipfOffset);
  return p;
}

template <typename T>
void put(std::uint8_t* record, std::size_t offset, T value) {
  std::memcpy(record + offset, &value, sizeof value);
}

void make_chunk(const Population& p, std::uint64_t seed, std::uint64_t index, std::size_t size,
                std::string& out) {
  Rng rng(mix_seed(seed, index));
  out.resize(size);
  auto* record = reinterpret_cast<std::uint8_t*>(out.data());
  const std::uint64_t first = index * kChunkRecords;
  for (std::uint64_t r = 0; r < size / kNetflixRecordBytes; ++r, record += kNetflixRecordBytes) {
    const Movie& movie = p.movies[p.movie_zipf.sample(rng)];
    const std::uint32_t rank_a = p.user_zipf.sample(rng);
    std::uint32_t rank_b = p.user_zipf.sample(rng);
    while (rank_b == rank_a) rank_b = p.user_zipf.sample(rng);
    const std::uint16_t rating_a = draw_rating(rng);
    const std::uint16_t rating_b = rng.below(3) == 0 ? rating_a : draw_rating(rng);
    std::pair<std::uint32_t, std::uint16_t> a{p.user_ids[rank_a], rating_a};
    std::pair<std::uint32_t, std::uint16_t> b{p.user_ids[rank_b], rating_b};
    if (a.first > b.first) std::swap(a, b);
    put(record, kNetflixMovieOffset, movie.id);
    put(record, kNetflixUserAOffset, a.first);
    put(record, kNetflixUserBOffset, b.first);
    put(record, kNetflixRatingAOffset, a.second);
    put(record, kNetflixRatingBOffset, b.second);
    put(record, kNetflixDateAOffset, rng.below(kDays));
    put(record, kNetflixDateBOffset, rng.below(kDays));
    put(record, kNetflixYearOffset, movie.year);
    const std::uint32_t flags = (rng.below(100) == 0 ? 1u : 0u) | (rng.below(100) == 0 ? 2u : 0u);
    put(record, kNetflixFlagsOffset, flags);
    put(record, kNetflixSerialOffset, first + r);
  }
}

class NetflixPairs final : public Generator {
 public:
  std::string name() const override { return "netflix-pairs"; }
  std::string description() const override {
    return "Netflix rating pairs: 40-byte records (movie, two users, their ratings, dates, other "
           "values), Zipf movie popularity and user activity";
  }
  int version() const override { return 1; }
  std::uint64_t output_bytes(std::uint64_t size) const override {
    return size / kNetflixRecordBytes * kNetflixRecordBytes;
  }
  void generate(std::uint64_t size, std::uint64_t seed, std::ostream& out) const override {
    const std::uint64_t bytes = output_bytes(size);
    const Population p = build_population(bytes / kNetflixRecordBytes, seed);
    write_chunks("netflix-pairs", bytes, kChunkRecords * kNetflixRecordBytes, 0, out,
                 [&](std::uint64_t index, std::size_t chunk, std::string& buffer) {
                   make_chunk(p, seed, index, chunk, buffer);
                 });
  }
};

}  // namespace

NetflixPopulation netflix_population(std::uint64_t records) {
  const std::uint64_t scaled = std::min(records, kNetflixFullPopulationRecords);
  auto scale = [&](std::uint32_t full) {
    return static_cast<std::uint32_t>(
        std::max<std::uint64_t>(16, full * scaled / kNetflixFullPopulationRecords));
  };
  return {scale(kNetflixUsers), scale(kNetflixMovies)};
}

const Generator& netflix_pairs_generator() {
  static const NetflixPairs g;
  return g;
}

}  // namespace harness::datasets
