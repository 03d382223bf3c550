// StreamMR on every kernel backend present (PoCL in CI): every variant x every
// app against the reference on the shared edge cases, and the paths the edge
// cases may not reach: hash collisions, one hot bucket, global overflow (the
// second pass) and local overflow (the combiner's halved elections).
#include <cstring>

#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/tests/mapreduce_inputs.h"
#include "frameworks/mapreduce/streammr/streammr_runtime.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

class StreamMRTest : public DeviceAppTest {
 protected:
  const apps::MapReduceApp& app() const { return apps::find_mapreduce_app(app_name()); }
  JobRuntimes runtimes(const streammr::Options& o) {
    return [this, o](const std::string&) { return streammr::make_runtime(*device_, o); };
  }
};

TEST_P(StreamMRTest, DefaultVariantMatchesReference) {
  expect_reference(runtimes(streammr::Options{}), app(), "default");
}

TEST_P(StreamMRTest, NoCombineMatchesReference) {
  streammr::Options o;
  o.combine = false;
  expect_reference(runtimes(o), app(), "no-combine");
}

TEST_P(StreamMRTest, TreeReduceMatchesReference) {
  streammr::Options o;
  o.tree = true;
  expect_reference(runtimes(o), app(), "tree");
  o.combine = false;
  expect_reference(runtimes(o), app(), "tree, no-combine");
}

// Keys crowded into 8 buckets (hash bits masked off): equality is by key
// bytes. (All in one bucket makes each insert walk every key: minutes for
// word count's distinct-keys input on a GPU's single thread.)
TEST_P(StreamMRTest, CollidingHashesMatchReference) {
  streammr::Options o;
  o.hash_mask = 7;
  o.groups = 5;
  expect_reference(runtimes(o), app(), "hash_mask=7");
}

// Tiny preallocated buffers: most pairs go through the second pass; a
// combiner buffer of 1 value: 32 election steps per wavefront of entries.
TEST_P(StreamMRTest, GlobalAndLocalOverflowMatchReference) {
  streammr::Options o;
  o.size_hint = 2;
  o.key_hint = 3;
  o.local_values = 1;
  o.groups = 3;
  expect_reference(runtimes(o), app(), "size_hint=2, key_hint=3, local_values=1");
}

