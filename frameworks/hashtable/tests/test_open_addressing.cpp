// hashtable/open-addressing on key-counts, on every kernel backend with a
// device (PoCL in CI): distinct, uniform and Zipf keys equal the workload's
// reference and the chained SePo table's answer; local combining and every
// tile the device has give the same answer; a GPU memory budget smaller
// than the whole table runs SePo iterations that lose and double no key
// (the output refuses a key with two rows: each key must land in one
// iteration); hand-made inputs (no keys, the keys that mark empty and
// postponed slots, one hot key, a table filled to 95%); a budget or a table
// that cannot fit is refused.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "datasets/dataset.h"
#include "frameworks/hashtable/tests/app_table_testing.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

std::string keys_input(const std::string& distribution, std::uint64_t bytes,
                       std::uint64_t seed = 42, std::uint64_t candidates = 1000) {
  const datasets::Generator& keys = datasets::find_generator("keys-u64");
  const auto g = keys.with_params(datasets::dataset_params(
      keys, {{"distribution", distribution}, {"keys", std::to_string(candidates)}}));
  std::ostringstream out;
  g->generate(bytes, seed, out);
  return std::move(out).str();
}

// key-counts' format: the header, then the keys.
std::string hand_made(const std::vector<std::uint64_t>& keys) {
  std::string s = "keys-u64";
  const std::uint64_t n = keys.size();
  s.append(reinterpret_cast<const char*>(&n), 8);
  s.append(reinterpret_cast<const char*>(keys.data()), keys.size() * 8);
  return s;
}

class OpenAddressingTest : public AppTableTest {
 protected:
  OpenAddressingTest() : AppTableTest("key-counts") {}
  PointRun run_oa(const std::string& input, std::uint64_t budget, const Params& params = {},
                  int reps = 2, std::ostream* dump = nullptr) {
    return run("open-addressing", input, budget, params, reps, dump);
  }
};

TEST_P(OpenAddressingTest, DistinctKeysAgreeWithTheReferenceAndTheChainedTable) {
  const std::string input = keys_input("distinct", 1 << 20);
  const auto records = static_cast<double>((input.size() - 16) / 8);
  std::ostringstream oa, chained;
  const PointRun r = run_oa(input, kRoomy, {}, 2, &oa);
  EXPECT_EQ(r.validation, "");
  EXPECT_EQ(counter(r, "iterations"), 1);
  EXPECT_EQ(counter(r, "in_core"), 1);
  EXPECT_EQ(counter(r, "distinct_keys"), records);
  EXPECT_GE(counter(r, "slots"), 2 * records);  // 50% load
  const PointRun c = run("combining", input, kRoomy, {}, 1, &chained);
  EXPECT_EQ(c.validation, "");
  EXPECT_EQ(oa.str(), chained.str());
}

TEST_P(OpenAddressingTest, LocalCombiningAndTilesGiveTheSameCounts) {
  for (const char* distribution : {"zipf", "uniform"}) {
    const std::string input = keys_input(distribution, 1 << 20, 7, 5000);
    std::ostringstream local, global;
    const PointRun l = run_oa(input, kRoomy, {{"local_combine", "1"}}, 2, &local);
    EXPECT_EQ(l.validation, "") << distribution;
    EXPECT_EQ(counter(l, "local_combine"), 1);
    EXPECT_LE(counter(l, "distinct_keys"), 5000);
    const PointRun g = run_oa(input, kRoomy, {{"local_combine", "0"}}, 1, &global);
    EXPECT_EQ(g.validation, "") << distribution;
    EXPECT_EQ(local.str(), global.str()) << distribution;
    for (const char* tile : {"2", "4", "8"}) {
      if (!backend::has_warp_vote(device_->info())) {
        try {
          run_oa(input, kRoomy, {{"tile", tile}}, 1);
          ADD_FAILURE() << "tile " << tile << " ran without warp vote";
        } catch (const RunError& e) {
          EXPECT_NE(std::string(e.what()).find("use --param tile=1"), std::string::npos)
              << e.what();
        }
        continue;
      }
      for (const char* combine : {"0", "1"}) {
        std::ostringstream tiled;
        const PointRun t =
            run_oa(input, kRoomy, {{"tile", tile}, {"local_combine", combine}}, 1, &tiled);
        EXPECT_EQ(t.validation, "") << distribution << " tile " << tile;
        EXPECT_EQ(tiled.str(), local.str()) << distribution << " tile " << tile;
      }
    }
  }
}

