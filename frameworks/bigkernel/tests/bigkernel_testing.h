// What BigKernel's device tests share: a variant of the family run on one of
// its apps the way the runner does (tests/test_bigkernel.cpp,
// tests/test_bigkernel_text_apps.cpp).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "frameworks/workloads/tests/family_point_testing.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/registry.h"
#include "harness/suite/register_all.h"

namespace harness::testing {

// The family's variants: the buffered baselines, zero-copy, the pipeline's.
inline const std::vector<std::string> kBigKernelVariants = {
    "single-buffer",  "double-buffer", "zero-copy", "overlap-only",
    "reduced-volume", "full",          "full-sl1"};

// Whether `variant` runs on `device` (zero-copy skips devices that cannot map
// host memory: NVIDIA OpenCL), by the variant's own rule.
inline bool bigkernel_runs_here(backend::Device& device, const std::string& variant) {
  register_all();
  const VariantInfo& v = Registry::instance().find_variant("bigkernel", variant);
  PointContext ctx;
  ctx.device = &device;
  return !v.skip || v.skip(ctx).empty();
}

// A counter of either point kind: the buffered ones count "chunks", the
// pipeline "rounds".
inline double bigkernel_rounds(const Measurement& m) {
  return m.counters.count("chunks") ? m.counters.at("chunks") : m.counters.at("rounds");
}

// A phase's time, -1 when the measurement has no such phase.
inline double phase_ms(const Measurement& m, const std::string& phase) {
  for (const PhaseTime& p : m.phases) {
    if (p.name == phase) return p.ms;
  }
  return -1;
}

// A test's run of one variant on an input with a GPU memory budget (0: none),
// and the budget that gives each variant several rounds of its inputs.
using RunVariant = std::function<PointRun(const std::string& variant, const std::string& input,
                                          std::uint64_t budget, int repetitions)>;
using VariantBudget = std::function<std::uint64_t(const std::string& variant)>;

// Every variant that runs on `device` answers `input` right in rounds of its
// budget, the last one short, and with no budget in one round.
inline void expect_short_last_round_and_one_round(backend::Device& device, const std::string& input,
                                                  const RunVariant& run,
                                                  const VariantBudget& budget) {
  for (const std::string& variant : kBigKernelVariants) {
    if (!bigkernel_runs_here(device, variant)) continue;
    SCOPED_TRACE(variant);
    EXPECT_EQ(run(variant, input, budget(variant), 1).validation, "");
    const PointRun whole = run(variant, input, 0, 1);
    EXPECT_EQ(whole.validation, "");
    EXPECT_EQ(bigkernel_rounds(whole.measurement), 1);
  }
}

// Every variant that runs on `device` answers an empty input, in no round.
inline void expect_empty_input_in_no_round(backend::Device& device, const RunVariant& run,
                                           const VariantBudget& budget) {
  for (const std::string& variant : kBigKernelVariants) {
    if (!bigkernel_runs_here(device, variant)) continue;
    const PointRun r = run(variant, "", budget(variant), 2);
    EXPECT_EQ(r.validation, "") << variant;
    EXPECT_EQ(bigkernel_rounds(r.measurement), 0) << variant;
  }
}

}  // namespace harness::testing