// streammr/image: apps with an image path read their matrices through the
// texture path and give the reference's answer (same products, same order);
// the others are refused before anything runs.
TEST_P(StreamMRTest, ImageInputMatchesReferenceOrIsRefused) {
  if (device_->info().image2d_max_width == 0) GTEST_SKIP() << "no image support";
  streammr::Options o;
  o.image = true;
  if (app().has_image_path()) {
    expect_reference(runtimes(o), app(), "image");
  } else {
    auto runtime = streammr::make_runtime(*device_, o);
    EXPECT_THROW(runtime->prepare(app()), UsageError);
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(StreamMRTest);
INSTANTIATE_TEST_SUITE_P(BackendsAndApps, StreamMRTest,
                         ::testing::Combine(::testing::ValuesIn(kernel_backends()),
                                            ::testing::ValuesIn(mapreduce_app_names())),
                         backend_app_test_name);

using StreamMRPaths = DeviceTest;

mapreduce::RunResult run_text(backend::Device& device, const streammr::Options& o,
                              const apps::MapReduceApp& app, const std::string& text,
                              const apps::Params& params = {}) {
  auto runtime = streammr::make_runtime(device, o);
  runtime->prepare(app);
  runtime->set_app_params(app.resolve_params(params));
  return runtime->run(app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

std::string words(int lines) {
  std::string text;
  for (int i = 0; i < lines; ++i) {
    text += "alpha beta w" + std::string(1 + i % 5, char('a' + i % 26)) + " gamma alpha\n";
  }
  return text;
}

TEST_P(StreamMRPaths, ReduceAppReportsPhasesAndCounters) {
  const apps::MapReduceApp& app = apps::wordcount_app();
  const std::string text = "a b c a b a\n";
  mapreduce::RunResult r = run_text(*device_, streammr::Options{}, app, text);
  EXPECT_EQ(phase_names(r),
            (std::vector<std::string>{"preprocess", "copy_in", "map", "reduce", "copy_out"}));
  EXPECT_EQ(r.work.item("intermediate_pairs"), 6u);
  EXPECT_EQ(r.output, reference_output(app, text));
  EXPECT_EQ(r.measurement.counters.at("overflow_pct"), 0.0);
  EXPECT_EQ(r.measurement.counters.at("combine_rounds"), 1.0);
  EXPECT_GT(r.measurement.counters.at("wavefront"), 0.0);
}

// A preallocation of 4 pairs per group: the second pass writes the rest, and
// the result is still every pair.
TEST_P(StreamMRPaths, GlobalOverflowRunsTheSecondPass) {
  const apps::MapReduceApp& app = apps::stringmatch_app();
  std::string text;
  for (int i = 0; i < 500; ++i) text += std::string(i % 9, '.') + "needle needle\n";
  const apps::Params params{{"pattern", "needle"}};
  streammr::Options o;
  o.groups = 4;
  o.size_hint = 4;
  mapreduce::RunResult r = run_text(*device_, o, app, text, params);
  EXPECT_GT(r.measurement.counters.at("overflow_pct"), 0.0);
  EXPECT_EQ(phase_names(r),
            (std::vector<std::string>{"preprocess", "copy_in", "map", "overflow", "copy_out"}));
  EXPECT_EQ(r.work.item("intermediate_pairs"), 1000u);
  EXPECT_EQ(r.output, reference_output(app, text, params));
  // Ample room: no second pass.
  o.size_hint = 1000;
  r = run_text(*device_, o, app, text, params);
  EXPECT_EQ(r.measurement.counters.at("overflow_pct"), 0.0);
  EXPECT_EQ(r.output, reference_output(app, text, params));
}

// Map-only output is compacted on the device: most groups use a few of their
// slots, one group (the records of group 3: record t runs in group
// (t / wavefront) % groups) overflows into the second pass, and with few key
// bytes the groups fill up on keys and leave dead slots. Each time the output
// is every pair, once.
TEST_P(StreamMRPaths, CompactedMapOutputWithSparseGroupsAndOverflow) {
  const apps::MapReduceApp& app = apps::stringmatch_app();
  streammr::Options o;
  o.groups = 8;
  o.wavefront = 32;
  std::string text;
  for (int i = 0; i < 1024; ++i) {
    if ((i / 32) % 8 == 3) {
      text += "needle.needle needle..needle|needle\n";
    } else if (i % 7 == 0) {
      text += std::string(i % 11, '.') + "needle\n";
    } else {
      text += "hay\n";
    }
  }
  const apps::Params params{{"pattern", "needle"}};
  const apps::KeyValueList expected = reference_output(app, text, params);
  o.size_hint = 40;
  mapreduce::RunResult r = run_text(*device_, o, app, text, params);
  EXPECT_GT(r.measurement.counters.at("overflow_pct"), 0.0);
  EXPECT_LT(r.measurement.counters.at("overflow_pct"), 100.0);
  EXPECT_EQ(r.work.item("intermediate_pairs"), expected.size());
  EXPECT_EQ(r.output, expected);
  // Keys limit: 3 key bytes per pair hold half a key each, so slots die; 123
  // key bytes per group are not whole words (the compaction copies bytes).
  o.size_hint = 41;
  o.key_hint = 3;
  r = run_text(*device_, o, app, text, params);
  EXPECT_GT(r.measurement.counters.at("overflow_pct"), 0.0);
  EXPECT_EQ(r.output, expected);
  // The default preallocation (one pair per record + 16).
  r = run_text(*device_, streammr::Options{}, app, text, params);
  EXPECT_EQ(r.output, expected);
}

TEST_P(StreamMRPaths, GlobalOverflowOfReduceAppAndReduceOutput) {
  const apps::MapReduceApp& app = apps::wordcount_app();
  const std::string text = words(400);
  for (bool tree : {false, true}) {
    for (bool combine : {false, true}) {
      streammr::Options o;
      o.groups = 3;
      o.size_hint = 5;
      o.key_hint = 2;
      o.tree = tree;
      o.combine = combine;
      mapreduce::RunResult r = run_text(*device_, o, app, text);
      EXPECT_GT(r.measurement.counters.at("overflow_pct"), 50.0) << tree << combine;
      EXPECT_EQ(r.output, reference_output(app, text))
          << "tree " << tree << ", combine " << combine;
    }
  }
}

// A combiner buffer smaller than the wavefront halves the active work-items
// until the values fit: 1, 2, 4 ... election steps per wavefront of entries.
TEST_P(StreamMRPaths, LocalOverflowHalvesTheActiveWorkItems) {
  const apps::MapReduceApp& app = apps::wordcount_app();
  const std::string text = words(300);
  for (std::uint32_t values : {0u, 16u, 8u, 1u}) {
    streammr::Options o;
    o.wavefront = 32;
    o.local_values = values;
    mapreduce::RunResult r = run_text(*device_, o, app, text);
    const double rounds = values == 0 ? 1.0 : 32.0 / values;
    EXPECT_EQ(r.measurement.counters.at("combine_rounds"), rounds) << values;
    EXPECT_EQ(r.output, reference_output(app, text)) << "local_values " << values;
  }
  // KMeans (fig12): values of 72 bytes.
  const apps::MapReduceApp& km = apps::find_mapreduce_app("kmeans");
  const std::string points = generated("points-f32", 3000 * 16, 5);
  streammr::Options o;
  o.local_values = 8;
  mapreduce::RunResult r = run_text(*device_, o, km, points);
  EXPECT_GT(r.measurement.counters.at("combine_rounds"), 1.0);
  EXPECT_EQ(apps::compare_by_policy(km, reference_output(km, points), r.output, km.validation()),
            "");
}

// All keys equal and every key in one bucket: one master per election step
// does the whole step, and the flat reduce's cleanup keeps one output.
TEST_P(StreamMRPaths, OneHotBucketAndCollisions) {
  const apps::MapReduceApp& app = apps::wordcount_app();
  std::string same;
  for (int i = 0; i < 2000; ++i) same += "same Same SAME\n";
  for (bool combine : {false, true}) {
    streammr::Options o;
    o.combine = combine;
    o.groups = 7;
    mapreduce::RunResult r = run_text(*device_, o, app, same);
    ASSERT_EQ(r.output.size(), 1u);
    std::uint32_t count = 0;
    std::memcpy(&count, r.output[0].second.data(), 4);
    EXPECT_EQ(count, 6000u);
  }
  const std::string text = words(200);
  streammr::Options o;
  o.hash_mask = 0;
  o.buckets = 1;
  EXPECT_EQ(run_text(*device_, o, app, text).output, reference_output(app, text));
  // Every key in bucket 0 of 512: the reduce work-group holding bucket 0 of a
  // table outruns its output region (sized from the average), and the
  // reduce's second pass writes the rest.
  o.buckets = 512;
  o.groups = 2;
  mapreduce::RunResult r = run_text(*device_, o, app, text);
  EXPECT_GT(r.measurement.counters.at("reduce_overflow_pct"), 0.0);
  EXPECT_EQ(r.output, reference_output(app, text));
}

TEST_P(StreamMRPaths, EmptyInput) {
  for (const char* name : {"wordcount", "stringmatch", "kmeans"}) {
    const apps::MapReduceApp& app = apps::find_mapreduce_app(name);
    mapreduce::RunResult r = run_text(*device_, streammr::Options{}, app, "");
    EXPECT_TRUE(r.output.empty()) << name;
    EXPECT_EQ(r.work.item("intermediate_pairs"), 0u);
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(StreamMRPaths);
INSTANTIATE_TEST_SUITE_P(Backends, StreamMRPaths, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
