// key-counts: the hand-written example's answer and its Python check, the
// CPU-MT counting against the reference on every distribution and thread
// count (a partition whose table grows included), edge cases, every malformed
// input's message, the output's sort, refusal of repeats and comparison, the
// access share; the keys-u64 generator's layout, parameters, determinism
// across thread counts, distinct keys, Zipf skew and uniform draws.
#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "datasets/keys_u64.h"
#include "frameworks/workloads/key_counts/key_counts_cpu.h"
#include "frameworks/workloads/key_counts/key_counts_format.h"
#include "frameworks/workloads/key_counts/key_counts_output.h"
#include "frameworks/workloads/radix_aggregate.h"
#include "frameworks/workloads/tests/map_group_testing.h"
#include "harness/core/errors.h"

namespace harness::workloads {
namespace {

using namespace testing;
using key_counts::KeyCount;
using key_counts::KeyCountsOutput;

const std::string kApp = "key-counts";
const std::string kExample = "frameworks/workloads/key_counts/examples/";

std::string u64(std::uint64_t w) {
  std::string s(8, '\0');
  for (int b = 0; b < 8; ++b) s[b] = static_cast<char>(w >> (8 * b));
  return s;
}

// A header for `n` keys, then `keys` (n is keys.size() unless given).
std::string file(const std::vector<std::uint64_t>& keys, std::optional<std::uint64_t> n = {}) {
  std::string out = "keys-u64" + u64(n.value_or(keys.size()));
  for (std::uint64_t k : keys) out += u64(k);
  return out;
}

// The keys-u64 generator's file with these parameters.
std::string keys_file(std::uint64_t size, const std::string& distribution,
                      std::uint64_t keys = 100000, std::uint64_t seed = 42,
                      const std::string& zipf_q = "0") {
  const auto& g = datasets::find_generator("keys-u64");
  const auto made = g.with_params(datasets::dataset_params(
      g, {{"distribution", distribution}, {"keys", std::to_string(keys)}, {"zipf_q", zipf_q}}));
  std::ostringstream out;
  made->generate(size, seed, out);
  return std::move(out).str();
}

std::vector<std::uint64_t> keys_of(const std::string& data) {
  const key_counts::KeyArray a = key_counts::read_keys(bytes(data), data.size());
  return {a.keys, a.keys + a.count};
}

const std::vector<KeyCount>& rows_of(const Output& out) {
  return dynamic_cast<const KeyCountsOutput&>(out).rows();
}

// A finished output of `rows`, handed over in two pieces.
std::unique_ptr<KeyCountsOutput> counts(const std::vector<KeyCount>& rows) {
  auto out = std::make_unique<KeyCountsOutput>();
  KeyCount* storage = out->storage(rows.size());
  std::copy(rows.begin(), rows.end(), storage);
  out->add_piece(storage, rows.size() / 2);
  out->add_piece(storage + rows.size() / 2, rows.size() - rows.size() / 2);
  out->finish();
  return out;
}

// The inverse of radix::mix64 (MurmurHash3's finalizer): x ^= x >> 33 undoes
// itself, an odd multiplier is undone by its inverse modulo 2^64.
std::uint64_t unmix64(std::uint64_t h) {
  auto inverse = [](std::uint64_t c) {
    std::uint64_t x = c;  // Newton: each step doubles the correct low bits
    for (int i = 0; i < 6; ++i) x *= 2 - c * x;
    return x;
  };
  h ^= h >> 33;
  h *= inverse(0xc4ceb9fe1a85ec53ULL);
  h ^= h >> 33;
  h *= inverse(0xff51afd7ed558ccdULL);
  h ^= h >> 33;
  return h;
}

// ---------------------------------------------------------------- workload
TEST(KeyCounts, HandWrittenExampleGivesItsHandDerivedAnswer) {
  const std::string input = read_file(source_path(kExample + "small.bin"));
  const std::string expected = read_file(source_path(kExample + "small.expected"));
  ASSERT_EQ(input.size(), 16 + 10 * 8u);
  EXPECT_EQ(dump(*reference(kApp, input)), expected);
  EXPECT_EQ(expected,
            "0000000000000000\t2\n00000000ffffffff\t1\n0123456789abcdef\t2\n"
            "8000000000000000\t1\nffffffff00000000\t1\nffffffffffffffff\t3\n");
  expect_cpu_agrees(kApp, input);
  EXPECT_EQ(reference(kApp, input)->items(), 6u);

  const std::string path = source_path(kExample + "small.bin");
  const int accepted = python_check("key_counts_check.py", path, expected);
  if (accepted == -1) GTEST_SKIP() << "no python3";
  EXPECT_EQ(accepted, 0);
  std::string wrong = expected;
  wrong.replace(wrong.find("ffffffffffffffff\t3"), 18, "ffffffffffffffff\t4");
  EXPECT_EQ(python_check("key_counts_check.py", path, wrong), 1);
  EXPECT_EQ(python_check("key_counts_check.py", path, expected.substr(0, expected.size() - 19)), 1)
      << "a missing key";
}

TEST(KeyCounts, MalformedExampleFailsWithItsDocumentedError) {
  EXPECT_EQ(run_error(kApp, read_file(source_path(kExample + "malformed.bin"))) + "\n",
            read_file(source_path(kExample + "malformed.error")));
}

TEST(KeyCounts, MalformedInputsNameWhatIsWrong) {
  const std::string good = file({1, 2, 3});
  EXPECT_EQ(run_error(kApp, good), "no error");
  EXPECT_EQ(run_error(kApp, ""), "no error");  // no keys
  EXPECT_EQ(run_error(kApp, file({})), "no error");
  EXPECT_EQ(run_error(kApp, "keys-u6"),
            "key-counts: the input (7 bytes) is shorter than its 16-byte header");
  EXPECT_EQ(run_error(kApp, good.substr(0, 15)),
            "key-counts: the input (15 bytes) is shorter than its 16-byte header");
  std::string magic = good;
  magic[5] = 'U';
  EXPECT_EQ(run_error(kApp, magic),
            "key-counts: the input does not start with \"keys-u64\" (the header: \"keys-u64\", "
            "then u64 N, the number of keys)");
  EXPECT_EQ(run_error(kApp, file({1, 2, 3}, 4)),
            "key-counts: the header's N (bytes 8-15) is 4 keys, 48 bytes with the header, but the "
            "input has 40 bytes (3 keys after the header)");
  EXPECT_EQ(run_error(kApp, file({1, 2, 3}, 2)),
            "key-counts: the header's N (bytes 8-15) is 2 keys, 32 bytes with the header, but the "
            "input has 40 bytes (3 keys after the header)");
  EXPECT_EQ(run_error(kApp, good + "abc"),
            "key-counts: the header's N (bytes 8-15) is 3 keys, 40 bytes with the header, but the "
            "input has 43 bytes (3 keys and 3 bytes after the header)");
  EXPECT_EQ(run_error(kApp, file({1, 2, 3}, std::uint64_t{1} << 32)),
            "key-counts: the header's N (bytes 8-15) is 4294967296 keys, more than 2^32 - 1");
  EXPECT_EQ(run_error(kApp, file({}, ~std::uint64_t{0} - 1)),  // 2^64 - 2: no overflow in the size
            "key-counts: the header's N (bytes 8-15) is 18446744073709551614 keys, more than "
            "2^32 - 1");
  EXPECT_THROW(find_workload(kApp).run_cpu({}, bytes(good), good.size() - 1, 2), RunError);
}

TEST(KeyCounts, ReadsTheKeysInPlace) {
  const std::string data = file({7, ~std::uint64_t{0}, 0});
  const key_counts::KeyArray a = key_counts::read_keys(bytes(data), data.size());
  EXPECT_EQ(a.count, 3u);
  EXPECT_EQ(reinterpret_cast<const std::uint8_t*>(a.keys), bytes(data) + 16);
  EXPECT_EQ(a.keys[1], ~std::uint64_t{0});
  EXPECT_EQ(key_counts::read_keys(nullptr, 0).count, 0u);
  EXPECT_EQ(key_counts::read_keys(bytes(file({})), 16).count, 0u);
}

TEST(KeyCounts, CpuAgreesWithTheReferenceOnEveryDistribution) {
  for (const char* d : {"distinct", "uniform", "zipf"}) {
    SCOPED_TRACE(d);
    const std::string data = keys_file(4 << 20, d);
    expect_cpu_agrees(kApp, data);
    const auto ref = reference(kApp, data);
    std::uint64_t total = 0;
    for (const KeyCount& r : rows_of(*ref)) total += r.count;
    EXPECT_EQ(total, (data.size() - 16) / 8) << "every key counted once";
  }
  // Few candidates (every partition but a few empty), a zipf with an offset,
  // another seed, a size that is not whole chunks.
  expect_cpu_agrees(kApp, keys_file(1 << 20, "uniform", 3));
  expect_cpu_agrees(kApp, keys_file(1 << 20, "zipf", 1000, 42, "2.5"));
  expect_cpu_agrees(kApp, keys_file((1 << 20) + 808, "distinct", 1, 7));
}

TEST(KeyCounts, EdgeCases) {
  expect_cpu_agrees(kApp, "");
  EXPECT_EQ(dump(*reference(kApp, "")), "");
  expect_cpu_agrees(kApp, file({}));
  EXPECT_EQ(dump(*reference(kApp, file({}))), "");
  EXPECT_EQ(dump(*reference(kApp, file({~std::uint64_t{0}}))), "ffffffffffffffff\t1\n");
  // One key everywhere: one row.
  const std::string one_key = file(std::vector<std::uint64_t>(5000, 0x8000000000000000ull));
  expect_cpu_agrees(kApp, one_key);
  EXPECT_EQ(dump(*reference(kApp, one_key)), "8000000000000000\t5000\n");
  // 7 keys on up to 16 threads: pieces of unequal lengths, empty pieces.
  expect_cpu_agrees(kApp, file({5, 0, ~std::uint64_t{0}, 5, 0, 0, 1ull << 63}));
  EXPECT_EQ(dump(*reference(kApp, file({5, 0, ~std::uint64_t{0}, 5, 0, 0, 1ull << 63}))),
            "0000000000000000\t3\n0000000000000005\t2\n8000000000000000\t1\n"
            "ffffffffffffffff\t1\n");
}

// 200,000 distinct keys that all hash to the first partition (their hashes'
// top bits are 0): its table starts at a partition's size and has to grow.
TEST(KeyCounts, APartitionOfManyDistinctKeysGrowsItsTable) {
  std::vector<std::uint64_t> keys;
  for (std::uint64_t i = 0; i < 200000; ++i) keys.push_back(unmix64(i * 3 + 1));
  for (std::uint64_t i = 0; i < 1000; ++i) keys.push_back(keys[i * 7]);  // and repeats
  EXPECT_EQ(radix::mix64(keys[12345]), 12345 * 3 + 1u);
  const std::string data = file(keys);
  expect_cpu_agrees(kApp, data);
  const auto ref = reference(kApp, data);
  EXPECT_EQ(ref->items(), 200000u);
  KeyCountsOutput out;
  key_counts::count_keys_parallel(keys.data(), keys.size(), 4, out);
  out.finish();
  EXPECT_EQ(out.compare_with(*ref, {}), "");
}

TEST(KeyCounts, FinishSortsUnsignedAndRefusesRepeats) {
  std::vector<std::uint64_t> keys;
  for (std::uint64_t hi : {0ull, 1ull, 0x7fffffffull, 0x80000000ull, 0xffffffffull})
    for (std::uint64_t lo : {0ull, 7ull, 0x80000000ull, 0xffffffffull})
      keys.push_back(hi << 32 | lo);
  std::vector<std::uint64_t> shuffled = keys;
  std::reverse(shuffled.begin(), shuffled.end());
  std::rotate(shuffled.begin(), shuffled.begin() + 5, shuffled.end());
  KeyCountsOutput out;
  KeyCount* rows = out.storage(shuffled.size());
  for (std::size_t i = 0; i < shuffled.size(); ++i) rows[i] = KeyCount{shuffled[i], i + 1};
  out.add_piece(rows, 7);
  out.add_piece(rows + 7, 0);
  out.add_piece(rows + 7, shuffled.size() - 7);
  EXPECT_EQ(out.items(), shuffled.size());
  out.finish();
  std::vector<std::uint64_t> got;
  for (const KeyCount& r : out.rows()) got.push_back(r.key);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(got, keys);
  for (const KeyCount& r : out.rows())  // each row kept its own count
    EXPECT_EQ(shuffled[r.count - 1], r.key);

  KeyCountsOutput twice;
  KeyCount* t = twice.storage(3);
  t[0] = KeyCount{~std::uint64_t{0}, 1};
  t[1] = KeyCount{5, 1};
  t[2] = KeyCount{~std::uint64_t{0}, 2};
  twice.add_piece(t, 3);
  try {
    twice.finish();
    ADD_FAILURE() << "a repeated key was accepted";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "key-counts output holds the key ffffffffffffffff twice");
  }
}

TEST(KeyCounts, ComparisonNamesTheDifferingKeys) {
  const auto expected = counts({{1, 3}, {0xabc, 1}, {~std::uint64_t{0}, 2}});
  EXPECT_EQ(dump(*expected), "0000000000000001\t3\n0000000000000abc\t1\nffffffffffffffff\t2\n");
  EXPECT_EQ(counts({{~std::uint64_t{0}, 2}, {0xabc, 1}, {1, 3}})->compare_with(*expected, {}), "");
  EXPECT_EQ(counts({{1, 3}, {0xabc, 2}, {~std::uint64_t{0}, 2}})->compare_with(*expected, {}),
            "3 keys (expected 3): key 0000000000000abc: 2 (expected 1)");
  EXPECT_EQ(counts({{1, 3}, {0xabd, 1}})->compare_with(*expected, {}),
            "2 keys (expected 3): missing key 0000000000000abc; unexpected key 0000000000000abd; "
            "missing key ffffffffffffffff");
  EXPECT_EQ(counts({{0, 1}, {1, 4}, {2, 1}, {0xabc, 1}, {~std::uint64_t{0}, 1}})
                ->compare_with(*expected, {}),
            "5 keys (expected 3): unexpected key 0000000000000000; key 0000000000000001: 4 "
            "(expected 3); unexpected key 0000000000000002 (and 1 more differences)");
  KeyCountsOutput unfinished;
  EXPECT_THROW((void)unfinished.compare_with(*expected, {}), std::logic_error);
  EXPECT_THROW((void)expected->compare_with(CountsOutput(), {}), std::logic_error);
}

TEST(KeyCounts, AccessShareReadsEveryKeyAndN) {
  const std::string data = keys_file(1 << 20, "uniform");
  const AccessShare share = find_workload(kApp).access_share({}, bytes(data), data.size());
  EXPECT_EQ(share.records, (data.size() - 16) / 8);
  EXPECT_EQ(share.input_bytes, data.size());
  EXPECT_EQ(share.read_bytes, data.size() - 8);  // all but the magic
  EXPECT_EQ(share.written_bytes, 0u);
  EXPECT_EQ(find_workload(kApp).default_dataset(), "keys-u64");
  EXPECT_EQ(find_workload(kApp).record_type(), "fixed");
}

// ---------------------------------------------------------------- generator
TEST(KeysU64Generator, ExactSizesHeaderAndParameters) {
  const auto& g = datasets::find_generator("keys-u64");
  EXPECT_EQ(g.extension(), "bin");
  for (std::uint64_t size : {0ull, 15ull, 16ull, 23ull, 24ull, 1000ull, (5ull << 20) + 777}) {
    for (const char* d : {"distinct", "uniform", "zipf"}) {
      const std::string data = keys_file(size, d);
      const std::uint64_t bytes_expected = size < 16 ? 0 : 16 + (size - 16) / 8 * 8;
      EXPECT_EQ(data.size(), bytes_expected) << size << " " << d;
      EXPECT_EQ(g.output_bytes(size), bytes_expected);
      EXPECT_EQ(keys_file(size, d), data) << "deterministic";
      if (data.empty()) continue;
      EXPECT_EQ(data.substr(0, 8), "keys-u64");
      EXPECT_EQ(run_error(kApp, data), "no error");
      EXPECT_EQ(keys_of(data).size(), (size - 16) / 8);
      if (size >= 1000) {
        EXPECT_NE(keys_file(size, d, 100000, 7), data) << "seeded";
      }
    }
  }
  // The registered instance makes the defaults' data: distinct keys.
  std::ostringstream out;
  g.generate(1 << 16, 42, out);
  EXPECT_EQ(out.str(), keys_file(1 << 16, "distinct"));
  EXPECT_EQ(keys_file(1 << 16, "distinct", 5), out.str()) << "distinct ignores `keys`";
  EXPECT_EQ(datasets::dataset_file_name({"keys-u64", 64 << 20, 42, {{"distribution", "zipf"}}}),
            "keys-u64-v1-distribution=zipf-keys=100000-zipf_q=0-seed42-64MiB.bin");
  EXPECT_THROW(datasets::generator_for({"keys-u64", 1, 1, {{"distribution", "normal"}}}),
               UsageError);
  EXPECT_THROW(datasets::generator_for({"keys-u64", 1, 1, {{"keys", "0"}}}), UsageError);
  EXPECT_THROW(datasets::generator_for({"keys-u64", 1, 1, {{"zipf_q", "-1"}}}), UsageError);
  EXPECT_THROW(datasets::generator_for(
                   {"keys-u64", 1, 1, {{"distribution", "zipf"}, {"keys", "200000000"}}}),
               UsageError);
  EXPECT_NO_THROW(datasets::generator_for(
      {"keys-u64", 1, 1, {{"distribution", "uniform"}, {"keys", "4294967295"}}}));
  // More than 2^32 - 1 keys, refused before a byte is written.
  std::ostringstream big;
  EXPECT_THROW(datasets::generate_keys_u64({}, 16 + 8 * (std::uint64_t{1} << 32), 1, big, 1),
               UsageError);
  EXPECT_EQ(big.str(), "");
}

TEST(KeysU64Generator, IsIndependentOfTheThreadCount) {
  for (const auto distribution :
       {datasets::KeyDistribution::distinct, datasets::KeyDistribution::uniform,
        datasets::KeyDistribution::zipf}) {
    datasets::KeysU64Shape shape;
    shape.distribution = distribution;
    auto make = [&](std::uint64_t size, unsigned threads, std::uint64_t chunk_keys) {
      std::ostringstream out;
      datasets::generate_keys_u64(shape, size, 9, out, threads, chunk_keys);
      return std::move(out).str();
    };
    // Several chunks of the real size; many small chunks, more than the window.
    const std::string one = make((5 << 20) + 16, 1, datasets::kKeysU64ChunkKeys);
    ASSERT_EQ(one.size(), (5u << 20) + 16);
    for (unsigned threads : {2u, 3u, 8u, 0u})
      EXPECT_EQ(make((5 << 20) + 16, threads, datasets::kKeysU64ChunkKeys), one) << threads;
    const std::string small = make(800016, 1, 1000);
    for (unsigned threads : {2u, 3u, 8u, 16u})
      EXPECT_EQ(make(800016, threads, 1000), small) << threads << " threads, small chunks";
    // Distinct keys do not depend on the chunks at all.
    if (distribution == datasets::KeyDistribution::distinct) {
      EXPECT_EQ(small, make(800016, 2, 77));
    }
  }
}

TEST(KeysU64Generator, DistinctKeysAreDistinctAndLookRandom) {
  const std::string data = keys_file(16 + 8 * 400000, "distinct");
  const std::vector<std::uint64_t> keys = keys_of(data);
  ASSERT_EQ(keys.size(), 400000u);
  std::vector<std::uint64_t> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "a repeated key";
  EXPECT_FALSE(std::is_sorted(keys.begin(), keys.end()));
  for (std::size_t i : {0u, 1u, 524u, 399999u}) EXPECT_EQ(keys[i], datasets::keys_u64_key(42, i));
  EXPECT_NE(datasets::keys_u64_key(42, 0), datasets::keys_u64_key(43, 0));
  // Every bit set about half the time.
  for (int bit : {0, 1, 31, 32, 62, 63}) {
    std::size_t ones = 0;
    for (std::uint64_t k : keys) ones += (k >> bit) & 1;
    EXPECT_NEAR(static_cast<double>(ones) / static_cast<double>(keys.size()), 0.5, 0.005)
        << "bit " << bit;
  }
  EXPECT_EQ(reference(kApp, data)->items(), 400000u);
}

// Exponent 1 over 100,000 candidates: rank r drawn with probability
// 1 / ((r + 1 + q) * sum), the top key (candidate 0) 1 / H(100000) = 8.27%.
TEST(KeysU64Generator, ZipfTopKeysHaveTheirExponentOneShares) {
  for (const double q : {0.0, 10.0}) {
    SCOPED_TRACE(q);
    const std::string data = keys_file(4 << 20, "zipf", 100000, 42, q == 0 ? "0" : "10");
    const std::vector<std::uint64_t> keys = keys_of(data);
    std::unordered_map<std::uint64_t, std::uint64_t> count;
    for (std::uint64_t k : keys) ++count[k];
    double sum = 0;
    for (int r = 0; r < 100000; ++r) sum += 1.0 / (r + 1 + q);
    const double n = static_cast<double>(keys.size());
    for (int r : {0, 1, 9}) {
      const double want = 1.0 / ((r + 1 + q) * sum);
      const double sigma = std::sqrt(want * (1 - want) / n);
      EXPECT_NEAR(static_cast<double>(count[datasets::keys_u64_key(42, r)]) / n, want, 5 * sigma)
          << "rank " << r;
    }
    if (q == 0) {
      EXPECT_NEAR(static_cast<double>(count[datasets::keys_u64_key(42, 0)]) / n, 0.0827, 0.002);
    }
    // The most frequent key is candidate 0's.
    const auto top = std::max_element(count.begin(), count.end(), [](const auto& a, const auto& b) {
      return a.second < b.second;
    });
    EXPECT_EQ(top->first, datasets::keys_u64_key(42, 0));
    std::uint64_t in_candidates = 0;
    for (std::uint64_t r = 0; r < 100000; ++r)
      in_candidates += count.count(datasets::keys_u64_key(42, r));
    EXPECT_EQ(in_candidates, count.size()) << "every key is a candidate's";
  }
}

// n draws from K candidates: K (1 - (1 - 1/K)^n) distinct keys expected.
TEST(KeysU64Generator, UniformDrawsFromItsCandidates) {
  for (const std::uint64_t candidates : {100000ull, 1000ull, 10000000ull}) {
    SCOPED_TRACE(candidates);
    const std::string data = keys_file(4 << 20, "uniform", candidates);
    const std::vector<std::uint64_t> keys = keys_of(data);
    std::unordered_map<std::uint64_t, std::uint64_t> count;
    for (std::uint64_t k : keys) ++count[k];
    const double n = static_cast<double>(keys.size()), k = static_cast<double>(candidates);
    const double want = k * (1 - std::pow(1 - 1 / k, n));
    EXPECT_NEAR(static_cast<double>(count.size()), want, 0.003 * want + 10);
    if (candidates <= 100000) {
      std::uint64_t in_candidates = 0;
      for (std::uint64_t j = 0; j < candidates; ++j)
        in_candidates += count.count(datasets::keys_u64_key(42, j));
      EXPECT_EQ(in_candidates, count.size()) << "every key is a candidate's";
    }
    // No candidate is favoured: the most frequent within 6 sigma of the mean.
    std::uint64_t most = 0;
    for (const auto& [key, c] : count) most = std::max(most, c);
    EXPECT_LT(static_cast<double>(most), n / k + 6 * std::sqrt(n / k) + 3);
  }
}

}  // namespace
}  // namespace harness::workloads
