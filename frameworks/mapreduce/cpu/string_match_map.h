// String match's fast path in the CPU runtime (knob fast_path, on by
// default): the app's map rule (frameworks/mapreduce/apps/stringmatch: every offset
// where the pattern's bytes start, overlapping ones included) run over large
// chunks of the input with the C library's vectorized memchr for the
// pattern's first byte, where the generic path splits lines (preprocess) and
// compares byte by byte in app_map. Lines need not be split: the pattern
// holds no newline (the app rejects one), so no match crosses a line end and
// a chunk may end anywhere; a match starting in a chunk may read past its
// end. Every run is still validated against the app's reference.
#pragma once

#include <cstdint>
#include <cstring>

namespace harness::cpu {

struct StringMatchMap {
  // Any byte may start a chunk.
  static std::size_t cut(const std::uint8_t* /*data*/, std::size_t /*size*/, std::size_t pos) {
    return pos;
  }

  // Appends (pattern, offset) to `out` for every match starting in the
  // chunks next_chunk(begin, end) hands out (false when none is left);
  // returns the number of matches.
  template <class NextChunk, class Store>
  static std::uint64_t map(const std::uint8_t* data, std::size_t size, NextChunk&& next_chunk,
                           const std::uint8_t* pattern, std::size_t len, Store& out) {
    std::uint64_t found = 0;
    std::size_t begin, end;
    while (next_chunk(begin, end)) found += map_chunk(data, size, begin, end, pattern, len, out);
    return found;
  }

  // The same for the matches starting in data[begin, end).
  template <class Store>
  static std::uint64_t map_chunk(const std::uint8_t* data, std::size_t size, std::size_t begin,
                                 std::size_t end, const std::uint8_t* pattern, std::size_t len,
                                 Store& out) {
    if (len == 0 || len > size) return 0;
    const std::size_t stop = end < size - len + 1 ? end : size - len + 1;  // starts < stop
    std::uint64_t found = 0;
    for (std::size_t i = begin; i < stop; ++i) {
      const void* hit = std::memchr(data + i, pattern[0], stop - i);
      if (!hit) break;
      i = static_cast<std::size_t>(static_cast<const std::uint8_t*>(hit) - data);
      if (std::memcmp(data + i + 1, pattern + 1, len - 1) == 0) {
        std::memcpy(out.add(static_cast<std::uint32_t>(len), static_cast<std::uint32_t>(i)),
                    pattern, len);
        ++found;
      }
    }
    return found;
  }
};

}  // namespace harness::cpu
