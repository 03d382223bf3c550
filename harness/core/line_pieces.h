// Host work over a text's lines on every core: the text cut into pieces of
// whole lines (line_cuts), each piece's results found on its own thread,
// then joined in input order. The MapReduce apps' line records and page
// starts, grep's reference and the hash table's index of page views use it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/core/cuts.h"
#include "harness/core/host_cores.h"
#include "harness/core/parallel.h"
#include "harness/core/per_worker.h"

namespace harness {

// The pieces append_over_line_pieces uses by default: one, or one per usable
// host core from 8 MiB on.
inline unsigned default_line_pieces(std::size_t size) {
  return size < (std::size_t{8} << 20) ? 1u : usable_cores();
}

// Appends to `out` what find(begin, end, part) appends to `part` for
// `pieces` pieces [begin, end) of whole lines of data[0, size) (each begins
// at a line start), each on its own thread, in order. `out` gets room for
// one more entry (split_lines' end offset).
template <class Value, class Find>
void append_over_line_pieces(const std::uint8_t* data, std::size_t size, unsigned pieces,
                             Find&& find, std::vector<Value>& out) {
  const std::vector<std::size_t> bounds = line_cuts(data, size, pieces);
  const auto n = static_cast<unsigned>(bounds.size() - 1);
  // Each piece's results on cache lines of their own (per_worker.h).
  PerWorker<std::vector<Value>> parts(n);
  parallel_for(n, [&](unsigned p) { find(bounds[p], bounds[p + 1], parts[p]); });
  // Each part copied into its place on its own thread.
  std::vector<std::size_t> at(n + 1, out.size());
  for (unsigned p = 0; p < n; ++p) at[p + 1] = at[p] + parts[p].size();
  out.reserve(at[n] + 1);
  out.resize(at[n]);
  parallel_for(n, [&](unsigned p) {
    std::copy(parts[p].begin(), parts[p].end(), out.begin() + static_cast<std::ptrdiff_t>(at[p]));
  });
}

// The same over default_line_pieces(size) pieces.
template <class Value, class Find>
void append_over_line_pieces(const std::uint8_t* data, std::size_t size, Find&& find,
                             std::vector<Value>& out) {
  append_over_line_pieces(data, size, default_line_pieces(size), find, out);
}

}  // namespace harness
