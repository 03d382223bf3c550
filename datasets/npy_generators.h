// Numeric datasets as NumPy .npy float32 arrays (datasets/npy.h), for the
// matrix, similarity and KMeans apps. Their size is the arrays' payload
// budget: the file adds the .npy headers (Generator::output_bytes), so the
// papers' sizes name whole matrices ("8MiB" of matrix-f32 is two 1024 x 1024
// matrices).
//   matrix-f32    two n x n matrices A, B (two arrays in one file), entries
//                 uniform in [0, 1) with 24 random bits; n = floor(sqrt(size / 8)).
//   features-f32  documents x 128 features: tf-idf-like non-negative weights,
//                 about a quarter of them non-zero, documents drawn from 16
//                 topics that favour their own features (so similarities spread
//                 over [0, 1]); documents = floor(size / 512).
//   points-f32    points x 4 coordinates around 32 cluster centres in [0, 100)^4
//                 (spread about 3 per axis, an Irwin-Hall sum of uniforms, so no
//                 libm call makes the bytes platform-dependent), the cluster of
//                 each point drawn uniformly; points = floor(size / 16).
// Row r is generated from (seed, r) alone.
#pragma once

#include "datasets/dataset.h"

namespace harness::datasets {

inline constexpr std::uint64_t kFeaturesPerDocument = 128;
inline constexpr std::uint64_t kPointDims = 4;

const Generator& matrix_f32_generator();
const Generator& features_f32_generator();
const Generator& points_f32_generator();

}  // namespace harness::datasets
