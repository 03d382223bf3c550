#include "frameworks/streamgraph/cost_model.h"

#include <algorithm>
#include <limits>

namespace harness::streamgraph {

double CostModel::firing_ops(NodeId v) const {
  const Node& n = g_.node(v);
  if (n.kind == NodeKind::filter) {
    return n.filter.cost > 0 ? n.filter.cost : static_cast<double>(n.filter.peek + n.filter.push);
  }
  double items = 0;
  for (int w : n.weights) items += w;
  return items;
}

UnitCost CostModel::gpu_cost(const std::vector<NodeId>& nodes) const {
  UnitCost c;
  if (nodes.empty()) {
    c.fits = true;
    return c;
  }
  std::vector<NodeId> sorted = nodes;
  std::sort(sorted.begin(), sorted.end());
  auto inside = [&](NodeId v) { return std::binary_search(sorted.begin(), sorted.end(), v); };
  auto index = [&](NodeId v) {
    return static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), v) -
                                    sorted.begin());
  };
  // S: the firings of one execution that can run at once, i.e. the widest
  // level (longest path from the unit's inputs) counting each node's repetitions.
  std::vector<std::pair<int, NodeId>> by_position;
  for (NodeId v : sorted) by_position.emplace_back(s_.position[static_cast<std::size_t>(v)], v);
  std::sort(by_position.begin(), by_position.end());
  std::vector<int> depth(sorted.size(), 0);
  std::vector<std::int64_t> width;
  for (const auto& [pos, v] : by_position) {
    int d = 0;
    for (ChannelId ch : g_.node(v).inputs) {
      const NodeId src = g_.channel(ch).src;
      if (inside(src)) d = std::max(d, depth[index(src)] + 1);
    }
    depth[index(v)] = d;
    if (width.size() <= static_cast<std::size_t>(d))
      width.resize(static_cast<std::size_t>(d) + 1, 0);
    width[static_cast<std::size_t>(d)] += s_.repetitions[static_cast<std::size_t>(v)];
  }
  c.threads_per_execution = std::clamp<std::int64_t>(*std::max_element(width.begin(), width.end()),
                                                     1, d_.max_threads_per_sm);
  for (NodeId v : sorted) {
    const auto reps = s_.repetitions[static_cast<std::size_t>(v)];
    c.work_ops += static_cast<double>(reps) * firing_ops(v);
    const Node& n = g_.node(v);
    for (ChannelId ch : n.inputs) {
      if (!inside(g_.channel(ch).src))
        c.io_bytes += s_.channels[static_cast<std::size_t>(ch)].capacity_bytes;
    }
    for (ChannelId ch : n.outputs) {
      if (!inside(g_.channel(ch).dst))
        c.io_bytes += s_.channels[static_cast<std::size_t>(ch)].capacity_bytes;
    }
  }
  c.working_set_bytes = peak_live_bytes(g_, s_, sorted);
  c.shared_bytes = c.working_set_bytes + c.io_bytes;
  const auto by_memory = static_cast<std::int64_t>(d_.shared_bytes_per_sm /
                                                   std::max<std::uint64_t>(c.shared_bytes, 1));
  const std::int64_t by_threads = d_.max_threads_per_sm / c.threads_per_execution;
  c.executions_per_sm = std::min(by_memory, by_threads);
  c.fits = c.executions_per_sm >= 1;
  if (!c.fits) {
    c.time_ns = std::numeric_limits<double>::infinity();
    return c;
  }
  const double e = static_cast<double>(c.executions_per_sm);
  const double util =
      std::min(1.0, e * static_cast<double>(c.threads_per_execution) / d_.threads_to_saturate_sm);
  c.time_ns = c.work_ops / (d_.ops_per_ns_per_sm * d_.sms * util) +
              static_cast<double>(c.io_bytes) / d_.dram_bytes_per_ns +
              d_.round_overhead_ns / (e * d_.sms) + d_.partition_overhead_ns;
  return c;
}

}  // namespace harness::streamgraph
