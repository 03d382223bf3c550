// The multi-threaded CPU runtime against every app's reference, with several
// thread counts (partitions = threads), including the map-only path.
#include <gtest/gtest.h>

#include "frameworks/apps/registry.h"
#include "frameworks/common/tests/mapreduce_inputs.h"
#include "frameworks/cpu/cpu_runtime.h"

namespace harness::testing {
namespace {

class CpuRuntimeTest : public ::testing::TestWithParam<std::tuple<std::string, unsigned>> {};

TEST_P(CpuRuntimeTest, MatchesReference) {
  const auto& [name, threads] = GetParam();
  cpu::Options o;
  o.threads = threads;
  expect_reference([&o](const std::string& job) { return cpu::make_runtime(job, o); },
                   apps::find_mapreduce_app(name),
                   "cpu with " + std::to_string(threads) + " threads");
}

INSTANTIATE_TEST_SUITE_P(
    AppsAndThreads, CpuRuntimeTest,
    ::testing::Combine(::testing::Values("wordcount", "stringmatch", "invertedindex", "similarity",
                                         "matrixmult", "pageviewcount", "pageviewrank", "kmeans"),
                       ::testing::Values(1u, 2u, 5u)));

// Map-only: no merge/reduce phase, every emitted pair is output.
TEST(CpuRuntime, MapOnlyAppsReportMapPhasesAndEveryPair) {
  auto runtime = cpu::make_runtime("stringmatch", cpu::Options{3});
  runtime->set_app_params({{"pattern", "aa"}});
  const std::string text = "aaaa\naaa\nbaab\n";
  mapreduce::RunResult r = runtime->run(
      apps::stringmatch_app(), reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  std::vector<std::string> names;
  for (const auto& p : r.measurement.phases) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"preprocess", "map"}));
  EXPECT_EQ(r.output.size(), 6u);
  EXPECT_EQ(r.work.item("intermediate_pairs"), 6u);
  EXPECT_EQ(r.work.item("records"), 3u);
  EXPECT_EQ(cpu::make_runtime("nope", cpu::Options{}), nullptr);
}

}  // namespace
}  // namespace harness::testing
