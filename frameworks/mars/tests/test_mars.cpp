// Mars on every kernel backend present (PoCL in CI), every variant, against the
// word-count reference.
#include "frameworks/apps/registry.h"
#include "frameworks/common/tests/device_fixture.h"
#include "frameworks/common/tests/mapreduce_inputs.h"
#include "frameworks/mars/mars_runtime.h"

namespace harness::testing {
namespace {

using MarsTest = DeviceTest;

void expect_reference(mapreduce::Runtime& runtime, const std::string& variant) {
  const apps::MapReduceApp& app = apps::wordcount_app();
  runtime.prepare(app);
  for (const auto& [name, text] : mapreduce_inputs()) {
    const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
    apps::KeyValueList expected = app.reference(data, text.size());
    for (int rep = 0; rep < 2; ++rep) {  // the second run reuses pooled buffers
      mapreduce::RunResult r = runtime.run(app, data, text.size());
      EXPECT_EQ(apps::compare_outputs(app, expected, r.output), "")
          << variant << " on " << name << ", run " << rep;
      EXPECT_GT(r.measurement.total_ms, 0.0);
    }
  }
}

TEST_P(MarsTest, DefaultVariantMatchesReference) {
  mars::Options o;
  expect_reference(*mars::make_runtime(*device_, o), "default");
}

TEST_P(MarsTest, ByteCompareSortMatchesReference) {
  mars::Options o;
  o.hash_keys = false;
  expect_reference(*mars::make_runtime(*device_, o), "sort");
}

TEST_P(MarsTest, ChunkedTasksAndOddShapesMatchReference) {
  mars::Options o;
  o.coalesced = false;
  o.groups = 3;
  o.group_size = 32;
  expect_reference(*mars::make_runtime(*device_, o), "no-coalesce, 3x32");
}

TEST_P(MarsTest, ReportsPhasesAndWork) {
  const apps::MapReduceApp& app = apps::wordcount_app();
  auto runtime = mars::make_runtime(*device_, mars::Options{});
  runtime->prepare(app);
  std::string text = "a b c a b a\n";
  mapreduce::RunResult r =
      runtime->run(app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  std::vector<std::string> names;
  for (const auto& p : r.measurement.phases) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"preprocess", "copy_in", "map_count", "map", "sort",
                                             "reduce", "copy_out"}));
  EXPECT_EQ(r.work.item("intermediate_pairs"), 6u);
  EXPECT_EQ(r.output.size(), 3u);
}

// A build without OpenCL or CUDA has no kernel backend to test.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(MarsTest);
INSTANTIATE_TEST_SUITE_P(Backends, MarsTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
