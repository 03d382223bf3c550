// Host-side parallel sort for the harness' own bookkeeping: putting millions
// of output pairs in canonical order and comparing them with a reference,
// after every measured run (outside the timed region, but inside the time a
// reproduction takes).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "harness/core/host_cores.h"
#include "harness/core/parallel.h"

namespace harness {

// Sorts v with cmp (not stable): 2^k equal runs sorted on as many threads,
// then merged pairwise, each round's merges in parallel. Small inputs, or a
// single core, sort on the calling thread.
template <class T, class Cmp>
void parallel_sort(std::vector<T>& v, Cmp cmp) {
  constexpr std::size_t kSerialBelow = std::size_t{1} << 16;
  const unsigned cores = harness::usable_cores();
  unsigned runs = 1;
  while (runs * 2 <= cores && runs < 64) runs *= 2;
  if (v.size() < kSerialBelow || runs == 1) {
    std::sort(v.begin(), v.end(), cmp);
    return;
  }
  std::vector<std::size_t> bound(runs + 1);
  for (unsigned r = 0; r <= runs; ++r) bound[r] = v.size() * r / runs;
  auto at = [&v](std::size_t i) { return v.begin() + static_cast<std::ptrdiff_t>(i); };
  parallel_for(runs, [&](unsigned r) { std::sort(at(bound[r]), at(bound[r + 1]), cmp); });
  for (unsigned width = 1; width < runs; width *= 2) {
    parallel_for(runs / (2 * width), [&](unsigned m) {
      const unsigned lo = 2 * width * m;
      std::inplace_merge(at(bound[lo]), at(bound[lo + width]), at(bound[lo + 2 * width]), cmp);
    });
  }
}

template <class T>
void parallel_sort(std::vector<T>& v) {
  parallel_sort(v, [](const T& a, const T& b) { return a < b; });
}

}  // namespace harness
