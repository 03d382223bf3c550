// The multi-threaded CPU runtime against every app's reference, with several
// thread counts (partitions = threads), including the map-only path, and the
// apps with a fast path (word count, string match) with and without it.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <sstream>

#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/tests/mapreduce_inputs.h"
#include "frameworks/mapreduce/cpu/cpu_runtime.h"

namespace harness::testing {
namespace {

class CpuRuntimeTest : public ::testing::TestWithParam<std::tuple<std::string, unsigned, bool>> {};

TEST_P(CpuRuntimeTest, MatchesReference) {
  const auto& [name, threads, fast_path] = GetParam();
  cpu::Options o;
  o.threads = threads;
  o.fast_path = fast_path;
  expect_reference(
      [&o](const std::string& job) { return cpu::make_runtime(job, o); },
      apps::find_mapreduce_app(name),
      "cpu with " + std::to_string(threads) + " threads, fast_path " + std::to_string(fast_path));
}

INSTANTIATE_TEST_SUITE_P(
    AppsAndThreads, CpuRuntimeTest,
    ::testing::Combine(::testing::Values("wordcount", "stringmatch", "invertedindex", "similarity",
                                         "matrixmult", "pageviewcount", "pageviewrank", "kmeans"),
                       ::testing::Values(1u, 2u, 5u), ::testing::Values(true)));
// The generic path of the apps with a fast path (word count's keys are the
// only ones normalized: lower-cased).
INSTANTIATE_TEST_SUITE_P(GenericPath, CpuRuntimeTest,
                         ::testing::Combine(::testing::Values("wordcount", "stringmatch"),
                                            ::testing::Values(1u, 2u, 5u),
                                            ::testing::Values(false)));

// Map-only: no merge/reduce phase, every emitted pair is output; string
// match's fast path splits no records.
TEST(CpuRuntime, MapOnlyAppsReportMapPhasesAndEveryPair) {
  for (bool fast : {true, false}) {
    auto runtime = cpu::make_runtime("stringmatch", cpu::Options{3, fast});
    runtime->set_app_params({{"pattern", "aa"}});
    const std::string text = "aaaa\naaa\nbaab\n";
    mapreduce::RunResult r = runtime->run(
        apps::stringmatch_app(), reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    std::vector<std::string> names;
    for (const auto& p : r.measurement.phases) names.push_back(p.name);
    EXPECT_EQ(names, (std::vector<std::string>{"preprocess", "map"}));
    EXPECT_EQ(r.output.size(), 6u);
    EXPECT_EQ(r.work.item("intermediate_pairs"), 6u);
    EXPECT_EQ(r.work.item("records"), fast ? 0u : 3u);
    EXPECT_EQ(r.measurement.counters.at("fast_path"), fast ? 1.0 : 0.0);
  }
  EXPECT_EQ(cpu::make_runtime("nope", cpu::Options{}), nullptr);
}

// A web log without repeated entries (page view count's second job's input).
std::string distinct_log_lines() {
  std::istringstream log(generated("weblog", 100000, 11));
  std::set<std::string> lines;
  for (std::string line; std::getline(log, line);) lines.insert(line);
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// Co-processing runs slices of the records: two slices' outputs, merged, are
// the whole input's (fast and generic paths, a map-only app, reduces with and
// without a combiner, long keys); a slice has no preprocess phase.
TEST(CpuRuntime, RunsSlicesOfRecords) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"wordcount", generated("text-zipf", 100000, 11)},
      {"stringmatch", generated("text-zipf", 100000, 11)},
      {"pvc_dedup", generated("weblog", 100000, 11)},
      {"pvc_count", distinct_log_lines()}};
  for (const auto& [name, text] : cases) {
    const apps::MapReduceApp& app = apps::find_mapreduce_app(name);
    const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
    for (bool fast : {true, false}) {
      auto runtime = cpu::make_runtime(name, cpu::Options{2, fast});
      const apps::Params params = app.resolve_params({});
      runtime->set_app_params(params);
      const mapreduce::PreparedInput in = mapreduce::preprocess(app, params, data, text.size());
      const std::uint32_t mid = in.records() / 3;
      mapreduce::RunResult first = runtime->run_records(app, in, 0, mid);
      mapreduce::RunResult rest = runtime->run_records(app, in, mid, in.records());
      EXPECT_EQ(first.measurement.phases.front().name, "map");
      EXPECT_EQ(first.work.item("records"), mid);
      apps::KeyValueList expected = app.reference(params, data, text.size());
      apps::sort_output(app, expected);
      EXPECT_EQ(app.merge_outputs({first.output, rest.output}), expected)
          << name << ", fast path " << fast;
      EXPECT_EQ(runtime->run(app, data, text.size()).output, expected) << name;
    }
  }
}

// Word count's fast path reads the input in chunks (no records) and counts
// every word; the generic path splits lines and emits each word.
TEST(CpuRuntime, WordCountFastPathSkipsRecordsAndCountsWords) {
  const std::string text = "One two, TWO three\nthree THREE " + std::string(40, 'z') + "\n";
  for (bool fast : {true, false}) {
    auto runtime = cpu::make_runtime("wordcount", cpu::Options{2, fast});
    mapreduce::RunResult r = runtime->run(
        apps::wordcount_app(), reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    std::vector<std::string> names;
    for (const auto& p : r.measurement.phases) names.push_back(p.name);
    EXPECT_EQ(names, (std::vector<std::string>{"preprocess", "map", "merge_reduce"}));
    EXPECT_EQ(r.work.item("intermediate_pairs"), 7u) << fast;
    EXPECT_EQ(r.work.item("records"), fast ? 0u : 2u);
    EXPECT_EQ(r.measurement.counters.at("fast_path"), fast ? 1.0 : 0.0);
    EXPECT_EQ(r.measurement.counters.at("distinct_keys"), 4.0);
    ASSERT_EQ(r.output.size(), 4u);
    EXPECT_EQ(r.output[0].first, "one");
    EXPECT_EQ(r.output[1].first, "three");
    std::uint32_t threes = 0;
    std::memcpy(&threes, r.output[1].second.data(), sizeof threes);
    EXPECT_EQ(threes, 3u);
    EXPECT_EQ(r.output[3].first, std::string(40, 'z'));
  }
}

}  // namespace
}  // namespace harness::testing
