// "particles": the K-means particles file of the thesis' BigKernel and S-L1
// chapters, an array of 64-byte little-endian records:
//   bytes  0-31  double coord[4]     the particle's position
//   bytes 32-39  int64  cluster_id   -1 here; K-means writes the cluster
//   bytes 40-63  double velocity[3]  other values K-means never touches
// Particles lie around kParticleCentres hidden centres drawn uniformly in
// [-100, 100)^4; each centre has its own spread s in [1, 8), and a particle's
// coordinate is centre + s * (u1 + u2 + u3 + u4 - 2) (an Irwin-Hall sum of
// four uniforms: standard deviation 0.58 s, no libm), its centre drawn
// uniformly; velocities are uniform in [-1, 1).
//
// output_bytes(size) is `size` rounded down to whole records (nothing is
// padded). Independent chunks of 65536 records (chunk i seeded from (seed,
// i)), generated in parallel and written in order: the bytes never depend on
// the thread count.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "datasets/dataset.h"

namespace harness::datasets {

inline constexpr std::size_t kParticleBytes = 64;
inline constexpr std::size_t kParticleDims = 4;
inline constexpr std::size_t kParticleCoordOffset = 0;       // double[4]
inline constexpr std::size_t kParticleClusterIdOffset = 32;  // int64
inline constexpr std::size_t kParticleVelocityOffset = 40;   // double[3]
inline constexpr std::uint32_t kParticleCentres = 32;

const Generator& particles_generator();

struct ParticleCentre {
  std::array<double, kParticleDims> position;
  double spread;  // a coordinate lies within 2 * spread of the centre's
};
// The hidden centres for a seed (for tests and docs).
std::vector<ParticleCentre> particle_centres(std::uint64_t seed);

}  // namespace harness::datasets
