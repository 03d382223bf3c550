#include "frameworks/streamgraph/mapper.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "harness/core/errors.h"

namespace harness::streamgraph {

namespace {

struct Edge {
  int a;
  int b;
  std::uint64_t bytes;
};

// Channels between partitions, summed per ordered pair.
std::vector<Edge> partition_edges(const Graph& g, const Schedule& s, const Partitioning& p) {
  std::map<std::pair<int, int>, std::uint64_t> sum;
  for (ChannelId c = 0; c < g.channel_count(); ++c) {
    const Channel& ch = g.channel(c);
    const int a = p.partition_of[static_cast<std::size_t>(ch.src)];
    const int b = p.partition_of[static_cast<std::size_t>(ch.dst)];
    if (a != b) {
      sum[{a, b}] +=
          static_cast<std::uint64_t>(s.channels[static_cast<std::size_t>(c)].steady_items) *
          kItemBytes;
    }
  }
  std::vector<Edge> edges;
  for (const auto& [ab, bytes] : sum) edges.push_back(Edge{ab.first, ab.second, bytes});
  return edges;
}

class Evaluation {
 public:
  Evaluation(const std::vector<Edge>& edges, const std::vector<double>& weight, int gpus,
             double link)
      : edges_(edges), weight_(weight), gpus_(gpus), link_(link) {}

  void operator()(const std::vector<int>& gpu_of, Mapping& m) const {
    m.gpu_load_ns.assign(static_cast<std::size_t>(gpus_), 0.0);
    m.gpu_transfer_ns.assign(static_cast<std::size_t>(gpus_), 0.0);
    m.cut_bytes = 0;
    for (std::size_t p = 0; p < gpu_of.size(); ++p) {
      if (gpu_of[p] >= 0) m.gpu_load_ns[static_cast<std::size_t>(gpu_of[p])] += weight_[p];
    }
    for (const Edge& e : edges_) {
      const int ga = gpu_of[static_cast<std::size_t>(e.a)];
      const int gb = gpu_of[static_cast<std::size_t>(e.b)];
      // Two CPU partitions (-1) are distinct threads too, but share host memory: no copy.
      if (ga == gb) continue;
      m.cut_bytes += e.bytes;
      const double ns = static_cast<double>(e.bytes) / link_;
      if (ga >= 0) m.gpu_transfer_ns[static_cast<std::size_t>(ga)] += ns;
      if (gb >= 0) m.gpu_transfer_ns[static_cast<std::size_t>(gb)] += ns;
    }
    m.estimated_ns = 0;
    for (int gpu = 0; gpu < gpus_; ++gpu) {
      m.estimated_ns =
          std::max(m.estimated_ns, m.gpu_load_ns[static_cast<std::size_t>(gpu)] +
                                       m.gpu_transfer_ns[static_cast<std::size_t>(gpu)]);
    }
  }

 private:
  const std::vector<Edge>& edges_;
  const std::vector<double>& weight_;
  int gpus_;
  double link_;
};

}  // namespace

Mapping map_partitions(const Graph& g, const Schedule& s, const Partitioning& p, int gpus,
                       const DeviceLimits& d) {
  std::vector<double> estimate;
  for (const Partition& part : p.partitions) estimate.push_back(part.cost.time_ns);
  return map_partitions(g, s, p, gpus, d, estimate);
}

Mapping map_partitions(const Graph& g, const Schedule& s, const Partitioning& p, int gpus,
                       const DeviceLimits& d, const std::vector<double>& weight_ns) {
  if (gpus < 1)
    throw UsageError("stream graph mapper: needs at least one GPU, got " + std::to_string(gpus));
  const std::size_t count = p.partitions.size();
  if (weight_ns.size() != count)
    throw UsageError("stream graph mapper: " + std::to_string(weight_ns.size()) + " weights for " +
                     std::to_string(count) + " partitions");
  const std::vector<Edge> edges = partition_edges(g, s, p);
  std::vector<double> weight(count, 0.0);
  Mapping m;
  m.gpus = gpus;
  m.gpu_of_partition.assign(count, -1);
  m.cpu_thread_of_partition.assign(count, -1);
  int threads = 0;
  std::vector<int> gpu_parts;
  double total = 0;
  double largest = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (p.partitions[i].target == Target::cpu) {
      m.cpu_thread_of_partition[i] = threads++;
      continue;
    }
    weight[i] = weight_ns[i];
    if (!(weight[i] >= 0) || !std::isfinite(weight[i]))
      throw UsageError("stream graph mapper: partition " + std::to_string(i) + " has weight " +
                       std::to_string(weight[i]) + " (needs a finite value >= 0)");
    total += weight[i];
    largest = std::max(largest, weight[i]);
    gpu_parts.push_back(static_cast<int>(i));
  }
  m.balance_bound_ns = total / gpus + largest;
  // Rounding slack for comparisons against the bound.
  const double slack = 1e-9 * (total + 1);

