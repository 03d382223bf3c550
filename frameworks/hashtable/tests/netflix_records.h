// Hand-made netflix records for the hash table's tests (the workload's
// 40-byte layout: movie, user a, user b, rating a, rating b).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace harness::testing {

// `n` netflix records; record i rates users pair(i) with ratings from i.
template <class Pair>
std::string ratings(std::uint32_t n, Pair pair) {
  std::string data(std::size_t{n} * 40, '\0');
  for (std::uint32_t i = 0; i < n; ++i) {
    char* r = data.data() + std::size_t{i} * 40;
    const auto [a, b] = pair(i);
    const auto ra = static_cast<std::uint16_t>(1 + i % 5);
    const auto rb = static_cast<std::uint16_t>(1 + (i / 5) % 5);
    std::memcpy(r, &i, 4);
    std::memcpy(r + 4, &a, 4);
    std::memcpy(r + 8, &b, 4);
    std::memcpy(r + 12, &ra, 2);
    std::memcpy(r + 14, &rb, 2);
  }
  return data;
}

}  // namespace harness::testing
