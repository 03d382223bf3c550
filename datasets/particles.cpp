#include "datasets/particles.h"

#include <cstring>
#include <string>

#include "datasets/chunked.h"
#include "datasets/random.h"

namespace harness::datasets {
namespace {

constexpr std::uint64_t kChunkRecords = 65536;

double uniform01(Rng& rng) {  // 53 random bits: exact in double
  return static_cast<double>(rng.next() >> 11) * 0x1p-53;
}

void put_double(std::string& out, std::size_t at, double value) {
  std::memcpy(out.data() + at, &value, sizeof value);
}

void make_chunk(const std::vector<ParticleCentre>& centres, std::uint64_t seed, std::uint64_t index,
                std::size_t size, std::string& out) {
  Rng rng(mix_seed(seed, index));
  out.resize(size);
  for (std::size_t at = 0; at < size; at += kParticleBytes) {
    const ParticleCentre& c = centres[rng.below(kParticleCentres)];
    for (std::size_t d = 0; d < kParticleDims; ++d) {
      const double noise = uniform01(rng) + uniform01(rng) + uniform01(rng) + uniform01(rng) - 2.0;
      put_double(out, at + kParticleCoordOffset + 8 * d, c.position[d] + c.spread * noise);
    }
    const std::int64_t no_cluster = -1;
    std::memcpy(out.data() + at + kParticleClusterIdOffset, &no_cluster, sizeof no_cluster);
    for (std::size_t d = 0; d < 3; ++d)
      put_double(out, at + kParticleVelocityOffset + 8 * d, 2.0 * uniform01(rng) - 1.0);
  }
}

class Particles final : public Generator {
 public:
  std::string name() const override { return "particles"; }
  std::string description() const override {
    return "K-means particles: 64-byte records (4 double coordinates, an int64 cluster id, 3 "
           "double velocities) around 32 hidden centres in [-100, 100)^4";
  }
  int version() const override { return 1; }
  std::uint64_t output_bytes(std::uint64_t size) const override {
    return size / kParticleBytes * kParticleBytes;
  }
  void generate(std::uint64_t size, std::uint64_t seed, std::ostream& out) const override {
    const std::vector<ParticleCentre> centres = particle_centres(seed);
    write_chunks("particles", output_bytes(size), kChunkRecords * kParticleBytes, 0, out,
                 [&](std::uint64_t index, std::size_t bytes, std::string& buffer) {
                   make_chunk(centres, seed, index, bytes, buffer);
                 });
  }
};

}  // namespace

std::vector<ParticleCentre> particle_centres(std::uint64_t seed) {
  Rng rng(mix_seed(seed, 0xce47e5));
  std::vector<ParticleCentre> centres(kParticleCentres);
  for (ParticleCentre& c : centres) {
    for (double& x : c.position) x = 200.0 * uniform01(rng) - 100.0;
    c.spread = 1.0 + 7.0 * uniform01(rng);
  }
  return centres;
}

const Generator& particles_generator() {
  static const Particles g;
  return g;
}

}  // namespace harness::datasets
