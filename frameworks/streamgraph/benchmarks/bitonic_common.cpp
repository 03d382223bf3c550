#include "frameworks/streamgraph/benchmarks/bitonic_common.h"

#include <algorithm>

#include "frameworks/streamgraph/benchmarks/source_sink.h"
#include "harness/dialect/dialect.h"

namespace harness::streamgraph::kernels {
// clang-format off
#include "frameworks/streamgraph/kernels/sg_work.clh"
#include "frameworks/streamgraph/kernels/bitonic.clh"
// clang-format on
}  // namespace harness::streamgraph::kernels

namespace harness::streamgraph {

FilterSpec compare_exchange(bool ascending) {
  FilterSpec f = kernel_filter<float>(
      ascending ? "cmp_up" : "cmp_down", 2, 2, 2, SG_KERNEL(sg_compare_exchange),
      "frameworks/streamgraph/kernels/bitonic.clh", {ascending ? 1u : 0u});
  f.cost = 4;
  return f;
}

std::function<std::vector<double>(std::uint64_t)> sorted_block_reference(std::uint64_t seed,
                                                                         int n) {
  return [seed, n](std::uint64_t block) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = input_f32(seed, block * v.size() + i);
    std::sort(v.begin(), v.end());
    return v;
  };
}

bool is_power_of_two(int n) { return n >= 2 && (n & (n - 1)) == 0; }

}  // namespace harness::streamgraph
