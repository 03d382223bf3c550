// BitonicRec: the recursive bitonic sort on N floats (N a power of two):
// sort(n) sorts its halves in opposite directions (a round-robin(n/2)
// split-join) and merges; merge(n) compare-exchanges items i and i + n/2 (a
// round-robin(1) split-join of n/2 filters), then merges each half.
// Reference: std::sort.
#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/benchmarks/bitonic_common.h"
#include "frameworks/streamgraph/benchmarks/source_sink.h"
#include "frameworks/streamgraph/structure.h"

namespace harness::streamgraph {

namespace {

Stream merge(int n, bool ascending) {
  if (n == 2) return filter(compare_exchange(ascending));
  std::vector<Stream> pairs;
  for (int j = 0; j < n / 2; ++j) pairs.push_back(filter(compare_exchange(ascending)));
  std::vector<Stream> halves;
  halves.push_back(merge(n / 2, ascending));
  halves.push_back(merge(n / 2, ascending));
  const std::string tag = std::to_string(n);
  std::vector<Stream> stages;
  stages.push_back(
      split_join(round_robin({1}), std::move(pairs), join_round_robin({1}), "clean" + tag));
  stages.push_back(split_join(round_robin({n / 2}), std::move(halves), join_round_robin({n / 2}),
                              "merge_halves" + tag));
  return pipeline(std::move(stages));
}

Stream sort(int n, bool ascending) {
  if (n == 2) return filter(compare_exchange(ascending));
  std::vector<Stream> halves;
  halves.push_back(sort(n / 2, true));
  halves.push_back(sort(n / 2, false));
  std::vector<Stream> stages;
  stages.push_back(split_join(round_robin({n / 2}), std::move(halves), join_round_robin({n / 2}),
                              "sort_halves" + std::to_string(n)));
  stages.push_back(merge(n, ascending));
  return pipeline(std::move(stages));
}

}  // namespace

Benchmark make_bitonic_rec(int n, std::uint64_t seed) {
  Benchmark b;
  b.name = "BitonicRec";
  b.n = n;
  auto report = std::make_shared<SinkReport>();
  b.report = report;
  std::vector<Stream> stages;
  stages.push_back(filter(source_f32(seed)));
  stages.push_back(sort(n, true));
  stages.push_back(filter(checking_sink_f32(static_cast<std::size_t>(n),
                                            sorted_block_reference(seed, n), Tolerance{}, report)));
  b.graph = build_graph(pipeline(std::move(stages)), ItemType::f32);
  return b;
}

}  // namespace harness::streamgraph
