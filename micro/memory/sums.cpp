// Closed forms of the checksums the memory kernels write, so a point with
// hundreds of thousands of work-items and gigabytes read validates in
// milliseconds: a walk (start + i * stride) mod modulus sums to the sum of
// the unmodded terms less modulus times the number of wraps, and that count is
// a floor sum (the Euclid-like recursion of AtCoder Library's floor_sum).
#include <fmt/format.h>

#include <utility>

#include "micro/memory/memory.h"

namespace harness::memory {

std::uint64_t floor_sum(std::uint64_t n, std::uint64_t m, std::uint64_t a, std::uint64_t b) {
  std::uint64_t ans = 0;
  while (true) {
    if (a >= m) {
      ans += (n < 2 ? 0 : n * (n - 1) / 2) * (a / m);
      a %= m;
    }
    if (b >= m) {
      ans += n * (b / m);
      b %= m;
    }
    const std::uint64_t y_max = a * n + b;
    if (y_max < m) break;
    n = y_max / m;
    b = y_max % m;
    std::swap(m, a);
  }
  return ans;
}

std::uint32_t walk_sum(std::uint64_t start, std::uint64_t stride, std::uint64_t modulus,
                       std::uint64_t n) {
  // All arithmetic modulo 2^64, which 2^32 divides.
  const std::uint64_t triangle = n < 2 ? 0 : n * (n - 1) / 2;
  const std::uint64_t unmodded = start * n + stride * triangle;
  const std::uint64_t wraps = floor_sum(n, modulus, stride, start);
  return static_cast<std::uint32_t>(unmodded - modulus * wraps);
}

std::uint32_t read4_sum(std::uint64_t start, std::uint64_t stride, std::uint64_t modulus,
                        std::uint64_t steps, std::uint64_t shift) {
  const std::uint64_t first = (start + modulus - shift % modulus) % modulus;
  return 16u * walk_sum(first, stride, modulus, steps) + 6u * static_cast<std::uint32_t>(steps);
}

}  // namespace harness::memory
