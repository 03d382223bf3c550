#include "frameworks/workloads/kmeans_particles/particles_format.h"

#include <fmt/format.h>

#include <cmath>

namespace harness::workloads::kmeans_particles {

void check_particles(const std::uint8_t* data, std::size_t size) {
  const std::uint64_t particles = whole_records(kApp, size, kRecordBytes);
  for (std::uint64_t i = 0; i < particles; ++i) {
    const Point p = load_coords(data + i * kRecordBytes);
    for (std::size_t d = 0; d < kDims; ++d) {
      if (!std::isfinite(p[d]))
        throw_bad_record(kApp, i, kRecordBytes,
                         fmt::format("coordinate {} is {} (coordinates must be finite)", d, p[d]));
    }
  }
}

std::vector<Point> first_k_centroids(const std::uint8_t* data, std::size_t size, std::uint32_t k) {
  const std::uint64_t particles = size / kRecordBytes;
  if (particles < k)
    throw UsageError(fmt::format(
        "{}: k={} needs at least {} particles (the centroids are the first k), the input holds {}",
        kApp, k, k, particles));
  std::vector<Point> centroids(k);
  for (std::uint32_t c = 0; c < k; ++c) centroids[c] = load_coords(data + c * kRecordBytes);
  return centroids;
}

}  // namespace harness::workloads::kmeans_particles
