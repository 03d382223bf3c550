// What Bitonic and BitonicRec share: the compare-exchange filter and the
// reference (each block of N input items, sorted by std::sort).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "frameworks/streamgraph/filter.h"

namespace harness::streamgraph {

// pop 2, push 2: the pair in ascending (or descending) order.
FilterSpec compare_exchange(bool ascending);

// Block b of the sink's reference: input items [b n, b n + n) sorted.
std::function<std::vector<double>(std::uint64_t)> sorted_block_reference(std::uint64_t seed, int n);

bool is_power_of_two(int n);

}  // namespace harness::streamgraph
