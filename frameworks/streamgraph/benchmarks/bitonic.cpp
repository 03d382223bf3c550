// Bitonic: the iterative bitonic sorting network on N floats (N a power of
// two). Each step pairs item i with item i + d inside blocks of 2d items: a
// round-robin split-join hands each block to a branch, and inside a block a
// round-robin(1) split-join over d compare-exchange filters brings i and
// i + d to the same filter. Reference: std::sort.
#include <algorithm>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/benchmarks/bitonic_common.h"
#include "frameworks/streamgraph/benchmarks/source_sink.h"
#include "frameworks/streamgraph/structure.h"

namespace harness::streamgraph {

namespace {

// One step of the network: distance d, merge blocks of size `merge` (the
// direction alternates from one merge block to the next).
Stream bitonic_step(int n, int merge, int d) {
  const int blocks = n / (2 * d);
  std::vector<Stream> block_streams;
  for (int bi = 0; bi < blocks; ++bi) {
    const bool ascending = ((bi * 2 * d) / merge) % 2 == 0;
    if (d == 1) {
      block_streams.push_back(filter(compare_exchange(ascending)));
      continue;
    }
    std::vector<Stream> pairs;
    for (int j = 0; j < d; ++j) pairs.push_back(filter(compare_exchange(ascending)));
    block_streams.push_back(split_join(round_robin({1}), std::move(pairs), join_round_robin({1}),
                                       "pairs_d" + std::to_string(d)));
  }
  if (blocks == 1) return std::move(block_streams[0]);
  return split_join(round_robin({2 * d}), std::move(block_streams), join_round_robin({2 * d}),
                    "blocks_m" + std::to_string(merge) + "_d" + std::to_string(d));
}

}  // namespace

Benchmark make_bitonic(int n, std::uint64_t seed) {
  Benchmark b;
  b.name = "Bitonic";
  b.n = n;
  auto report = std::make_shared<SinkReport>();
  b.report = report;
  std::vector<Stream> stages;
  stages.push_back(filter(source_f32(seed)));
  for (int merge = 2; merge <= n; merge *= 2) {
    for (int d = merge / 2; d >= 1; d /= 2) stages.push_back(bitonic_step(n, merge, d));
  }
  stages.push_back(filter(checking_sink_f32(static_cast<std::size_t>(n),
                                            sorted_block_reference(seed, n), Tolerance{}, report)));
  b.graph = build_graph(pipeline(std::move(stages)), ItemType::f32);
  return b;
}

}  // namespace harness::streamgraph
