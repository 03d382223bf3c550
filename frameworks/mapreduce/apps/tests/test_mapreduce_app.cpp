// The app API shared by every app: parameters, the input size limit, the
// canonical order and both comparisons.
#include <gtest/gtest.h>

#include <optional>
#include <random>

#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/tests/mapreduce_inputs.h"
#include "harness/core/errors.h"

namespace harness::apps {
namespace {

TEST(MapReduceApps, AllRegisteredWithTheirDialectFiles) {
  std::vector<std::string> names;
  for (const MapReduceApp* app : mapreduce_apps()) names.push_back(app->name());
  EXPECT_EQ(names,
            (std::vector<std::string>{"wordcount", "stringmatch", "invertedindex", "similarity",
                                      "matrixmult", "pageviewcount", "pageviewrank", "kmeans"}));
  std::vector<std::string> programs;
  for (const MapReduceApp* app : mapreduce_programs()) programs.push_back(app->name());
  EXPECT_EQ(programs, (std::vector<std::string>{"wordcount", "stringmatch", "invertedindex",
                                                "similarity", "matrixmult", "kmeans", "pvc_dedup",
                                                "pvc_count", "pvr_rank"}));
  EXPECT_EQ(&find_mapreduce_app("stringmatch"), &stringmatch_app());
  EXPECT_EQ(&find_mapreduce_app("pvc_dedup"), &pvc_dedup_job());
  EXPECT_EQ(stringmatch_app().types_file(),
            "frameworks/mapreduce/apps/stringmatch/stringmatch_types.clh");
  EXPECT_THROW(find_mapreduce_app("nope"), UsageError);
  EXPECT_EQ(wordcount_app().validation().kind, "exact");
  EXPECT_TRUE(wordcount_app().params().empty());
}

TEST(MapReduceApps, ParamFallsBackToTheDefault) {
  EXPECT_EQ(stringmatch_app().param({}, "pattern"), "glo");
  EXPECT_EQ(stringmatch_app().param({{"pattern", "x"}}, "pattern"), "x");
  EXPECT_THROW(stringmatch_app().param({}, "nope"), UsageError);
}

// Inputs of 4 GiB or more fail with the limit named, before any byte is read.
TEST(MapReduceApps, InputsOf4GiBFailWithTheLimit) {
  for (const MapReduceApp* app : mapreduce_apps()) {
    try {
      app->split_records(nullptr, std::size_t{0xffffffff});
      ADD_FAILURE() << app->name() << ": no RunError";
    } catch (const RunError& e) {
      EXPECT_NE(std::string(e.what()).find(app->name() + ": the input has 4294967295 bytes"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("smaller than 4 GiB"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(check_input_size(wordcount_app(), 0xfffffffeu));
}

// An app that says its records are plain lines splits as split_lines does
// (runtimes then find the lines themselves, on the device); string match and
// inverted index and the page view jobs say so, word count (long lines cut) and the others do not.
TEST(MapReduceApps, AppsWhoseRecordsAreLinesSplitAsSplitLines) {
  const std::string text = "a\tb\r\n\n\nlong line " + std::string(300, 'x') + "\nlast";
  const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
  std::vector<std::string> claim;
  for (const MapReduceApp* app : mapreduce_programs()) {
    if (!app->records_are_lines()) continue;
    claim.push_back(app->name());
    EXPECT_EQ(app->split_records(data, text.size()), split_lines(data, text.size())) << app->name();
  }
  EXPECT_EQ(claim, (std::vector<std::string>{"stringmatch", "invertedindex", "pvc_dedup",
                                             "pvc_count", "pvr_rank"}));
  EXPECT_EQ(split_lines(data, text.size()),
            (std::vector<std::uint32_t>{0, 5, 6, 7, 318, static_cast<std::uint32_t>(text.size())}));
}

// An app that says its records have one size (record_stride) splits into
// exactly those offsets (runtimes then write them on the device): k-means,
// on each of its shared cases; no other one-job app says so.
TEST(MapReduceApps, AppsWithRecordsOfOneSizeSplitAtTheirStride) {
  std::vector<std::string> claim;
  for (const MapReduceApp* app : mapreduce_apps()) {
    if (!app->jobs().empty()) continue;
    bool strided = false;
    for (const testing::MapReduceCase& c : testing::mapreduce_cases(app->name())) {
      const auto* data = reinterpret_cast<const std::uint8_t*>(c.text.data());
      const std::optional<MapReduceApp::RecordStride> r = app->record_stride(data, c.text.size());
      if (!r) continue;
      strided = true;
      std::vector<std::uint32_t> expected;
      for (std::uint64_t i = 0; i <= r->count; ++i)
        expected.push_back(static_cast<std::uint32_t>(r->first + i * r->stride));
      EXPECT_EQ(app->split_records(data, c.text.size()), expected) << app->name() << " " << c.name;
    }
    if (strided) claim.push_back(app->name());
  }
  EXPECT_EQ(claim, (std::vector<std::string>{"kmeans"}));
}

// Task records (MM, SS) whose codes would not fit the 32-bit offsets fail
// with the app and the limit named, before anything is allocated.
TEST(MapReduceApps, TaskRecordsBeyond32BitOffsetsFailWithTheLimit) {
  EXPECT_EQ(reserve_task_records("matrixmult", 10, 10).capacity(), 11u);
  for (const auto& [count, end] :
       {std::pair<std::uint64_t, std::uint64_t>{0xffffffffULL, 1}, {5, std::uint64_t{1} << 33}}) {
    try {
      reserve_task_records("matrixmult", count, end);
      ADD_FAILURE() << "no RunError for " << count << " tasks up to " << end;
    } catch (const RunError& e) {
      EXPECT_NE(std::string(e.what()).find("matrixmult: "), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("32-bit record offsets"), std::string::npos) << e.what();
    }
  }
}

TEST(MapReduceApps, ExactComparisonOfCanonicalListsWithRepeatedKeys) {
  const MapReduceApp& app = stringmatch_app();
  auto v = [](std::uint32_t x) { return std::string(reinterpret_cast<const char*>(&x), 4); };
  KeyValueList a = {{"k", v(3)}, {"j", v(9)}, {"k", v(1)}};
  KeyValueList b = {{"k", v(1)}, {"k", v(3)}, {"j", v(9)}};
  sort_output(app, a);
  sort_output(app, b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(compare_outputs(app, a, b), "");
  KeyValueList c = {{"j", v(9)}, {"k", v(1)}, {"k", v(4)}};
  EXPECT_NE(compare_outputs(app, a, c).find("key 'k': expected 3, got 4"), std::string::npos);
  EXPECT_NE(compare_output_sets(app, a, c).find("1 missing: (k, 3); 1 unexpected: (k, 4)"),
            std::string::npos);
}

// An app's value_rank, where it has one, orders values as its value_less
// does (the sort of every output compares ranks instead), and a sort by
// ranks gives the order value_less gives.
TEST(MapReduceApps, ValueRanksOrderValuesAsValueLessDoes) {
  std::mt19937 rng(7);
  int ranked = 0;
  for (const MapReduceApp* app : mapreduce_programs()) {
    const std::uint32_t bytes = app->value_size();
    if (bytes == 0 || !app->value_rank(std::string(bytes, '\0')).has_value()) continue;
    ++ranked;
    std::vector<std::string> values;
    for (int i = 0; i < 300; ++i) {
      std::string v(bytes, '\0');
      // Few distinct bytes, so equal and near-equal values are common.
      for (char& c : v) c = static_cast<char>(rng() % 3 == 0 ? rng() % 256 : 0);
      values.push_back(v);
    }
    for (const auto& a : values) {
      for (const auto& b : values) {
        ASSERT_EQ(app->value_less(a, b), *app->value_rank(a) < *app->value_rank(b)) << app->name();
      }
    }
    KeyValueList list;
    for (const auto& v : values) list.emplace_back(std::string(rng() % 2 ? "a" : "b"), v);
    sort_output(*app, list);
    for (std::size_t i = 1; i < list.size(); ++i) {
      const auto& [k0, v0] = list[i - 1];
      const auto& [k1, v1] = list[i];
      EXPECT_TRUE(k0 < k1 || (k0 == k1 && !app->value_less(v1, v0))) << app->name() << " at " << i;
    }
  }
  EXPECT_EQ(ranked, 3);  // string match, inverted index, similarity
}

}  // namespace
}  // namespace harness::apps
