#include "frameworks/streamgraph/partition.h"

#include <algorithm>
#include <numeric>

#include "harness/core/errors.h"

namespace harness::streamgraph {

namespace {

// Seeded, platform-independent shuffles (std::shuffle differs between libraries).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t x = (state_ += 0x9e3779b97f4a7c15ull);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[next() % i]);
  }

 private:
  std::uint64_t state_;
};

std::vector<int> iota_vector(std::size_t n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// A gain counts only above rounding noise.
bool better(double gain, double best, double scale) { return gain > best + 1e-9 * scale; }

// Units (sets of nodes) of one coarsening level, merged pairwise into the next.
struct Level {
  std::vector<std::vector<NodeId>> units;
  std::vector<int> unit_of_node;
};

class Multilevel {
 public:
  Multilevel(const Graph& g, const Schedule& s, const CostModel& model,
             const PartitionOptions& options)
      : g_(g), s_(s), model_(model), random_(options.seed) {}

  Partitioning run(bool refine) {
    Level base;
    base.unit_of_node = iota_vector(static_cast<std::size_t>(g_.node_count()));
    for (NodeId v = 0; v < g_.node_count(); ++v) {
      base.units.push_back({v});
      if (g_.node(v).stateful()) continue;
      const UnitCost c = model_.gpu_cost({v});
      if (!c.fits) {
        throw UsageError("stream graph: operator '" + g_.node(v).name + "' needs " +
                         std::to_string(c.shared_bytes) +
                         " bytes of shared memory for one execution (working set " +
                         std::to_string(c.working_set_bytes) + " + double buffer " +
                         std::to_string(c.io_bytes) + "), more than the " +
                         std::to_string(model_.device().shared_bytes_per_sm) + " of one SM of " +
                         model_.device().name + ": no partition can hold it");
      }
    }
    levels_.push_back(std::move(base));
    while (coarsen()) {
    }

    // The coarsest units are the initial partitions.
    const Level& top = levels_.back();
    part_of_node_.assign(static_cast<std::size_t>(g_.node_count()), -1);
    for (std::size_t u = 0; u < top.units.size(); ++u) {
      for (NodeId v : top.units[u])
        part_of_node_[static_cast<std::size_t>(v)] = static_cast<int>(u);
      parts_.push_back(top.units[u]);
      part_cpu_.push_back(is_stateful_unit(top.units[u]));
      part_cost_.push_back(part_cpu_.back() ? UnitCost{} : model_.gpu_cost(top.units[u]));
    }
    if (refine) {
      for (std::size_t level = levels_.size() - 1; level-- > 0;) refine_level(levels_[level]);
    }
    return result();
  }

 private:
  bool is_stateful_unit(const std::vector<NodeId>& unit) const {
    return unit.size() == 1 && g_.node(unit[0]).stateful();
  }

  // One coarsening level; false when nothing merged.
  bool coarsen() {
    const Level& level = levels_.back();
    const std::size_t k = level.units.size();
    cluster_of_node_ = level.unit_of_node;
    cluster_nodes_ = level.units;
    min_pos_.assign(k, 0);
    for (std::size_t u = 0; u < k; ++u) min_pos_[u] = min_position(level.units[u]);
    std::vector<char> matched(k, 0);
    std::vector<char> stateful(k, 0);
    std::vector<UnitCost> cost(k);
    for (std::size_t u = 0; u < k; ++u) {
      stateful[u] = is_stateful_unit(level.units[u]);
      if (!stateful[u]) cost[u] = model_.gpu_cost(level.units[u]);
    }
    bool merged = false;
    std::vector<int> order = iota_vector(k);
    random_.shuffle(order);
    for (int v : order) {
      const auto vi = static_cast<std::size_t>(v);
      if (matched[vi] || stateful[vi]) continue;
      int best = -1;
      double best_gain = 0;
      for (int w : neighbour_clusters(v)) {
        const auto wi = static_cast<std::size_t>(w);
        if (matched[wi] || stateful[wi]) continue;  // unmatched: still the level's unit w alone
        std::vector<NodeId> joined = level.units[vi];
        joined.insert(joined.end(), level.units[wi].begin(), level.units[wi].end());
        const UnitCost c = model_.gpu_cost(joined);
        if (!c.fits) continue;
        const double gain = cost[vi].time_ns + cost[wi].time_ns - c.time_ns;
        if (!better(gain, best_gain, cost[vi].time_ns + cost[wi].time_ns)) continue;
        if (reaches_through_others(v, w) || reaches_through_others(w, v)) continue;
        best = w;
        best_gain = gain;
      }
      if (best < 0) continue;
      const auto bi = static_cast<std::size_t>(best);
      for (NodeId x : cluster_nodes_[bi]) cluster_of_node_[static_cast<std::size_t>(x)] = v;
      cluster_nodes_[vi].insert(cluster_nodes_[vi].end(), cluster_nodes_[bi].begin(),
                                cluster_nodes_[bi].end());
      cluster_nodes_[bi].clear();
      min_pos_[vi] = std::min(min_pos_[vi], min_pos_[bi]);
      matched[vi] = matched[bi] = 1;
      merged = true;
    }
    if (!merged) return false;
    Level next;
    std::vector<int> new_index(k, -1);
    for (std::size_t u = 0; u < k; ++u) {
      if (cluster_nodes_[u].empty()) continue;
      new_index[u] = static_cast<int>(next.units.size());
      next.units.push_back(cluster_nodes_[u]);
    }
    next.unit_of_node.resize(cluster_of_node_.size());
    for (std::size_t x = 0; x < cluster_of_node_.size(); ++x) {
      next.unit_of_node[x] = new_index[static_cast<std::size_t>(cluster_of_node_[x])];
    }
    levels_.push_back(std::move(next));
    return true;
  }

  int min_position(const std::vector<NodeId>& nodes) const {
    int p = g_.node_count();
    for (NodeId v : nodes) p = std::min(p, s_.position[static_cast<std::size_t>(v)]);
    return p;
  }

  std::vector<int> neighbour_clusters(int c) const {
    std::vector<int> out;
    for (NodeId x : cluster_nodes_[static_cast<std::size_t>(c)]) {
      const Node& n = g_.node(x);
      for (ChannelId ch : n.inputs)
        out.push_back(cluster_of_node_[static_cast<std::size_t>(g_.channel(ch).src)]);
      for (ChannelId ch : n.outputs)
        out.push_back(cluster_of_node_[static_cast<std::size_t>(g_.channel(ch).dst)]);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    out.erase(std::remove(out.begin(), out.end(), c), out.end());
    return out;
  }

  // Whether the current coarse graph has a path from cluster `from` to `to`
  // through some third cluster (merging them would then close a cycle).
  bool reaches_through_others(int from, int to) {
    int max_pos_to = 0;
    for (NodeId x : cluster_nodes_[static_cast<std::size_t>(to)]) {
      max_pos_to = std::max(max_pos_to, s_.position[static_cast<std::size_t>(x)]);
    }
    // Edges go forward in the firing order: a cluster starting after `to`
    // ends cannot lead to it.
    visited_.assign(cluster_nodes_.size(), 0);
    std::vector<int> stack;
    auto successors = [&](int c, auto&& visit) {
      for (NodeId x : cluster_nodes_[static_cast<std::size_t>(c)]) {
        for (ChannelId ch : g_.node(x).outputs) {
          const int d = cluster_of_node_[static_cast<std::size_t>(g_.channel(ch).dst)];
          if (d != c) visit(d);
        }
      }
    };
    successors(from, [&](int d) {
      if (d == to || visited_[static_cast<std::size_t>(d)]) return;
      if (min_pos_[static_cast<std::size_t>(d)] > max_pos_to) return;
      visited_[static_cast<std::size_t>(d)] = 1;
      stack.push_back(d);
    });
    bool found = false;
    while (!stack.empty() && !found) {
      const int c = stack.back();
      stack.pop_back();
      successors(c, [&](int d) {
        if (d == to) found = true;
        if (found || d == from || visited_[static_cast<std::size_t>(d)]) return;
        if (min_pos_[static_cast<std::size_t>(d)] > max_pos_to) return;
        visited_[static_cast<std::size_t>(d)] = 1;
        stack.push_back(d);
      });
    }
    return found;
  }

  // Greedy boundary refinement of the partitions at one level.
  void refine_level(const Level& level) {
    const std::size_t k = level.units.size();
    std::vector<char> moved(k, 0);
    for (;;) {
      std::vector<int> boundary;
      for (std::size_t u = 0; u < k; ++u) {
        if (!moved[u] && !is_stateful_unit(level.units[u]) &&
            !neighbour_parts(level.units[u]).empty()) {
          boundary.push_back(static_cast<int>(u));
        }
      }
      random_.shuffle(boundary);
      bool any = false;
      for (int u : boundary) {
        if (try_move(level.units[static_cast<std::size_t>(u)])) {
          moved[static_cast<std::size_t>(u)] = 1;
          any = true;
        }
      }
      if (!any) return;
    }
  }

  // GPU partitions other than the unit's own that a channel of the unit reaches.
  std::vector<int> neighbour_parts(const std::vector<NodeId>& unit) const {
    const int own = part_of_node_[static_cast<std::size_t>(unit[0])];
    std::vector<int> out;
    auto add = [&](NodeId y) {
      const int p = part_of_node_[static_cast<std::size_t>(y)];
      if (p != own && !part_cpu_[static_cast<std::size_t>(p)]) out.push_back(p);
    };
    for (NodeId x : unit) {
      for (ChannelId ch : g_.node(x).inputs) add(g_.channel(ch).src);
      for (ChannelId ch : g_.node(x).outputs) add(g_.channel(ch).dst);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  bool try_move(const std::vector<NodeId>& unit) {
    const std::vector<int> dsts = neighbour_parts(unit);
    if (dsts.empty()) return false;
    const auto src = static_cast<std::size_t>(part_of_node_[static_cast<std::size_t>(unit[0])]);
    std::vector<NodeId> src_after;
    for (NodeId x : parts_[src]) {
      if (std::find(unit.begin(), unit.end(), x) == unit.end()) src_after.push_back(x);
    }
    const UnitCost src_cost = model_.gpu_cost(src_after);
    if (!src_cost.fits) return false;
    int best = -1;
    double best_gain = 0;
    UnitCost best_cost;
    for (int dst : dsts) {
      const auto di = static_cast<std::size_t>(dst);
      std::vector<NodeId> dst_after = parts_[di];
      dst_after.insert(dst_after.end(), unit.begin(), unit.end());
      const UnitCost dst_cost = model_.gpu_cost(dst_after);
      if (!dst_cost.fits) continue;
      const double before = part_cost_[src].time_ns + part_cost_[di].time_ns;
      const double gain = before - src_cost.time_ns - dst_cost.time_ns;
      if (!better(gain, best_gain, before)) continue;
      for (NodeId x : unit) part_of_node_[static_cast<std::size_t>(x)] = dst;
      const bool acyclic = partitions_acyclic(g_, part_of_node_);
      for (NodeId x : unit) part_of_node_[static_cast<std::size_t>(x)] = static_cast<int>(src);
      if (!acyclic) continue;
      best = dst;
      best_gain = gain;
      best_cost = dst_cost;
    }
    if (best < 0) return false;
    const auto bi = static_cast<std::size_t>(best);
    for (NodeId x : unit) part_of_node_[static_cast<std::size_t>(x)] = best;
    parts_[src] = std::move(src_after);
    part_cost_[src] = src_cost;
    parts_[bi].insert(parts_[bi].end(), unit.begin(), unit.end());
    part_cost_[bi] = best_cost;
    ++moves_;
    return true;
  }

  Partitioning result() const {
    std::vector<std::size_t> live;
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      if (!parts_[p].empty()) live.push_back(p);
    }
    std::sort(live.begin(), live.end(), [&](std::size_t a, std::size_t b) {
      return min_position(parts_[a]) < min_position(parts_[b]);
    });
    Partitioning out;
    out.partition_of.assign(static_cast<std::size_t>(g_.node_count()), -1);
    for (std::size_t p : live) {
      Partition part;
      part.target = part_cpu_[p] ? Target::cpu : Target::gpu;
      part.nodes = parts_[p];
      std::sort(part.nodes.begin(), part.nodes.end(), [&](NodeId a, NodeId b) {
        return s_.position[static_cast<std::size_t>(a)] < s_.position[static_cast<std::size_t>(b)];
      });
      part.cost = model_.gpu_cost(part.nodes);
      if (part.target == Target::gpu) out.estimated_ns += part.cost.time_ns;
      for (NodeId v : part.nodes)
        out.partition_of[static_cast<std::size_t>(v)] = static_cast<int>(out.partitions.size());
      out.partitions.push_back(std::move(part));
    }
    out.levels = static_cast<int>(levels_.size()) - 1;
    out.moves = moves_;
    return out;
  }

  const Graph& g_;
  const Schedule& s_;
  const CostModel& model_;
  Random random_;
  std::vector<Level> levels_;
  // Coarsening state of the level being built.
  std::vector<int> cluster_of_node_;
  std::vector<std::vector<NodeId>> cluster_nodes_;
  std::vector<int> min_pos_;
  std::vector<char> visited_;
  // Partitions while uncoarsening.
  std::vector<int> part_of_node_;
  std::vector<std::vector<NodeId>> parts_;
  std::vector<char> part_cpu_;
  std::vector<UnitCost> part_cost_;
  int moves_ = 0;
};

}  // namespace

int Partitioning::gpu_partitions() const {
  return static_cast<int>(
      std::count_if(partitions.begin(), partitions.end(),
                    [](const Partition& p) { return p.target == Target::gpu; }));
}

int Partitioning::cpu_partitions() const {
  return static_cast<int>(partitions.size()) - gpu_partitions();
}

Partitioning partition_multilevel(const Graph& g, const Schedule& s, const DeviceLimits& d,
                                  const PartitionOptions& options) {
  const CostModel model(g, s, d);
  return Multilevel(g, s, model, options).run(options.refine);
}

SinglePartitionResult partition_single(const Graph& g, const Schedule& s, const DeviceLimits& d) {
  const CostModel model(g, s, d);
  SinglePartitionResult r;
  Partitioning& out = r.partitioning;
  out.partition_of.assign(static_cast<std::size_t>(g.node_count()), -1);
  Partition gpu;
  for (NodeId v : s.order) {
    if (!g.node(v).stateful()) gpu.nodes.push_back(v);
  }
  // Partitions in firing order: CPU ones before the GPU one where they come first.
  bool gpu_placed = false;
  for (NodeId v : s.order) {
    if (g.node(v).stateful()) {
      Partition cpu;
      cpu.target = Target::cpu;
      cpu.nodes = {v};
      cpu.cost = model.gpu_cost(cpu.nodes);
      out.partition_of[static_cast<std::size_t>(v)] = static_cast<int>(out.partitions.size());
      out.partitions.push_back(std::move(cpu));
    } else if (!gpu_placed) {
      gpu_placed = true;
      for (NodeId x : gpu.nodes)
        out.partition_of[static_cast<std::size_t>(x)] = static_cast<int>(out.partitions.size());
      out.partitions.push_back(gpu);
    }
  }
  if (!gpu_placed) {
    r.reason = "no solution: the graph has no stateless operator";
    return r;
  }
  Partition& placed = out.partitions[static_cast<std::size_t>(
      out.partition_of[static_cast<std::size_t>(gpu.nodes[0])])];
  placed.cost = model.gpu_cost(placed.nodes);
  out.estimated_ns = placed.cost.time_ns;
  if (!placed.cost.fits) {
    r.reason = "no solution: one execution of the whole graph needs " +
               std::to_string(placed.cost.shared_bytes) + " bytes of shared memory, one SM of " +
               d.name + " has " + std::to_string(d.shared_bytes_per_sm);
    return r;
  }
  if (!partitions_acyclic(g, out.partition_of)) {
    r.reason =
        "no solution: a stateful filter lies between stateless operators, so they cannot form one "
        "partition";
    return r;
  }
  r.feasible = true;
  return r;
}

bool is_convex(const Graph& g, const std::vector<NodeId>& nodes) {
  std::vector<char> inside(static_cast<std::size_t>(g.node_count()), 0);
  for (NodeId v : nodes) inside[static_cast<std::size_t>(v)] = 1;
  std::vector<char> seen(inside.size(), 0);
  std::vector<NodeId> stack;
  for (NodeId v : nodes) {
    for (ChannelId ch : g.node(v).outputs) {
      const NodeId w = g.channel(ch).dst;
      if (!inside[static_cast<std::size_t>(w)] && !seen[static_cast<std::size_t>(w)]) {
        seen[static_cast<std::size_t>(w)] = 1;
        stack.push_back(w);
      }
    }
  }
  while (!stack.empty()) {  // everything reachable outside the set
    const NodeId v = stack.back();
    stack.pop_back();
    for (ChannelId ch : g.node(v).outputs) {
      const NodeId w = g.channel(ch).dst;
      if (inside[static_cast<std::size_t>(w)]) return false;  // left the set and came back
      if (!seen[static_cast<std::size_t>(w)]) {
        seen[static_cast<std::size_t>(w)] = 1;
        stack.push_back(w);
      }
    }
  }
  return true;
}

bool partitions_acyclic(const Graph& g, const std::vector<int>& partition_of) {
  int count = 0;
  for (int p : partition_of) count = std::max(count, p + 1);
  std::vector<std::vector<int>> succ(static_cast<std::size_t>(count));
  std::vector<int> indegree(static_cast<std::size_t>(count), 0);
  for (const Channel& c : g.channels()) {
    const int a = partition_of[static_cast<std::size_t>(c.src)];
    const int b = partition_of[static_cast<std::size_t>(c.dst)];
    if (a == b) continue;
    succ[static_cast<std::size_t>(a)].push_back(b);
    ++indegree[static_cast<std::size_t>(b)];
  }
  std::vector<int> ready;
  for (int p = 0; p < count; ++p) {
    if (indegree[static_cast<std::size_t>(p)] == 0) ready.push_back(p);
  }
  int done = 0;
  while (!ready.empty()) {
    const int p = ready.back();
    ready.pop_back();
    ++done;
    for (int q : succ[static_cast<std::size_t>(p)]) {
      if (--indegree[static_cast<std::size_t>(q)] == 0) ready.push_back(q);
    }
  }
  return done == count;
}

}  // namespace harness::streamgraph
