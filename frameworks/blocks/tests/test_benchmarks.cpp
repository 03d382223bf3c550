// The blocks family's microbenchmarks (frameworks/blocks/benchmarks/): each
// variant runs and validates on a small size on every kernel backend with a
// device, declares the work its rate is judged by, and a poisoned result fails.
#include <gtest/gtest.h>

#include "harness/backend/tests/device_fixture.h"
#include "harness/core/registry.h"
#include "harness/suite/register_all.h"

namespace harness::testing {
namespace {

using BlocksBench = DeviceTest;

PointContext context(backend::Device& device, const std::string& app, const Params& given) {
  PointContext ctx;
  ctx.device = &device;
  ctx.devices = {&device};
  ctx.app = app;
  ctx.params = given;
  return ctx;
}

TEST_P(BlocksBench, EveryVariantValidatesAndDeclaresItsWork) {
  register_all();
  struct Case {
    const char* variant;
    const char* app;
    const char* work_level;
  };
  for (const Case& c : {Case{"pipeline", "h2d-stream", "h2d"}, Case{"scan", "scan-u32", "dram"},
                        Case{"radix-sort", "sort-pairs", "dram"}}) {
    SCOPED_TRACE(c.variant);
    const VariantInfo& v = Registry::instance().find_variant("blocks", c.variant);
    const AppInfo& app = Registry::instance().find_app(c.app);
    EXPECT_FALSE(app.reads_input);
    Params p = point_defaults(v, app);
    p["bytes"] = "1MiB";
    if (p.count("chunk")) p["chunk"] = "100000";  // pieces that do not divide the input
    auto point = v.make(context(*device_, c.app, p));
    point->prepare();
    for (int rep = 0; rep < 2; ++rep) {
      point->before_repetition();
      const Measurement m = point->run_once();
      EXPECT_GT(m.total_ms, 0);
      EXPECT_EQ(point->validate_last(), "");
    }
    bool declared = false;
    const Work work = point->work();
    for (const auto& t : work.traffic()) declared = declared || t.level == c.work_level;
    EXPECT_TRUE(declared);
  }
  const VariantInfo& pipeline = Registry::instance().find_variant("blocks", "pipeline");
  Params p = point_defaults(pipeline, Registry::instance().find_app("h2d-stream"));
  p["bytes"] = "64KiB";
  p["chunk"] = "4KiB";
  auto point = pipeline.make(context(*device_, "h2d-stream", p));
  point->prepare();
  point->before_repetition();
  EXPECT_EQ(point->run_once().counters.at("pieces"), 16.0);
  EXPECT_EQ(point->validate_last(), "");
  // A result that was not delivered fails: poison again without a run.
  point->before_repetition();
  EXPECT_NE(point->validate_last(), "");
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BlocksBench);
INSTANTIATE_TEST_SUITE_P(Backends, BlocksBench, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
