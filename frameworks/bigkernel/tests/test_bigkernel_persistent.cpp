// bigkernel/persistent (persistent.h): the persistent kernel on CUDA devices,
// K-means (the mapped writes over the link), Opinion Finder (tallies of
// virtual work-groups), wc (variable-length records, record patterns),
// Netflix and DNA Assembly (a table a block, compacted a round)
// against the workloads' references in several rounds
// per block (more rounds than a block's two slots), with patterns off (the
// raw lists through mapped memory), its counters, fewer rounds than blocks,
// and a budget too small for one round; elsewhere, that the variant declines.
#include <gtest/gtest.h>

#include <string>

#include "frameworks/bigkernel/tests/bigkernel_testing.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

class BigKernelPersistentTest : public DeviceTest {
 protected:
  PointRun run(const std::string& input, std::uint64_t budget, const Params& overrides = {}) {
    return run_point(*device_, "bigkernel", "persistent", "kmeans-particles", input, budget,
                     overrides, 2);
  }
  bool cuda() const { return GetParam() == backend::Kind::cuda; }
};

TEST_P(BigKernelPersistentTest, RunsOnCudaOnly) {
  register_all();
  const VariantInfo& v = Registry::instance().find_variant("bigkernel", "persistent");
  ASSERT_EQ(v.backends.size(), 1u);
  EXPECT_EQ(v.backends[0], backend::Kind::cuda);
  EXPECT_TRUE(v.runs_app("kmeans-particles"));
  EXPECT_TRUE(v.runs_app("opinion-finder"));
  EXPECT_TRUE(v.runs_app("wc"));
  EXPECT_TRUE(v.runs_app("netflix"));
  EXPECT_TRUE(v.runs_app("dna-assembly"));
  EXPECT_FALSE(v.runs_app("mastercard"));
}

// 16 MiB of particles (262,144 records) under an 8 MiB budget, one block an
// SM: rounds of 256-512 records, about four a block on an H100's 132 SMs.
TEST_P(BigKernelPersistentTest, KmeansInSeveralRoundsPerBlock) {
  if (!cuda()) GTEST_SKIP() << "the persistent kernel is CUDA code";
  const std::string particles = generate("particles", 16 << 20);
  for (const bool patterns : {true, false}) {
    SCOPED_TRACE(patterns ? "patterns" : "raw lists");
    const PointRun r = run(particles, 8 << 20,
                           {{"patterns", patterns ? "true" : "false"}, {"blocks_per_sm", "1"}});
    EXPECT_EQ(r.validation, "");
    const auto& c = r.measurement.counters;
    EXPECT_GT(c.at("rounds"), 2 * c.at("blocks")) << "fewer rounds than a block's slots";
    EXPECT_EQ(c.at("pattern_rounds"), patterns ? c.at("rounds") : 0);
    EXPECT_EQ(c.at("raw_rounds"), patterns ? 0 : c.at("rounds"));
    // Each role's time, from the GPU's timer: a pass's work is in it.
    EXPECT_GT(c.at("address_busy_ms"), 0);
    EXPECT_GT(c.at("compute_busy_ms"), 0);
    EXPECT_LE(c.at("compute_busy_ms") + c.at("compute_wait_ms"), r.measurement.total_ms * 1.01);
    // K-means reads 32 of each record's 64 bytes: every round's values sent once.
    EXPECT_EQ(c.at("value_bytes"), 32.0 * (16 << 20) / 64);
  }
}

// Opinion Finder: 146 single-byte reads a tweet, one tally a virtual
// work-group written into the app's host region across the pass.
TEST_P(BigKernelPersistentTest, OpinionFinderInSeveralRoundsPerBlock) {
  if (!cuda()) GTEST_SKIP() << "the persistent kernel is CUDA code";
  const std::string tweets = generate("tweets", 32 << 20);
  for (const bool patterns : {true, false}) {
    SCOPED_TRACE(patterns ? "patterns" : "raw lists");
    const PointRun r = run_point(*device_, "bigkernel", "persistent", "opinion-finder", tweets,
                                 64 << 20, {{"patterns", patterns ? "true" : "false"}}, 2);
    EXPECT_EQ(r.validation, "");
    const auto& c = r.measurement.counters;
    EXPECT_GT(c.at("rounds"), 2 * c.at("blocks")) << "fewer rounds than a block's slots";
    EXPECT_EQ(c.at("pattern_rounds"), patterns ? c.at("rounds") : 0);
  }
}

