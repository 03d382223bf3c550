// The first 8 bytes of a key as a big-endian integer, zero-padded: ordering
// by it orders by those bytes (unsigned), so a sort of byte keys compares
// whole keys only where prefixes tie. Shared by the sorts of the MapReduce
// outputs and the workloads' tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace harness {

inline std::uint64_t key_prefix8(std::string_view s) {
  std::uint64_t p = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    p = (p << 8) | (i < s.size() ? static_cast<unsigned char>(s[i]) : 0u);
  }
  return p;
}

}  // namespace harness
