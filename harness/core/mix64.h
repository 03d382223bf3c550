// MurmurHash3's 64-bit finalizer: a bijection of the 64-bit words in which
// every input bit reaches every output bit, so the low bits can index a table
// and the high bits pick a partition. The host side's one copy (hash tables,
// partitions, the keys-u64 generator's keys); kernels have their own in
// their dialect files.
#pragma once

#include <cstdint>

namespace harness {

inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xFF51AFD7ED558CCDULL;
  x ^= x >> 33;
  x *= 0xC4CEB9FE1A85EC53ULL;
  x ^= x >> 33;
  return x;
}

}  // namespace harness
