// A floating-point segmented sum, the smallest family that is not MapReduce:
// it exercises the core's tolerance validation, sweep axes with a skipped
// combination, declared work with fractions of the measured ceilings, and the
// measurement policy (experiment core.reduction). See README.md.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace harness::reduction {

// The CPU reference: each segment summed in double precision.
std::vector<double> reference_sums(std::span<const float> values, std::uint32_t segment);

void register_family();  // the app "segsum" and variants reduction/tree, reduction/cpu

}  // namespace harness::reduction
