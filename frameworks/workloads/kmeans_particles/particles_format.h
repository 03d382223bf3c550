// kmeans-particles' input and its definition (thesis chapters 4 and 5): an
// array of 64-byte particle records (datasets/particles.h has the layout);
// the centroids are the coordinates of the first k particles, and a
// particle's cluster is its nearest centroid by squared Euclidean distance,
// summed in double in dimension order 0..3, ties to the lower id.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "datasets/particles.h"
#include "frameworks/workloads/fixed_length_records.h"

namespace harness::workloads::kmeans_particles {

inline constexpr const char* kApp = "kmeans-particles";
inline constexpr std::size_t kRecordBytes = datasets::kParticleBytes;
inline constexpr std::size_t kDims = datasets::kParticleDims;
inline constexpr std::size_t kCoordOffset = datasets::kParticleCoordOffset;
inline constexpr std::size_t kClusterIdOffset = datasets::kParticleClusterIdOffset;
inline constexpr std::uint32_t kMaxK = 1024;

// Two distances closer than this (relative to the smaller) are a near tie:
// an implementation that rounds differently (a GPU's fused multiply-adds)
// may pick either centroid there.
inline constexpr double kNearTieRelative = 1e-9;

using Point = std::array<double, kDims>;

inline Point load_coords(const std::uint8_t* record) {
  Point p;
  for (std::size_t d = 0; d < kDims; ++d) p[d] = load_field<double>(record, kCoordOffset + 8 * d);
  return p;
}

// The definition's distance; every implementation sums in this order.
inline double squared_distance(const Point& p, const Point& c) {
  double sum = 0;
  for (std::size_t d = 0; d < kDims; ++d) sum += (p[d] - c[d]) * (p[d] - c[d]);
  return sum;
}

inline bool near_tie(double best, double second_best) {
  return second_best - best <= kNearTieRelative * best;
}

// RunError for a cut record or a non-finite coordinate (naming the record
// and its byte offset).
void check_particles(const std::uint8_t* data, std::size_t size);

// The coordinates of the first k particles; UsageError when the input holds
// fewer than k particles.
std::vector<Point> first_k_centroids(const std::uint8_t* data, std::size_t size, std::uint32_t k);

}  // namespace harness::workloads::kmeans_particles
