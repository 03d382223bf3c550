// Partitioning a stream graph for GPUs (section 5): the multilevel algorithm
// and, as the baseline, the previous work's single partition.
//
// Multilevel (partition_multilevel):
//  - coarsening: level by level, visit the units (nodes of the coarse graph)
//    in a seeded random order and merge each unmatched unit with the
//    unmatched adjacent unit of best gain T(v) + T(w) - T(u) (cost_model.h),
//    if the gain is positive, the merged unit fits an SM's shared memory, and
//    the coarse graph stays acyclic (so every unit is convex). Stateful
//    filters never merge. Stops when a level merges nothing; the units of the
//    coarsest level are the initial partitions (k is not an input).
//  - uncoarsening: project the partitions back level by level; at each level
//    visit the boundary units (with a neighbour in another partition) in
//    random order and move each to the neighbouring partition of best gain
//    T(P(v)) + T(P(u)) - T(P(v)') - T(P(u)'), if positive and both partitions
//    stay within shared memory and acyclic; a moved unit stays put for the
//    rest of the level.
// Stateful filters become CPU partitions of their own, everything else GPU
// partitions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frameworks/streamgraph/cost_model.h"

namespace harness::streamgraph {

enum class Target { gpu, cpu };

struct Partition {
  Target target = Target::gpu;
  std::vector<NodeId> nodes;  // in the schedule's firing order
  UnitCost cost;              // as a GPU partition (CPU partitions: for reference)
};

struct Partitioning {
  // GPU and CPU partitions, ordered by their first node in the firing order.
  std::vector<Partition> partitions;
  std::vector<int> partition_of;  // per node
  double estimated_ns = 0;        // sum of T over the GPU partitions, one execution
  int levels = 0;                 // coarsening levels built (multilevel only)
  int moves = 0;                  // refinement moves made (multilevel only)

  int gpu_partitions() const;
  int cpu_partitions() const;
};

struct PartitionOptions {
  std::uint64_t seed = 1;  // the random visiting orders
  bool refine = true;      // greedy boundary refinement while uncoarsening
};

// Throws harness::UsageError when a stateless operator alone does not fit an
// SM's shared memory (no partitioning can hold it).
Partitioning partition_multilevel(const Graph& g, const Schedule& s, const DeviceLimits& d,
                                  const PartitionOptions& options = {});

// The previous work's mapping: every stateless operator in one GPU partition.
struct SinglePartitionResult {
  bool feasible = false;
  std::string reason;  // why there is no solution
  Partitioning partitioning;
};
SinglePartitionResult partition_single(const Graph& g, const Schedule& s, const DeviceLimits& d);

// Checks used by the partitioner's tests (and handy for a caller's asserts).
// A node set is convex when no path leaves it and comes back.
bool is_convex(const Graph& g, const std::vector<NodeId>& nodes);
// The graph of partitions (an edge where a channel crosses) has no cycle,
// which is stronger than every partition being convex: partitions that each
// run whole executions can then be ordered.
bool partitions_acyclic(const Graph& g, const std::vector<int>& partition_of);

}  // namespace harness::streamgraph
