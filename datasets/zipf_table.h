// Inverse-CDF sampling of Zipf-Mandelbrot ranks, weights 1 / (rank + 1 + q),
// summed in rank order in double precision (exactly rounded operations only,
// so the same on every platform): a 31-bit CDF and a guide table. Shared by
// text-zipf, html-zipf and weblog.
#pragma once

#include <cstdint>
#include <vector>

#include "datasets/random.h"

namespace harness::datasets {

class ZipfTable {
 public:
  ZipfTable() = default;  // no ranks: sample nothing from it
  ZipfTable(std::uint32_t n, double q) : cdf_(n), guide_(std::size_t{1} << 16) {
    std::vector<double> cumulative(n);
    double sum = 0;
    for (std::uint32_t r = 0; r < n; ++r) {
      sum += 1.0 / (r + 1 + q);
      cumulative[r] = sum;
    }
    constexpr std::uint32_t kOne = std::uint32_t{1} << 31;
    for (std::uint32_t r = 0; r < n; ++r)
      cdf_[r] = static_cast<std::uint32_t>(cumulative[r] / sum * kOne);
    cdf_[n - 1] = kOne;
    std::uint32_t r = 0;
    for (std::uint32_t g = 0; g < guide_.size(); ++g) {
      while (cdf_[r] <= g << 15) ++r;
      guide_[g] = r;
    }
  }
  std::uint32_t sample(Rng& rng) const {
    return rank_of(static_cast<std::uint32_t>(rng.next() >> 33));  // 31 bits
  }
  // The rank of 31 random bits u: the guide gives the first candidate, a short
  // scan the rank (the last cdf entry is 2^31, above every u).
  std::uint32_t rank_of(std::uint32_t u) const {
    std::uint32_t r = guide_[u >> 15];
    while (cdf_[r] <= u) ++r;
    return r;
  }

 private:
  std::vector<std::uint32_t> cdf_, guide_;
};

}  // namespace harness::datasets
