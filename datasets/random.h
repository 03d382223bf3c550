// Portable pseudo-random numbers for the generators: splitmix64 to seed,
// xoshiro256** to draw (Blackman and Vigna, prng.di.unimi.it). Never use
// std::*_distribution in a generator: their output is implementation-defined.
#pragma once

#include <bit>
#include <cstdint>

namespace harness::datasets {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// An independent stream seed for (seed, stream), e.g. (dataset seed, chunk index).
inline std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t state = seed;
  const std::uint64_t a = splitmix64(state);
  state = a ^ (stream * 0xD1B54A32D192ED03ULL);
  return splitmix64(state);
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (std::uint64_t& word : s_) word = splitmix64(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, n) by multiply-shift (bias below 2^-32 * n).
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32);
  }

 private:
  std::uint64_t s_[4];
};

}  // namespace harness::datasets
