// netflix: the hand-written example's answer, CPU-MT against the reference
// on every thread count (generated and tiny inputs, one pair, all pairs
// distinct), malformed records, the comparison, the netflix-pairs generator
// (sizes, determinism, populations, rating shares, repeated pairs) and the
// access share.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "datasets/netflix_pairs.h"
#include "frameworks/workloads/netflix/netflix_cpu.h"
#include "frameworks/workloads/netflix/netflix_format.h"
#include "frameworks/workloads/netflix/pair_scores_output.h"
#include "frameworks/workloads/tests/fixed_records_testing.h"

namespace harness::workloads {
namespace {

using namespace testing;
using netflix::PairScoresOutput;
using netflix::PairTally;

const char* const kApp = "netflix";

// One 40-byte record; the fields the kernel does not read hold junk.
std::string record(std::uint32_t user_a, std::uint32_t user_b, std::uint16_t rating_a,
                   std::uint16_t rating_b, std::uint32_t movie = 1) {
  std::string r(40, '\x5a');
  std::memcpy(r.data() + 0, &movie, 4);
  std::memcpy(r.data() + 4, &user_a, 4);
  std::memcpy(r.data() + 8, &user_b, 4);
  std::memcpy(r.data() + 12, &rating_a, 2);
  std::memcpy(r.data() + 14, &rating_b, 2);
  return r;
}

template <typename T>
T field(const std::string& file, std::size_t record, std::size_t offset) {
  T v;
  std::memcpy(&v, file.data() + record * 40 + offset, sizeof v);
  return v;
}

const std::vector<PairTally>& rows_of(const Output& out) {
  return dynamic_cast<const PairScoresOutput&>(out).rows();
}

TEST(Netflix, HandWrittenExampleGivesItsExpectedDump) {
  const std::string input = source_file("frameworks/workloads/netflix/examples/small.bin");
  const std::string expected = source_file("frameworks/workloads/netflix/examples/small.expected");
  ASSERT_EQ(input.size(), 12u * 40);
  EXPECT_EQ(dump(*reference(kApp, input)), expected);
  expect_cpu_agrees(kApp, input);
}

TEST(Netflix, CpuAgreesWithTheReferenceOnGeneratedPairs) {
  const std::string input = generate("netflix-pairs", 4 << 20);
  ASSERT_EQ(input.size(), (4u << 20) / 40 * 40);
  expect_cpu_agrees(kApp, input);
  expect_cpu_agrees(kApp, input.substr(0, 40 * 999));
}

TEST(Netflix, CpuAgreesOnTinyInputs) {
  expect_cpu_agrees(kApp, "");
  EXPECT_EQ(dump(*reference(kApp, "")), "");
  expect_cpu_agrees(kApp, record(4, 5, 1, 5));
  EXPECT_EQ(dump(*reference(kApp, record(4, 5, 1, 5))), "0000000004:0000000005\t-4\t1\n");
  const std::string some = generate("netflix-pairs", 40 * 20, 9);
  for (std::size_t n : {2u, 3u, 7u, 15u, 17u}) expect_cpu_agrees(kApp, some.substr(0, 40 * n));
}

TEST(Netflix, OnePairEverywhereSumsToOneRow) {
  std::string input;
  std::int64_t sum = 0;
  for (int i = 0; i < 5000; ++i) {
    const auto a = static_cast<std::uint16_t>(1 + i % 5), b = static_cast<std::uint16_t>(1 + i % 3);
    input += record(77, 4000000000u, a, b, static_cast<std::uint32_t>(i));
    sum += (a - 3) * (b - 3);
  }
  const auto ref = reference(kApp, input);
  EXPECT_EQ(dump(*ref), "0000000077:4000000000\t" + std::to_string(sum) + "\t5000\n");
  expect_cpu_agrees(kApp, input);
}

TEST(Netflix, AllPairsDistinctGiveOneRowPerRecord) {
  std::string input;
  for (std::uint32_t i = 0; i < 3000; ++i)
    input += record(i, i + 1 + i % 7, static_cast<std::uint16_t>(1 + i % 5), 5);
  const auto ref = reference(kApp, input);
  ASSERT_EQ(rows_of(*ref).size(), 3000u);
  for (const PairTally& row : rows_of(*ref)) EXPECT_EQ(row.movies, 1u);
  expect_cpu_agrees(kApp, input);
}

// A GPU family's partial tallies (per-chunk tables with empty slots, a pair in
// several tables) combine to the reference's rows, on any number of threads.
TEST(Netflix, PartialTablesCombineToTheReference) {
  const std::string input = generate("netflix-pairs", 40 * 20000, 5);
  const auto ref = reference(kApp, input);
  // Chunks of 3001 records, each a table of slots: a tally per record at a
  // scattered slot among twice as many, pair 0 marking the empty ones.
  std::vector<std::vector<PairTally>> tables;
  for (std::size_t first = 0; first < input.size() / 40; first += 3001) {
    const std::size_t count = std::min<std::size_t>(3001, input.size() / 40 - first);
    std::vector<PairTally> slots(2 * count, PairTally{0, 0, 0});
    for (std::size_t i = 0; i < count; ++i) {
      const netflix::RatingPair r = netflix::load_rating_pair(
          reinterpret_cast<const std::uint8_t*>(input.data()) + (first + i) * 40);
      slots[(i * 7919) % slots.size()] = {netflix::pair_key(r.user_a, r.user_b),
                                          netflix::similarity_term(r.rating_a, r.rating_b), 1};
    }
    tables.push_back(std::move(slots));
  }
  std::vector<netflix::TallySlots> views;
  for (const auto& t : tables) views.push_back({t.data(), t.size()});
  for (unsigned threads : {1u, 3u, 8u}) {
    PairScoresOutput out;
    netflix::combine_slots_parallel(views, threads, out);
    out.finish();
    EXPECT_EQ(out.compare_with(*ref, ValidationPolicy{}), "") << threads << " threads";
  }
}

// finish() orders the pieces' rows by pair over every significant bit (keys
// past 16 and 32 bits, equal low digits) and still refuses a repeated pair.
TEST(Netflix, FinishSortsRowsOfWideKeysAndRefusesRepeats) {
  std::vector<std::uint64_t> keys;
  for (std::uint64_t hi : {0ull, 1ull, 0x1234ull, 0xffffffull})
    for (std::uint64_t lo : {0ull, 7ull, 0x10000ull, 0xffffffffull}) keys.push_back(hi << 32 | lo);
  std::vector<std::uint64_t> shuffled = keys;
  std::reverse(shuffled.begin(), shuffled.end());
  std::rotate(shuffled.begin(), shuffled.begin() + 5, shuffled.end());
  PairScoresOutput out;
  PairTally* rows = out.storage(shuffled.size());
  for (std::size_t i = 0; i < shuffled.size(); ++i)
    rows[i] = PairTally{shuffled[i], static_cast<std::int32_t>(i), static_cast<std::uint32_t>(i)};
  out.add_piece(rows, 7);
  out.add_piece(rows + 7, shuffled.size() - 7);
  out.finish();
  std::vector<std::uint64_t> got;
  for (const PairTally& r : out.rows()) got.push_back(r.pair);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(got, keys);
  for (const PairTally& r : out.rows())  // each row kept its own values
    EXPECT_EQ(shuffled[static_cast<std::size_t>(r.movies)], r.pair);

  PairScoresOutput twice;
  PairTally* t = twice.storage(3);
  t[0] = PairTally{1ull << 40, 1, 1};
  t[1] = PairTally{5, 1, 1};
  t[2] = PairTally{1ull << 40, 2, 2};
  twice.add_piece(t, 3);
  EXPECT_THROW(twice.finish(), std::logic_error);
}

TEST(Netflix, MalformedRecordsNameTheRecordAndOffset) {
  const std::string good = record(1, 2, 3, 4) + record(1, 3, 5, 1);
  EXPECT_EQ(input_error(kApp, good), "");
  EXPECT_EQ(input_error(kApp, ""), "");
  EXPECT_EQ(input_error(kApp, good + std::string(39, 'x')),
            "netflix: the input (119 bytes) is not a whole number of 40-byte records: the last "
            "39 bytes, from byte offset 80, are a cut record 2");
  EXPECT_EQ(input_error(kApp, good + record(5, 5, 3, 3)),
            "netflix: record 2 (byte offset 80): user_a 5 is not below user_b 5");
  EXPECT_EQ(input_error(kApp, good + good + record(9, 2, 3, 3)),
            "netflix: record 4 (byte offset 160): user_a 9 is not below user_b 2");
  EXPECT_EQ(input_error(kApp, good + record(1, 2, 0, 3)),
            "netflix: record 2 (byte offset 80): rating_a is 0 (ratings are 1..5)");
  EXPECT_EQ(input_error(kApp, record(1, 2, 5, 6) + good),
            "netflix: record 0 (byte offset 0): rating_b is 6 (ratings are 1..5)");
}

TEST(Netflix, MalformedExampleFailsWithItsDocumentedError) {
  EXPECT_EQ(
      input_error(kApp, source_file("frameworks/workloads/netflix/examples/malformed.bin")) + "\n",
      source_file("frameworks/workloads/netflix/examples/malformed.error"));
}

// A finished output of `rows`, handed over in two pieces.
std::unique_ptr<PairScoresOutput> scores(const std::vector<PairTally>& rows) {
  auto out = std::make_unique<PairScoresOutput>();
  PairTally* storage = out->storage(rows.size());
  std::copy(rows.begin(), rows.end(), storage);
  out->add_piece(storage, rows.size() / 2);
  out->add_piece(storage + rows.size() / 2, rows.size() - rows.size() / 2);
  out->finish();
  return out;
}

TEST(Netflix, ComparisonNamesTheDifferingPairs) {
  using netflix::pair_key;
  const auto expected = scores({{pair_key(1, 2), 3, 2}, {pair_key(2, 9), -1, 1}});
  EXPECT_EQ(dump(*expected), "0000000001:0000000002\t3\t2\n0000000002:0000000009\t-1\t1\n");
  EXPECT_EQ(scores({{pair_key(2, 9), -1, 1}, {pair_key(1, 2), 3, 2}})->compare_with(*expected, {}),
            "");
  EXPECT_EQ(scores({{pair_key(1, 2), 3, 3}, {pair_key(2, 9), -1, 1}})->compare_with(*expected, {}),
            "2 pairs (expected 2): pair 0000000001:0000000002: 3 3 (expected 3 2)");
  EXPECT_EQ(scores({{pair_key(1, 2), 3, 2}, {pair_key(3, 9), -1, 1}})->compare_with(*expected, {}),
            "2 pairs (expected 2): missing pair 0000000002:0000000009; unexpected pair "
            "0000000003:0000000009");
  EXPECT_THROW(scores({{pair_key(1, 2), 3, 2}, {pair_key(1, 2), 1, 1}}), std::logic_error);
}

TEST(NetflixPairsGenerator, WholeRecordsDeterministicAndSeeded) {
  const auto& g = datasets::find_generator("netflix-pairs");
  EXPECT_EQ(g.output_bytes(40 * 1000 + 39), 40u * 1000);
  EXPECT_EQ(generate("netflix-pairs", 39), "");
  const std::string a = generate("netflix-pairs", 40 * 110000 + 1);  // two chunks
  EXPECT_EQ(a.size(), 40u * 110000);
  EXPECT_EQ(generate("netflix-pairs", 40 * 110000), a);
  EXPECT_NE(generate("netflix-pairs", 40 * 110000, 7), a);
  EXPECT_EQ(input_error(kApp, a), "");
  for (std::size_t i : {0u, 1u, 104857u, 109999u})
    EXPECT_EQ(field<std::uint64_t>(a, i, 32), i) << "serial";
}

TEST(NetflixPairsGenerator, PopulationsScaleUpToTheNetflixPrize) {
  EXPECT_EQ(datasets::netflix_population(40'000'000).users, 480189u);
  EXPECT_EQ(datasets::netflix_population(160'000'000).movies, 17770u);
  EXPECT_EQ(datasets::netflix_population(20'000'000).users, 240094u);
  EXPECT_EQ(datasets::netflix_population(100).users, 16u);
}

TEST(NetflixPairsGenerator, RatingsUsersAndRepeatedPairsAsDocumented) {
  const std::string file = generate("netflix-pairs", 4 << 20);
  const std::size_t records = file.size() / 40;
  const auto population = datasets::netflix_population(records);
  EXPECT_EQ(population.users, 1258u);
  std::map<std::uint32_t, std::size_t> user_records;
  std::map<std::uint64_t, std::size_t> pair_records;
  std::size_t ratings[6] = {}, probe = 0;
  std::set<std::uint32_t> movies;
  for (std::size_t i = 0; i < records; ++i) {
    const auto a = field<std::uint32_t>(file, i, 4), b = field<std::uint32_t>(file, i, 8);
    ASSERT_TRUE(a >= 1 && a < b && b <= population.users) << a << " " << b;
    ++user_records[a];
    ++user_records[b];
    ++pair_records[netflix::pair_key(a, b)];
    ++ratings[field<std::uint16_t>(file, i, 12)];
    ++ratings[field<std::uint16_t>(file, i, 14)];
    const auto movie = field<std::uint32_t>(file, i, 0);
    ASSERT_TRUE(movie >= 1 && movie <= population.movies);
    movies.insert(movie);
    ASSERT_LT(field<std::uint32_t>(file, i, 16), 2922u);
    const auto year = field<std::uint32_t>(file, i, 24);
    ASSERT_TRUE(year >= 1900 && year <= 2005);
    probe += __builtin_popcount(field<std::uint32_t>(file, i, 28));
  }
  // The Netflix prize's rating shares (4.6, 10.1, 28.7, 33.6, 23.0 %).
  const double n = 2.0 * static_cast<double>(records);
  auto share = [&](std::size_t count) { return static_cast<double>(count) / n; };
  EXPECT_NEAR(share(ratings[1]), 0.046, 0.01);
  EXPECT_NEAR(share(ratings[3]), 0.287, 0.015);
  EXPECT_NEAR(share(ratings[4]), 0.336, 0.015);
  EXPECT_NEAR(share(ratings[5]), 0.230, 0.015);
  EXPECT_NEAR(share(probe), 0.01, 0.002);
  // Zipf activity (offset 10): the most active user holds 1.9% of the
  // ratings (1 / (11 * H), H = the sum of 1 / (r + 11) over 1258 users).
  std::size_t top = 0;
  for (const auto& [user, count] : user_records) top = std::max(top, count);
  EXPECT_NEAR(share(top), 0.0193, 0.003);
  // Pairs repeat: about 62% of the records' pairs are distinct, the hottest
  // appears dozens of times.
  std::size_t hottest = 0;
  for (const auto& [pair, count] : pair_records) hottest = std::max(hottest, count);
  EXPECT_NEAR(static_cast<double>(pair_records.size()) / static_cast<double>(records), 0.62, 0.05);
  EXPECT_GT(hottest, 30u);
  EXPECT_GT(movies.size(), population.movies / 2);
}

TEST(Netflix, AccessShareMatchesTable41) {
  const std::string input = generate("netflix-pairs", 1 << 20);
  const auto& w = find_workload(kApp);
  const AccessShare s = w.access_share({}, bytes(input), input.size());
  EXPECT_EQ(s.records, input.size() / 40);
  EXPECT_EQ(s.read_bytes, input.size() / 40 * 12);
  EXPECT_EQ(s.written_bytes, 0u);
  EXPECT_NEAR(s.read_share(), *w.paper().read_share, 0.01);
  EXPECT_FALSE(w.modifies_input());
  EXPECT_EQ(w.paper().table6_1_bytes[3], 6.4e9);
}

}  // namespace
}  // namespace harness::workloads