  // 1. Greedy placement, heaviest first.
  std::stable_sort(gpu_parts.begin(), gpu_parts.end(), [&](int a, int b) {
    return weight[static_cast<std::size_t>(a)] > weight[static_cast<std::size_t>(b)];
  });
  std::vector<double> load(static_cast<std::size_t>(gpus), 0.0);
  for (int part : gpu_parts) {
    const auto pi = static_cast<std::size_t>(part);
    std::vector<std::uint64_t> affinity(static_cast<std::size_t>(gpus), 0);
    for (const Edge& e : edges) {
      const int other = e.a == part ? e.b : (e.b == part ? e.a : -1);
      if (other < 0) continue;
      const int og = m.gpu_of_partition[static_cast<std::size_t>(other)];
      if (og >= 0) affinity[static_cast<std::size_t>(og)] += e.bytes;
    }
    int best = -1;
    for (int gpu = 0; gpu < gpus; ++gpu) {
      const auto gi = static_cast<std::size_t>(gpu);
      if (load[gi] + weight[pi] > m.balance_bound_ns + slack) continue;
      if (best < 0) {
        best = gpu;
        continue;
      }
      const auto bi = static_cast<std::size_t>(best);
      if (affinity[gi] > affinity[bi] || (affinity[gi] == affinity[bi] && load[gi] < load[bi]))
        best = gpu;
    }
    m.gpu_of_partition[pi] = best;
    load[static_cast<std::size_t>(best)] += weight[pi];
  }

  // 2. Refinement by single moves.
  const Evaluation evaluate(edges, weight, gpus, d.host_link_bytes_per_ns);
  evaluate(m.gpu_of_partition, m);
  std::sort(gpu_parts.begin(), gpu_parts.end());
  for (int pass = 0; pass < 100; ++pass) {
    bool improved = false;
    for (int part : gpu_parts) {
      const auto pi = static_cast<std::size_t>(part);
      const int from = m.gpu_of_partition[pi];
      int best = from;
      Mapping best_eval = m;
      for (int gpu = 0; gpu < gpus; ++gpu) {
        if (gpu == from) continue;
        if (m.gpu_load_ns[static_cast<std::size_t>(gpu)] + weight[pi] > m.balance_bound_ns + slack)
          continue;
        m.gpu_of_partition[pi] = gpu;
        Mapping trial = m;
        evaluate(m.gpu_of_partition, trial);
        m.gpu_of_partition[pi] = from;
        const double eps = 1e-9 * (best_eval.estimated_ns + 1);
        const bool faster = trial.estimated_ns < best_eval.estimated_ns - eps;
        const bool leaner = trial.estimated_ns <= best_eval.estimated_ns + eps &&
                            trial.cut_bytes < best_eval.cut_bytes;
        if (faster || leaner) {
          best = gpu;
          best_eval = std::move(trial);
        }
      }
      if (best != from) {
        best_eval.gpu_of_partition[pi] = best;
        m = std::move(best_eval);
        improved = true;
      }
    }
    if (!improved) break;
  }
  return m;
}

}  // namespace harness::streamgraph
