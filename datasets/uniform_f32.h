// "uniform-f32": little-endian float32 values uniform in [0, 1), each an exact
// multiple of 2^-24, for floating-point reductions and other numeric
// kernels. Independent 1 MiB chunks (chunk i seeded from (seed, i)), so any
// prefix of a larger file is the smaller file. A size that is not a multiple
// of 4 ends in the first bytes of one more value.
#pragma once

#include "datasets/dataset.h"

namespace harness::datasets {
const Generator& uniform_f32_generator();
}  // namespace harness::datasets
