// kv-pairs: the hand-written example's answer, the CPU-MT grouping against
// the reference at several key and value sizes and thread counts, edge cases,
// malformed inputs, the answer of a run that combined values (counts and
// sums), the kv-pairs generator's layout, parameters and duplicates, the
// access share.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "datasets/kv_pairs.h"
#include "frameworks/workloads/group_by_key.h"
#include "frameworks/workloads/kv_pairs/kv_pairs_format.h"
#include "frameworks/workloads/kv_pairs/pair_sums_output.h"
#include "frameworks/workloads/tests/map_group_testing.h"
#include "harness/core/errors.h"

namespace harness::workloads {
namespace {

using namespace testing;

const std::string kApp = "kv-pairs";
const std::string kExample = "frameworks/workloads/kv_pairs/examples/small";

// The kv-pairs generator's file with these parameters.
std::string pairs(std::uint64_t size, std::uint32_t key_bytes, std::uint32_t value_bytes,
                  std::uint32_t duplicates, std::uint64_t seed = 42) {
  const auto& g = datasets::find_generator("kv-pairs");
  const auto made =
      g.with_params(datasets::dataset_params(g, {{"key_bytes", std::to_string(key_bytes)},
                                                 {"value_bytes", std::to_string(value_bytes)},
                                                 {"duplicates", std::to_string(duplicates)}}));
  std::ostringstream out;
  made->generate(size, seed, out);
  return std::move(out).str();
}

std::string word(std::uint32_t w) {
  return {static_cast<char>(w), static_cast<char>(w >> 8), static_cast<char>(w >> 16),
          static_cast<char>(w >> 24)};
}

// A header for K and V, then `records` (each K + V bytes).
std::string file(std::uint32_t key_bytes, std::uint32_t value_bytes,
                 const std::vector<std::string>& records = {}) {
  std::string out = "kv-pairs" + word(key_bytes) + word(value_bytes);
  for (const std::string& r : records) out += r;
  return out;
}

// A record of 4-byte key `k` and 8-byte value (first, 0).
std::string record(std::uint32_t k, std::uint32_t first) { return word(k) + word(first) + word(0); }

std::string run_error(const std::string& input) { return testing::run_error(kApp, input); }

// The reference's rows without their lists: what a run that combined values answers.
kv_pairs::PairSumsOutput sums_of(const TableOutput& rows) {
  TableOutput sums(2, 0, false);
  for (std::size_t r = 0; r < rows.rows(); ++r) sums.add(rows.key(r), rows.ints(r));
  return kv_pairs::PairSumsOutput(std::move(sums));
}

TEST(KvPairs, HandWrittenExampleGivesItsHandDerivedAnswer) {
  const std::string input = read_file(source_path(kExample + ".bin"));
  const std::string expected = read_file(source_path(kExample + ".expected"));
  ASSERT_EQ(input.size(), 16 + 10 * 12u);
  EXPECT_EQ(dump(*reference(kApp, input)), expected);
  expect_cpu_agrees(kApp, input);
  EXPECT_EQ(reference(kApp, input)->items(), 6u);

  const std::string path = source_path(kExample + ".bin");
  const int accepted = python_check("kv_pairs_check.py", path, expected);
  if (accepted == -1) GTEST_SKIP() << "no python3";
  EXPECT_EQ(accepted, 0);
  std::string wrong = expected;
  wrong.replace(wrong.find("5,5,7"), 5, "5,7,7");
  EXPECT_EQ(python_check("kv_pairs_check.py", path, wrong), 1);
  // A dump of counts and sums (a run that combined the values) is checked on those.
  const std::string sums =
      "00000000\t1\t0\n00000001\t1\t42\n01020304\t3\t17\n0a0b0c0d\t2\t4000000100\n"
      "a0000000\t1\t1\nffffffff\t2\t1\n";
  EXPECT_EQ(python_check("kv_pairs_check.py", path, sums), 0);
  std::string bad_sum = sums;
  bad_sum.replace(bad_sum.find("\t17\n"), 4, "\t18\n");
  EXPECT_EQ(python_check("kv_pairs_check.py", path, bad_sum), 1);
}

TEST(KvPairs, ThreadsAgreeWithTheReferenceOnGeneratedPairs) {
  for (const auto& [k, v, d] : {std::tuple{4u, 4u, 2u}, std::tuple{16u, 64u, 5u},
                                std::tuple{64u, 16u, 10u}, std::tuple{12u, 8u, 1u}}) {
    SCOPED_TRACE(::testing::Message() << "K " << k << ", V " << v << ", d " << d);
    expect_cpu_agrees(kApp, pairs(1 << 20, k, v, d));
  }
  expect_cpu_agrees(kApp, pairs(1 << 20, 16, 16, 2, 7));
}

TEST(KvPairs, EdgeCases) {
  expect_cpu_agrees(kApp, "");
  EXPECT_EQ(dump(*reference(kApp, "")), "");
  expect_cpu_agrees(kApp, file(4, 8));  // a header and no record
  EXPECT_EQ(dump(*reference(kApp, file(4, 8))), "");
  EXPECT_EQ(dump(*reference(kApp, file(4, 8, {record(0x04030201, 9)}))), "01020304\t1\t9\t9\n");
  // 7 records on 2, 3 or 16 threads: pieces of unequal lengths, empty pieces.
  std::vector<std::string> seven;
  for (std::uint32_t i = 0; i < 7; ++i) seven.push_back(record(i % 3, 100 - i));
  expect_cpu_agrees(kApp, file(4, 8, seven));
  // All keys equal: one row, its sum wrapping modulo 2^32.
  std::vector<std::string> same;
  for (std::uint32_t i = 0; i < 5000; ++i) same.push_back(record(42, 0xFFFF0000u + i));
  const std::string one_key = file(4, 8, same);
  expect_cpu_agrees(kApp, one_key);
  const auto one = reference(kApp, one_key);
  ASSERT_EQ(one->items(), 1u);
  const auto& row = dynamic_cast<const TableOutput&>(*one);
  EXPECT_EQ(row.ints(0)[0], 5000);
  std::uint32_t sum = 0;
  for (std::uint32_t i = 0; i < 5000; ++i) sum += 0xFFFF0000u + i;
  EXPECT_EQ(row.ints(0)[1], sum);
  // All keys distinct: as many rows as records.
  std::vector<std::string> distinct;
  for (std::uint32_t i = 0; i < 5000; ++i) distinct.push_back(record(i * 2654435761u, i));
  expect_cpu_agrees(kApp, file(4, 8, distinct));
  EXPECT_EQ(reference(kApp, file(4, 8, distinct))->items(), 5000u);
  // Keys that differ only in their last word (K = 64).
  std::vector<std::string> long_keys;
  for (std::uint32_t i = 0; i < 300; ++i)
    long_keys.push_back(std::string(60, 'k') + word(i % 17) + word(i));
  expect_cpu_agrees(kApp, file(64, 4, long_keys));
  EXPECT_EQ(reference(kApp, file(64, 4, long_keys))->items(), 17u);
}

TEST(KvPairs, MalformedInputsNameWhatIsWrong) {
  const std::string good = file(4, 8, {record(1, 2), record(3, 4)});
  EXPECT_EQ(run_error(good), "no error");
  EXPECT_EQ(run_error(good + "12345"),
            "kv-pairs: the input (45 bytes) is not a whole number of 12-byte records after its "
            "header: the last 5 bytes, from byte offset 40, are a cut record 2");
  EXPECT_EQ(run_error("kv-pai"),
            "kv-pairs: the input (6 bytes) is shorter than its 16-byte header");
  std::string name = good;
  name[2] = '_';
  EXPECT_EQ(run_error(name),
            "kv-pairs: the input does not start with \"kv-pairs\" (the header: \"kv-pairs\", u32 "
            "key bytes, u32 value bytes)");
  EXPECT_EQ(run_error(file(6, 8)),
            "kv-pairs: the header's key size (bytes 8-11) is 6: keys and values are multiples of "
            "4 bytes from 4 to 1024");
  EXPECT_EQ(run_error(file(4, 0)),
            "kv-pairs: the header's value size (bytes 12-15) is 0: keys and values are "
            "multiples of 4 bytes from 4 to 1024");
  EXPECT_NE(run_error(file(4, 2048)), "no error");
}

TEST(KvPairs, CountsAndSumsCompareWithTheGroupedAnswer) {
  const std::string input = pairs(256 << 10, 8, 8, 3);
  const auto expected = reference(kApp, input);
  const auto& rows = dynamic_cast<const TableOutput&>(*expected);
  kv_pairs::PairSumsOutput same = sums_of(rows);
  same.finish();
  EXPECT_EQ(same.compare_with(*expected, {}), "");
  EXPECT_EQ(same.items(), rows.rows());
  std::ostringstream text;
  same.dump(text);
  const std::string first_line = text.str().substr(0, text.str().find('\n'));
  EXPECT_EQ(std::count(first_line.begin(), first_line.end(), '\t'), 2) << "key, count, sum";
  // A count or a sum off by one, a key missing: named.
  TableOutput off(2, 0, false);
  for (std::size_t r = 0; r + 1 < rows.rows(); ++r) {
    std::int64_t columns[2] = {rows.ints(r)[0], rows.ints(r)[1]};
    if (r == 3) columns[1] += 1;
    off.add(rows.key(r), columns);
  }
  kv_pairs::PairSumsOutput wrong(std::move(off));
  wrong.finish();
  const std::string why = wrong.compare_with(*expected, {});
  EXPECT_NE(why.find("key '" + std::string(rows.key(3)) + "'"), std::string::npos) << why;
  EXPECT_NE(why.find("missing key"), std::string::npos) << why;
}

TEST(KvPairsGenerator, ExactDeterministicSizesAndItsHeader) {
  const auto& g = datasets::find_generator("kv-pairs");
  EXPECT_EQ(g.extension(), "bin");
  for (std::uint64_t size : {0ull, 15ull, 16ull, 47ull, 48ull, 1000ull, (5ull << 20) + 777}) {
    const std::string data = pairs(size, 12, 20, 2);
    EXPECT_EQ(data.size(), size < 16 ? 0 : 16 + (size - 16) / 32 * 32) << size;
    EXPECT_EQ(pairs(size, 12, 20, 2), data) << "deterministic";
    if (data.empty()) continue;
    const kv_pairs::Layout layout = kv_pairs::read_layout(bytes(data), data.size());
    EXPECT_EQ(layout.key_bytes, 12u);
    EXPECT_EQ(layout.value_bytes, 20u);
    EXPECT_EQ(data.substr(0, 8), "kv-pairs");
    if (size >= 1000) {
      EXPECT_NE(pairs(size, 12, 20, 2, 7), data) << "seeded";
    }
  }
  // The registered instance makes the defaults' data.
  std::ostringstream out;
  g.generate(1 << 16, 42, out);
  EXPECT_EQ(out.str(), pairs(1 << 16, 16, 16, 2));
  EXPECT_THROW(datasets::generator_for({"kv-pairs", 1, 1, {{"value_bytes", "30"}}}), UsageError);
}

TEST(KvPairsGenerator, KeysRepeatAboutDuplicatesTimes) {
  for (const std::uint32_t d : {1u, 2u, 5u, 10u}) {
    const std::string data = pairs(4 << 20, 8, 8, d);
    const kv_pairs::Layout layout = kv_pairs::read_layout(bytes(data), data.size());
    std::map<std::string, std::uint32_t> count;
    std::set<std::uint32_t> first_words;
    for (std::uint64_t i = 0; i < layout.records; ++i) {
      const std::uint8_t* r = layout.record(bytes(data), i);
      ++count[std::string(reinterpret_cast<const char*>(r), 8)];
      first_words.insert(kv_pairs::load_word(r));
    }
    // Candidates records / d, each drawn with probability 1 - e^-d: d / (1 - e^-d)
    // records per key present.
    const double per_key = static_cast<double>(layout.records) / static_cast<double>(count.size());
    EXPECT_NEAR(per_key, d / (1 - std::exp(-static_cast<double>(d))), 0.02 * d) << d;
    EXPECT_EQ(first_words.size(), count.size()) << "distinct keys differ in their first word";
  }
}

TEST(KvPairs, AccessShareReadsEveryRecordAndTheSizes) {
  const std::string data = pairs(1 << 20, 16, 4, 2);
  const AccessShare share = find_workload(kApp).access_share({}, bytes(data), data.size());
  EXPECT_EQ(share.records, (data.size() - 16) / 20);
  EXPECT_EQ(share.input_bytes, data.size());
  EXPECT_EQ(share.read_bytes, data.size() - 8);
  EXPECT_EQ(share.written_bytes, 0u);
  EXPECT_FALSE(find_workload(kApp).paper().read_share.has_value());
}

}  // namespace
}  // namespace harness::workloads