// wc: variable-length records (pieces of about 1 KiB), a record pattern and
// each thread's count; its address lists (8 B a byte) leave rounds of a few
// dozen pieces, below one virtual work-group.
TEST_P(BigKernelPersistentTest, WcInSeveralRoundsPerBlock) {
  if (!cuda()) GTEST_SKIP() << "the persistent kernel is CUDA code";
  const std::string text = generate("text-zipf", 8 << 20);
  for (const bool patterns : {true, false}) {
    SCOPED_TRACE(patterns ? "record patterns" : "raw lists");
    const PointRun r = run_point(*device_, "bigkernel", "persistent", "wc", text, 32 << 20,
                                 {{"patterns", patterns ? "true" : "false"}}, 2);
    EXPECT_EQ(r.validation, "");
    const auto& c = r.measurement.counters;
    EXPECT_GT(c.at("rounds"), 2 * c.at("blocks")) << "fewer rounds than a block's slots";
    EXPECT_LT(c.at("records_per_round"), 256);
    EXPECT_EQ(c.at("pattern_rounds"), patterns ? c.at("rounds") : 0);
  }
}

// Netflix and DNA Assembly: each block's compute warps fill their own table
// a round and compact it into the app's rows, merged on the host.
TEST_P(BigKernelPersistentTest, ChunkTableAppsInSeveralRoundsPerBlock) {
  if (!cuda()) GTEST_SKIP() << "the persistent kernel is CUDA code";
  for (const auto& [app, generator] :
       {std::pair<std::string, std::string>{"netflix", "netflix-pairs"},
        std::pair<std::string, std::string>{"dna-assembly", "dna-fragments"}}) {
    SCOPED_TRACE(app);
    const PointRun r = run_point(*device_, "bigkernel", "persistent", app,
                                 generate(generator, 16 << 20), 24 << 20, {}, 2);
    EXPECT_EQ(r.validation, "");
    const auto& c = r.measurement.counters;
    EXPECT_GT(c.at("rounds"), 2 * c.at("blocks")) << "fewer rounds than a block's slots";
    EXPECT_EQ(c.at("pattern_rounds"), c.at("rounds"));
  }
}

// One round for some blocks and none for the others (fewer records than blocks x 256).
TEST_P(BigKernelPersistentTest, FewerRoundsThanBlocks) {
  if (!cuda()) GTEST_SKIP() << "the persistent kernel is CUDA code";
  const PointRun r = run(generate("particles", 64 * 3001, 7), 0);
  EXPECT_EQ(r.validation, "");
  EXPECT_LT(r.measurement.counters.at("rounds"), r.measurement.counters.at("blocks"));
}

TEST_P(BigKernelPersistentTest, BudgetTooSmallForOneRound) {
  if (!cuda()) GTEST_SKIP() << "the persistent kernel is CUDA code";
  try {
    run(generate("particles", 64 * 100, 3), 16 << 10, {{"blocks_per_sm", "1"}});
    ADD_FAILURE() << "no error";
  } catch (const RunError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("budget 16KiB"), std::string::npos) << what;
    EXPECT_NE(what.find("one round needs"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

// Every block must be resident: more blocks an SM than fit is refused.
TEST_P(BigKernelPersistentTest, MoreBlocksAnSmThanFitIsRefused) {
  if (!cuda()) GTEST_SKIP() << "the persistent kernel is CUDA code";
  try {
    run(generate("particles", 64 * 100, 3), 0, {{"blocks_per_sm", "64"}});
    ADD_FAILURE() << "no error";
  } catch (const RunError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("blocks_per_sm=64 but an SM holds"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

}  // namespace

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BigKernelPersistentTest);
INSTANTIATE_TEST_SUITE_P(Backends, BigKernelPersistentTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace harness::testing
