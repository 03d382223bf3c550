// What BigKernel's device tests share: a variant of the family run on one of
// its apps the way the runner does (tests/test_bigkernel.cpp,
// tests/test_bigkernel_text_apps.cpp).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "frameworks/workloads/tests/family_point_testing.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/registry.h"
#include "harness/suite/register_all.h"

namespace harness::testing {

// The family's variants: the buffered baselines, zero-copy, the pipeline's.
inline const std::vector<std::string> kBigKernelVariants = {
    "single-buffer", "double-buffer", "zero-copy", "overlap-only", "reduced-volume", "full"};

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

}  // namespace harness::testing
