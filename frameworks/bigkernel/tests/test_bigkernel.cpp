// BigKernel's baselines on every kernel backend with a device (PoCL in CI):
// both variants on both apps against the workloads' references with a budget
// that forces several chunks, chunks of whole records, an empty input, a
// budget too small for one round; the chunk planning on its own.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "datasets/dataset.h"
#include "frameworks/bigkernel/bigkernel.h"
#include "frameworks/bigkernel/chunk_plan.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "harness/suite/register_all.h"

namespace harness::testing {
namespace {

std::string generate(const std::string& generator, std::uint64_t size, std::uint64_t seed = 42) {
  std::ostringstream out;
  datasets::find_generator(generator).generate(size, seed, out);
  return std::move(out).str();
}

struct PointRun {
  std::string validation;  // "" when it matched the reference
  Measurement measurement;
};

class BigKernelTest : public DeviceTest {
 protected:
  PointRun run(const std::string& variant, const std::string& app, const std::string& input,
          std::uint64_t budget, int repetitions = 2) {
    register_all();
    const VariantInfo& v = Registry::instance().find_variant("bigkernel", variant);
    const AppInfo& a = Registry::instance().find_app(app);
    device_->set_memory_budget(budget);
    PointContext ctx;
    ctx.device = device_.get();
    ctx.devices = {device_.get()};
    ctx.app = app;
    ctx.input = reinterpret_cast<const std::uint8_t*>(input.data());
    ctx.input_size = input.size();
    ctx.params = point_defaults(v, a);
    ctx.validation = a.validation;
    auto point = v.make(ctx);
    point->prepare();
    PointRun r;
    for (int i = 0; i < repetitions; ++i) {  // the second run reuses the pool's buffers
      point->before_repetition();
      r.measurement = point->run_once();
      r.validation = point->validate_last();
      if (!r.validation.empty()) break;
    }
    return r;
  }
};

TEST_P(BigKernelTest, BothVariantsBothAppsInSeveralChunks) {
  const std::string particles = generate("particles", 2 << 20);
  const std::string ratings = generate("netflix-pairs", 2 << 20);
  for (const std::string variant : {"single-buffer", "double-buffer"}) {
    for (const auto& [app, input] :
         {std::pair<std::string, const std::string&>{"kmeans-particles", particles},
          std::pair<std::string, const std::string&>{"netflix", ratings}}) {
      SCOPED_TRACE(variant + " " + app);
      const PointRun r = run(variant, app, input, 256 << 10);
      EXPECT_EQ(r.validation, "");
      EXPECT_GT(r.measurement.counters.at("chunks"), 4);
      EXPECT_EQ(r.measurement.counters.at("lanes"), variant == "single-buffer" ? 1 : 2);
      // Whole records: each chunk's bytes are a multiple of the record.
      const double rb = app == "netflix" ? 40 : 64;
      const double chunk_bytes = r.measurement.counters.at("chunk_bytes");
      EXPECT_EQ(chunk_bytes, rb * r.measurement.counters.at("records_per_chunk"));
      EXPECT_LE(r.measurement.counters.at("lanes") * chunk_bytes, 256 << 10);
    }
  }
}

// A record count that leaves a short last chunk, and an input of one chunk.
TEST_P(BigKernelTest, ShortLastChunkAndOneChunk) {
  const std::string particles = generate("particles", 64 * 3001, 7);
  const std::string ratings = generate("netflix-pairs", 40 * 5003, 7);
  for (const std::string variant : {"single-buffer", "double-buffer"}) {
    SCOPED_TRACE(variant);
    EXPECT_EQ(run(variant, "kmeans-particles", particles, 64 << 10).validation, "");
    EXPECT_EQ(run(variant, "netflix", ratings, 64 << 10).validation, "");
    const PointRun whole = run(variant, "netflix", ratings, 0);
    EXPECT_EQ(whole.validation, "");
    EXPECT_EQ(whole.measurement.counters.at("chunks"), 1);
  }
}

TEST_P(BigKernelTest, EmptyInput) {
  for (const std::string variant : {"single-buffer", "double-buffer"}) {
    const PointRun r = run(variant, "netflix", "", 64 << 10);
    EXPECT_EQ(r.validation, "") << variant;
    EXPECT_EQ(r.measurement.counters.at("chunks"), 0) << variant;
  }
}

TEST_P(BigKernelTest, BudgetTooSmallForOneRound) {
  const std::string particles = generate("particles", 64 * 100, 3);
  const std::string ratings = generate("netflix-pairs", 40 * 100, 3);
  for (const std::string variant : {"single-buffer", "double-buffer"}) {
    for (const auto& [app, input] :
         {std::pair<std::string, const std::string&>{"kmeans-particles", particles},
          std::pair<std::string, const std::string&>{"netflix", ratings}}) {
      SCOPED_TRACE(variant + " " + app);
      try {
        run(variant, app, input, 512);
        ADD_FAILURE() << "no error";
      } catch (const RunError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("budget 512B"), std::string::npos) << what;
        EXPECT_NE(what.find("one round needs"), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      }
    }
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BigKernelTest);
INSTANTIATE_TEST_SUITE_P(Backends, BigKernelTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

TEST(ChunkPlan, LargestChunkThatFitsEveryLane) {
  const bigkernel::LaneBytes lane = [](std::uint64_t r) { return 100 * r; };
  EXPECT_EQ(bigkernel::records_per_chunk(1000, 2, 10000, lane, 1u << 30), 50u);
  EXPECT_EQ(bigkernel::records_per_chunk(1000, 1, 10000, lane, 1u << 30), 100u);
  EXPECT_EQ(bigkernel::records_per_chunk(10, 1, 10000, lane, 1u << 30), 10u);   // the input
  EXPECT_EQ(bigkernel::records_per_chunk(1000, 1, 10000, lane, 7), 7u);         // the cap
  EXPECT_EQ(bigkernel::records_per_chunk(1000, 2, 199, lane, 1u << 30), 0u);    // not one
  EXPECT_EQ(bigkernel::records_per_chunk(0, 2, 10000, lane, 1u << 30), 1u);     // empty input
}

TEST(ChunkPlan, ChunksCoverEveryRecordOnce) {
  const auto c = bigkernel::chunks(10, 4);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].first, 0u);
  EXPECT_EQ(c[1].first, 4u);
  EXPECT_EQ(c[2].first, 8u);
  EXPECT_EQ(c[2].count, 2u);
  EXPECT_TRUE(bigkernel::chunks(0, 4).empty());
}

}  // namespace
}  // namespace harness::testing
