// The multi-threaded CPU runtime against the word-count reference, with
// several thread counts (partitions = threads).
#include <gtest/gtest.h>

#include "frameworks/apps/registry.h"
#include "frameworks/common/tests/mapreduce_inputs.h"
#include "frameworks/cpu/cpu_runtime.h"

namespace harness::testing {
namespace {

class CpuRuntimeTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(CpuRuntimeTest, MatchesReference) {
  const apps::MapReduceApp& app = apps::wordcount_app();
  cpu::Options o;
  o.threads = GetParam();
  auto runtime = cpu::make_wordcount(o);
  for (const auto& [name, text] : mapreduce_inputs()) {
    const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
    mapreduce::RunResult r = runtime->run(app, data, text.size());
    EXPECT_EQ(apps::compare_outputs(app, app.reference(data, text.size()), r.output), "")
        << name << " with " << GetParam() << " threads";
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, CpuRuntimeTest, ::testing::Values(1u, 2u, 5u));

}  // namespace
}  // namespace harness::testing
