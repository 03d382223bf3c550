// Mars on every kernel backend present (PoCL in CI), every variant, against
// every app's reference: word count (map, sort, reduce) and the map-only apps
// (Mars' noReduce: the sorted intermediate pairs are the output).
#include <cstring>
#include <map>

#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/tests/mapreduce_inputs.h"
#include "frameworks/mapreduce/mars/mars_runtime.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

class MarsTest : public DeviceAppTest {
 protected:
  const apps::MapReduceApp& app() const { return apps::find_mapreduce_app(app_name()); }
  // One Mars runtime per job of the app.
  JobRuntimes runtimes(const mars::Options& o) {
    return [this, o](const std::string&) { return mars::make_runtime(*device_, o); };
  }
};

TEST_P(MarsTest, DefaultVariantMatchesReference) {
  mars::Options o;
  expect_reference(runtimes(o), app(), "default");
}

TEST_P(MarsTest, ByteCompareSortMatchesReference) {
  mars::Options o;
  o.hash_keys = false;
  expect_reference(runtimes(o), app(), "sort");
}

// Built-in vector loads (mars.fig8): keys copied a word at a time at emit,
// and compared a word at a time in the sort (with hashing off, every compare
// reads key bytes).
TEST_P(MarsTest, VectorLoadsMatchReference) {
  mars::Options o;
  o.vector_loads = true;
  expect_reference(runtimes(o), app(), "vector");
  o.hash_keys = false;
  expect_reference(runtimes(o), app(), "vector, byte-compare sort");
}

// mars/radix: grouping by a radix sort of 64-bit key hashes.
TEST_P(MarsTest, RadixSortMatchesReference) {
  mars::Options o;
  o.radix = true;
  expect_reference(runtimes(o), app(), "radix");
}

TEST_P(MarsTest, ChunkedTasksAndOddShapesMatchReference) {
  mars::Options o;
  o.coalesced = false;
  o.groups = 3;
  o.group_size = 32;
  expect_reference(runtimes(o), app(), "no-coalesce, 3x32");
}

// A build without OpenCL or CUDA has no kernel backend to test.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(MarsTest);
INSTANTIATE_TEST_SUITE_P(BackendsAndApps, MarsTest,
                         ::testing::Combine(::testing::ValuesIn(kernel_backends()),
                                            ::testing::ValuesIn(mapreduce_app_names())),
                         backend_app_test_name);

using MarsPhases = DeviceTest;

// With the second hash masked off, two different words share the whole sort
// key and interleave after the radix sort: the collision check must see them
// and the bitonic fallback must still group every word.
TEST_P(MarsPhases, RadixSortCollisionsFallBackToTheByteSort) {
  const auto [a, b] = fnv_colliding_words();
  ASSERT_NE(a, b);
  std::string text;
  for (int i = 0; i < 300; ++i) text += a + " " + b + " x" + std::string(i % 7, 'y') + "\n";
  const apps::MapReduceApp& app = apps::wordcount_app();
  mars::Options o;
  o.radix = true;
  o.radix_hash2_mask = 0;
  auto runtime = mars::make_runtime(*device_, o);
  runtime->prepare(app);
  mapreduce::RunResult r =
      runtime->run(app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  EXPECT_GT(r.measurement.counters.at("hash_collisions"), 0);
  apps::KeyValueList expected =
      app.reference({}, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  apps::sort_output(app, expected);
  EXPECT_EQ(apps::compare_outputs(app, expected, r.output), "");

  o.radix_hash2_mask = 0xffffffffu;  // the full 64-bit key separates them
  runtime = mars::make_runtime(*device_, o);
  runtime->prepare(app);
  r = runtime->run(app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  EXPECT_EQ(r.measurement.counters.at("hash_collisions"), 0);
  EXPECT_EQ(apps::compare_outputs(app, expected, r.output), "");
}

TEST_P(MarsPhases, ReduceAppReportsPhasesAndWork) {
  const apps::MapReduceApp& app = apps::wordcount_app();
  auto runtime = mars::make_runtime(*device_, mars::Options{});
  runtime->prepare(app);
  std::string text = "a b c a b a\n";
  mapreduce::RunResult r =
      runtime->run(app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  EXPECT_EQ(phase_names(r), (std::vector<std::string>{"preprocess", "copy_in", "map_count", "map",
                                                      "sort", "reduce", "copy_out"}));
  EXPECT_EQ(r.work.item("intermediate_pairs"), 6u);
  EXPECT_EQ(r.output.size(), 3u);
}

// Mars' noReduce: no reduce phase; the output is every intermediate pair,
// equal keys adjacent, each with its own value (here: the match offsets).
TEST_P(MarsPhases, NoReducePathOutputsTheSortedIntermediatePairs) {
  const apps::MapReduceApp& app = apps::stringmatch_app();
  mars::Options o;
  o.groups = 2;
  o.group_size = 4;  // 8 threads for 4 records: several emit into each thread's range
  auto runtime = mars::make_runtime(*device_, o);
  runtime->prepare(app);
  runtime->set_app_params({{"pattern", "aa"}});
  const std::string text = "aaaa\naaa\nbaab\nxaax\n";
  mapreduce::RunResult r =
      runtime->run(app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  EXPECT_EQ(phase_names(r), (std::vector<std::string>{"preprocess", "copy_in", "map_count", "map",
                                                      "sort", "copy_out"}));
  EXPECT_EQ(r.work.item("intermediate_pairs"), 7u);
  EXPECT_EQ(r.work.item("records"), 4u);
  std::vector<std::uint32_t> offsets;
  for (const auto& [k, v] : r.output) {
    EXPECT_EQ(k, "aa");
    std::uint32_t x = 0;
    std::memcpy(&x, v.data(), 4);
    offsets.push_back(x);
  }
  EXPECT_EQ(offsets, (std::vector<std::uint32_t>{0, 1, 2, 5, 6, 10, 15}));
  // Side data changes between runs with the parameter; pooled buffers are reused.
  runtime->set_app_params({{"pattern", "baab"}});
  r = runtime->run(app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  ASSERT_EQ(r.output.size(), 1u);
  EXPECT_EQ(r.output[0].first, "baab");
}

// Mars' noSort: map-only apps skip the sort and give the same pairs; apps
// with a reduce need it and are refused before anything runs.
TEST_P(MarsPhases, NoSortSkipsTheSortForMapOnlyAppsAndRefusesReduceApps) {
  mars::Options o;
  o.sort = false;
  for (const char* name : {"stringmatch", "matrixmult"}) {
    const apps::MapReduceApp& app = apps::find_mapreduce_app(name);
    expect_reference([&](const std::string&) { return mars::make_runtime(*device_, o); }, app,
                     "no-sort");
  }
  auto runtime = mars::make_runtime(*device_, o);
  runtime->prepare(apps::stringmatch_app());
  const std::string text = "aaaa\naaa\n";
  mapreduce::RunResult r = runtime->run(
      apps::stringmatch_app(), reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  EXPECT_EQ(phase_names(r),
            (std::vector<std::string>{"preprocess", "copy_in", "map_count", "map", "copy_out"}));
  EXPECT_THROW(mars::make_runtime(*device_, o)->prepare(apps::wordcount_app()), UsageError);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(MarsPhases);
INSTANTIATE_TEST_SUITE_P(Backends, MarsPhases, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