// The bytes the point needs beside a table of `slots` (open_addressing_point.cpp).
std::uint64_t beside(const std::string& input, std::uint64_t slots) {
  const std::uint64_t records = (input.size() - 16) / 8;
  return input.size() + 2 * ((records + 31) / 32 * 4) + 20 + slots / 1024 * 4 + slots * 16;
}

// A budget that holds a quarter of the whole table: regions reach the load
// factor, their new keys are postponed, and later iterations insert them.
// Zipf keys: hot keys' records race the refusals of their region.
TEST_P(OpenAddressingTest, SePoIterationsLoseAndDoubleNoKey) {
  // Zipf keys: fewer distinct keys, fewer iterations.
  for (const auto& [distribution, iterations] :
       std::vector<std::pair<const char*, double>>{{"distinct", 3}, {"uniform", 3}, {"zipf", 2}}) {
    const std::string input = keys_input(distribution, 1 << 20, 11, 200000);
    const std::uint64_t records = (input.size() - 16) / 8;
    const std::uint64_t slots = records / 2 / 1024 * 1024;
    const PointRun r = run_oa(input, beside(input, slots) + slots * 16);
    EXPECT_EQ(r.validation, "") << distribution;
    EXPECT_EQ(counter(r, "in_core"), 0) << distribution;
    EXPECT_GE(counter(r, "iterations"), iterations) << distribution;
    EXPECT_GT(counter(r, "postponed_first"), 0) << distribution;
    EXPECT_LE(counter(r, "slots"), static_cast<double>(slots)) << distribution;
    if (backend::has_warp_vote(device_->info())) {
      const PointRun t = run_oa(input, beside(input, slots) + slots * 16, {{"tile", "4"}}, 1);
      EXPECT_EQ(t.validation, "") << distribution << " tile 4";
      EXPECT_GE(counter(t, "iterations"), iterations) << distribution << " tile 4";
    }
  }
}

// The keys that mark empty and postponed slots, in a run that postpones.
TEST_P(OpenAddressingTest, SePoCountsTheMarkingKeysBesideTheTable) {
  std::vector<std::uint64_t> keys;
  for (std::uint64_t i = 0; i < 40000; ++i) {
    keys.push_back(i * 0x9E3779B97F4A7C15ull);
    if (i % 97 == 0) keys.push_back(~std::uint64_t{i % 2});
  }
  const std::string input = hand_made(keys);
  const std::uint64_t slots = 8 * 1024;
  const PointRun r = run_oa(input, beside(input, slots) + slots * 16, {}, 1);
  EXPECT_EQ(r.validation, "");
  EXPECT_EQ(counter(r, "in_core"), 0);
  EXPECT_GE(counter(r, "iterations"), 5);
}

TEST_P(OpenAddressingTest, HandMadeInputs) {
  const std::uint64_t empty = ~std::uint64_t{0};
  std::vector<std::uint64_t> hot(20000, 0x1234);
  hot.push_back(empty);
  std::vector<std::uint64_t> full;
  for (std::uint64_t i = 0; i < 9700; ++i) full.push_back(i * 0x9E3779B97F4A7C15ull);
  for (const auto& [name, keys, params] :
       std::vector<std::tuple<std::string, std::vector<std::uint64_t>, Params>>{
           {"none", {}, {}},
           {"markers", {empty, 0, empty, 1, 0, empty, empty - 1, empty - 1}, {}},
           {"one hot key", hot, {}},
           {"one hot key, global", hot, {{"local_combine", "0"}}},
           {"95% load", full, {{"load_percent", "95"}, {"local_combine", "0"}}},
       }) {
    const PointRun r = run_oa(hand_made(keys), kRoomy, params, 1);
    EXPECT_EQ(r.validation, "") << name;
  }
}

TEST_P(OpenAddressingTest, RefusesWhatCannotFit) {
  const std::string input = keys_input("distinct", 1 << 18);
  try {
    run_oa(input, input.size() + 4096, {}, 1);
    ADD_FAILURE() << "no error for a budget without room for a table";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("holds no table of 1024 slots"), std::string::npos)
        << e.what();
  }
  try {
    run_oa(input, kRoomy, {{"slots", std::to_string(std::uint64_t{kRoomy} / 8)}}, 1);
    ADD_FAILURE() << "no error for a table larger than the budget";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("does not fit"), std::string::npos) << e.what();
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OpenAddressingTest);
INSTANTIATE_TEST_SUITE_P(Backends, OpenAddressingTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
