// Cutting an input into `parts` pieces for host threads: at any byte
// (even_cuts) or just after a newline (line_cuts), so a thread holds whole
// lines. The thesis workloads' CPU baselines and the MapReduce apps' line
// splitting (frameworks/mapreduce/apps/records.cpp) use them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace harness {

// parts + 1 offsets, 0 first and size last, ascending (pieces may be empty).
inline std::vector<std::size_t> even_cuts(std::size_t size, unsigned parts) {
  std::vector<std::size_t> cuts(parts + 1);
  for (unsigned i = 0; i <= parts; ++i)
    cuts[i] = size / parts * i + std::min<std::size_t>(i, size % parts);
  return cuts;
}

// Like even_cuts, each inner cut moved just past the next '\n' at or after it
// (or to the end), so every piece starts at a line start.
inline std::vector<std::size_t> line_cuts(const std::uint8_t* data, std::size_t size,
                                          unsigned parts) {
  std::vector<std::size_t> cuts = even_cuts(size, parts);
  for (unsigned i = 1; i < parts; ++i) {
    std::size_t at = std::max(cuts[i], cuts[i - 1]);
    if (at > 0 && at < size && data[at - 1] != '\n') {
      const void* nl = std::memchr(data + at, '\n', size - at);
      at = nl ? static_cast<std::size_t>(static_cast<const std::uint8_t*>(nl) - data) + 1 : size;
    }
    cuts[i] = at;
  }
  return cuts;
}

}  // namespace harness
