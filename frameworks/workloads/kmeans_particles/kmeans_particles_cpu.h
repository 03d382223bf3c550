// kmeans-particles' CPU-MT implementation: threads over contiguous ranges of
// particles, each comparing blocks of particles with every centroid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "frameworks/workloads/kmeans_particles/particles_format.h"

namespace harness::workloads::kmeans_particles {

// The vector widths (doubles a vector) this host runs, widest first: 8
// (AVX-512), 4 (AVX2), 2 (any host).
std::vector<unsigned> supported_lane_widths();

// ids[i] = the nearest centroid of particle i, for every particle of `data`,
// with vectors of `lanes` doubles (0: the widest supported).
void assign_clusters_parallel(const std::uint8_t* data, std::size_t particles,
                              const std::vector<Point>& centroids, unsigned threads,
                              std::uint32_t* ids, unsigned lanes = 0);

}  // namespace harness::workloads::kmeans_particles
