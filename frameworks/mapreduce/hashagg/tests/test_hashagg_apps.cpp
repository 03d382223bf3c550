// hashagg's records path on every kernel backend present (PoCL in CI): every
// app but word count (test_hashagg.cpp) in both variants against the
// reference on the shared edge cases (empty, one record, nothing to emit, a
// giant key and line, all keys equal, all keys distinct, generated data),
// with small chunks over two lanes and tiny work-groups, without the
// work-group combine table, and with 4 hash bits (long probe runs in the
// global table); which design and whether streamed, per app; a full stage;
// tables and pair buffers that grow once and are then reused.
#include <string>

#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/hashagg/hashagg_records.h"
#include "frameworks/mapreduce/hashagg/hashagg_runtime.h"
#include "frameworks/mapreduce/hashagg/tests/hashagg_fixture.h"

namespace harness::testing {
namespace {

class HashAggAppsTest : public HashAggFixture {};

TEST_P(HashAggAppsTest, MatchesReference) {
  if (app_name() == "wordcount") GTEST_SKIP() << "the byte path: test_hashagg.cpp";
  expect_reference(runtimes(hashagg::Options{}), app(), "hashagg/pipelined");
  expect_reference(runtimes(resident()), app(), "hashagg/resident");
  expect_reference(runtimes(small_pieces()), app(), "pipelined, 4 KiB chunks, 2 lanes, 3x32");
  hashagg::Options no_local = resident();
  no_local.local = false;
  no_local.group_size = 64;
  expect_reference(runtimes(no_local), app(), "resident, no combine table, 64 per group");
  hashagg::Options colliding = small_pieces();
  colliding.hash_mask = 0xf;  // 16 hash values: long probe runs in the global table
  expect_reference(runtimes(colliding), app(), "pipelined, 4 hash bits");
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HashAggAppsTest);
INSTANTIATE_TEST_SUITE_P(BackendsAndApps, HashAggAppsTest,
                         ::testing::Combine(::testing::ValuesIn(kernel_backends()),
                                            ::testing::ValuesIn(mapreduce_app_names())),
                         backend_app_test_name);

TEST(HashAggDesigns, EachAppOnItsDesign) {
  using hashagg::Design;
  const std::pair<const char*, Design> expected[] = {
      {"wordcount", Design::bytes},       {"pvc_count", Design::add},
      {"pvc_dedup", Design::grouped},     {"kmeans", Design::grouped},
      {"invertedindex", Design::grouped}, {"pvr_rank", Design::pairs},
      {"stringmatch", Design::pairs},     {"similarity", Design::pairs},
      {"matrixmult", Design::pairs},
  };
  for (const auto& [name, design] : expected) {
    EXPECT_EQ(hashagg::design_name(hashagg::design_of(apps::find_mapreduce_app(name))),
              std::string(hashagg::design_name(design)))
        << name;
  }
}

using HashAggRecords = DeviceTest;

mapreduce::RunResult run_job(mapreduce::Runtime& runtime, const apps::MapReduceApp& app,
                             const std::string& text, const apps::Params& params = {}) {
  runtime.set_app_params(app.resolve_params(params));
  runtime.prepare(app);
  mapreduce::RunResult r =
      runtime.run(app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  EXPECT_EQ(
      apps::compare_by_policy(app, reference_output(app, text, params), r.output, app.validation()),
      "")
      << app.name();
  return r;
}

// Page view count's jobs stream (lines, no side data, no positions in the
// output); apps with side data run resident in both variants.
TEST_P(HashAggRecords, StreamedWhereTheAppAllows) {
  const std::string log = generated("weblog", 200000, 7);
  const apps::MapReduceApp& pvc = apps::pageviewcount_app();
  mapreduce::JobChain chain(
      pvc, [this](const std::string&) { return hashagg::make_runtime(*device_, small_pieces()); });
  chain.set_app_params(pvc.resolve_params({}));
  chain.prepare();
  const mapreduce::RunResult r =
      chain.run(reinterpret_cast<const std::uint8_t*>(log.data()), log.size());
  EXPECT_EQ(apps::compare_outputs(pvc, reference_output(pvc, log), r.output), "");
  EXPECT_EQ(r.measurement.counters.at("streamed"), 2.0);  // both jobs
  EXPECT_GT(r.measurement.counters.at("chunks"), 20.0);
  EXPECT_GT(r.measurement.counters.at("map_busy_ms"), 0.0);
  const std::string html = generated("html-zipf", 100000, 7);
  auto runtime = hashagg::make_runtime(*device_, small_pieces());
  const mapreduce::RunResult ii = run_job(*runtime, apps::invertedindex_app(), html);
  EXPECT_EQ(ii.measurement.counters.at("streamed"), 0.0);
  // Not streamed (its page starts are side data), so resident: its lines
  // are found on the device (phase `split`).
  EXPECT_EQ(phase_names(ii), (std::vector<std::string>{"preprocess", "copy_in", "split", "map",
                                                       "group", "copy_out"}));
  EXPECT_EQ(ii.measurement.counters.at("device_lines"), 1.0);
  EXPECT_GT(ii.measurement.counters.at("sort_bits"), 0.0);
}

// Apps whose records are plain lines and that run resident (string match,
// whose pattern is side data; page view jobs in hashagg/resident) take no
// host split: their lines are found on the device (phase `split`). Streamed
// jobs cut their chunks at the host's record offsets.
TEST_P(HashAggRecords, ResidentLinesAreFoundOnTheDevice) {
  const std::string text = generated("text-zipf", 300000, 3) + "\n\nglo\nglob";
  auto sm = hashagg::make_runtime(*device_, small_pieces());
  const mapreduce::RunResult r = run_job(*sm, apps::stringmatch_app(), text);
  EXPECT_EQ(r.measurement.counters.at("device_lines"), 1.0);
  EXPECT_EQ(phase_names(r),
            (std::vector<std::string>{"preprocess", "copy_in", "split", "map", "copy_out"}));
  const std::string log = generated("weblog", 100000, 5);
  auto resident_runtime = hashagg::make_runtime(*device_, resident());
  EXPECT_EQ(run_job(*resident_runtime, apps::pvc_dedup_job(), log)
                .measurement.counters.at("device_lines"),
            1.0);
  auto streamed = hashagg::make_runtime(*device_, small_pieces());
  EXPECT_EQ(run_job(*streamed, apps::pvc_dedup_job(), log).measurement.counters.at("device_lines"),
            0.0);
  for (const std::string& edge : {std::string(), std::string("\n"), std::string("glo")}) {
    auto runtime = hashagg::make_runtime(*device_, resident());
    run_job(*runtime, apps::stringmatch_app(), edge);
  }
}

// Records longer than long_record bytes are mapped in a second pass (resident
// runs): html with lines of several kilobytes among short ones, and page view
// logs (their jobs combine and group), give the reference's output with the
// second pass, without it, and with every record long (more than the list
// holds: the rest are mapped at once).
TEST_P(HashAggRecords, LongRecordsAreMappedInASecondPass) {
  std::string html = generated("html-zipf", 120000, 9);
  const std::string anchor = "<a href=\"long.html\">x</a> ";
  std::string long_line;
  while (long_line.size() < 3000) long_line += anchor;
  html = html.substr(0, 20000) + long_line + "\n" + html.substr(20000) + long_line;
  const std::string log = generated("weblog", 60000, 4);
  for (const std::uint32_t threshold : {256u, 0u, 1u}) {
    SCOPED_TRACE("long_record=" + std::to_string(threshold));
    hashagg::Options o = resident();
    o.long_record = threshold;
    auto runtime = hashagg::make_runtime(*device_, o);
    const mapreduce::RunResult ii = run_job(*runtime, apps::invertedindex_app(), html);
    const double long_records = ii.measurement.counters.at("long_records");
    if (threshold == 0) {
      EXPECT_EQ(long_records, 0.0);
    } else if (threshold == 256) {
      EXPECT_GE(long_records, 2.0);  // the two long lines, and any long line of the page
      EXPECT_LT(long_records, 100.0);
    } else {
      EXPECT_GT(long_records, 1024.0);  // every record: more than the list's 1024
    }
    run_job(*runtime, apps::pvc_dedup_job(), log);
    run_job(*runtime, apps::kmeans_app(), npy({3000, 2}, std::vector<float>(6000, 1.5f)),
            {{"k", "4"}});
  }
}

// Records of one size (k-means' points, MapReduceApp::record_stride) take no
// host split either: their offsets are written on the device (phase `split`,
// counter `device_strided`), in both variants, for points of 1, 3 and 8
// dimensions and for no points at all.
TEST_P(HashAggRecords, FixedSizeRecordsGetTheirOffsetsOnTheDevice) {
  for (const std::uint64_t dims : {1u, 3u, 8u}) {
    std::vector<float> values;
    for (std::uint64_t i = 0; i < 3001 * dims; ++i) values.push_back(static_cast<float>(i % 97));
    const std::string points = npy({3001, dims}, values);
    for (const bool pipelined : {false, true}) {
      auto runtime = hashagg::make_runtime(*device_, pipelined ? small_pieces() : resident());
      const mapreduce::RunResult r = run_job(*runtime, apps::kmeans_app(), points, {{"k", "5"}});
      EXPECT_EQ(r.measurement.counters.at("device_strided"), 1.0) << dims;
      EXPECT_EQ(phase_names(r), (std::vector<std::string>{"preprocess", "copy_in", "split", "map",
                                                          "group", "reduce", "copy_out"}))
          << dims;
    }
  }
  auto runtime = hashagg::make_runtime(*device_, resident());
  const mapreduce::RunResult none = run_job(*runtime, apps::kmeans_app(), npy({0, 2}, {}));
  EXPECT_TRUE(none.output.empty());
}

// Every byte matches a one-byte pattern: a line's emits overflow the stage,
// and the rest reserve their own room.
TEST_P(HashAggRecords, FullStageWritesDirectly) {
  const std::string text = std::string(30000, 'a') + "\n" + std::string(100, 'a');
  auto runtime = hashagg::make_runtime(*device_, resident());
  const mapreduce::RunResult r =
      run_job(*runtime, apps::stringmatch_app(), text, {{"pattern", "a"}});
  EXPECT_EQ(r.output.size(), 30100u);
  EXPECT_GT(r.measurement.counters.at("direct_pairs"), 0.0);
}

// More distinct links than the first table has entries (1024) and more pairs
// than records: the first run grows and maps again, the next reuses the sizes.
TEST_P(HashAggRecords, TablesGrowOnceAndAreReused) {
  std::string html;
  for (int i = 0; i < 3000; ++i) {
    html += "<a href=\"u" + std::to_string(i) + "\">x</a> <a href=\"v" + std::to_string(i % 7) +
            "\">y</a> <a href=\"w\">z</a>\n";
  }
  for (const bool pipelined : {false, true}) {
    hashagg::Options o = pipelined ? small_pieces() : resident();
    auto runtime = hashagg::make_runtime(*device_, o);
    const mapreduce::RunResult first = run_job(*runtime, apps::invertedindex_app(), html);
    EXPECT_GE(first.measurement.counters.at("retries"), 1.0);
    EXPECT_EQ(first.measurement.counters.at("intermediate_pairs"), 9000.0);
    const mapreduce::RunResult second = run_job(*runtime, apps::invertedindex_app(), html);
    EXPECT_EQ(second.measurement.counters.at("retries"), 0.0);
  }
}

// k-means with every point in one cluster and 64 clusters: the combine
// table folds a round's pairs of a key, flushes when half full, and
// pairs that find no slot go out uncombined.
TEST_P(HashAggRecords, KMeansCombineTable) {
  std::vector<float> spread;
  for (int i = 0; i < 4000 * 2; ++i) spread.push_back(static_cast<float>((i * 7919) % 1000));
  const std::string points = npy({4000, 2}, spread);
  // k = 1 and 8: a few used slots, each folded by 16 work-items; k = 64: every
  // slot used, 4 work-items a slot (256-work-item groups). Every cluster
  // gets points (the spread covers the square).
  for (const char* k : {"1", "8", "64"}) {
    for (const bool local : {true, false}) {
      hashagg::Options o = resident();
      o.local = local;
      auto runtime = hashagg::make_runtime(*device_, o);
      const mapreduce::RunResult r = run_job(*runtime, apps::kmeans_app(), points, {{"k", k}});
      const double pairs = r.measurement.counters.at("intermediate_pairs");
      if (local) {
        EXPECT_LT(pairs, 4000.0) << k;
      } else {
        EXPECT_EQ(pairs, 4000.0) << k;
      }
      // Entries with 64 pairs or more each (without the combine table: k = 1
      // and 8) are folded by a work-group each before reduce; the output is
      // checked against the reference either way (run_job).
      const double clusters = std::stod(k);
      EXPECT_EQ(r.measurement.counters.at("entries_folded"),
                pairs >= 64.0 * clusters ? clusters : 0.0)
          << k << (local ? ", local" : "");
    }
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HashAggRecords);
INSTANTIATE_TEST_SUITE_P(Backends, HashAggRecords, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
