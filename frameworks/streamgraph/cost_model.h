// The partitioner's estimate T of a GPU partition's time, driven by its
// shared-memory need (section 5.3): the need fixes how many executions of
// the partition fit on an SM at once, that fixes how busy the SM is, and a
// less busy SM takes longer for the same work. Per steady-state execution,
// on the whole GPU:
//
//   need   = working set (peak live channel bytes, schedule.h) + double
//            buffer (the partition's input and output channels, which the
//            memory threads fill and drain while the compute threads work)
//   e      = min(shared bytes per SM / need, max threads per SM / S)
//            where S, the threads of one execution, is the data parallelism
//            inside it: the most firings at one depth of the partition
//            (parallel split-join branches, repeated firings of a filter)
//   util   = min(1, e S / threads that saturate an SM)
//   T      = work / (ops rate x SMs x util)       compute
//          + io bytes / DRAM rate                 inputs and outputs in global memory
//          + round overhead / (e x SMs)           one barrier and swap per round of e executions
//
// Merging two partitions removes the traffic of the channels between them
// and one partition's rounds, but grows the need, which lowers e and so util.
// Fragmentation of the shared-memory layout is not counted (the paper's
// estimate does not either); code generation computes the exact layout.
#pragma once

#include <cstdint>
#include <vector>

#include "frameworks/streamgraph/device_limits.h"
#include "frameworks/streamgraph/graph.h"
#include "frameworks/streamgraph/schedule.h"

namespace harness::streamgraph {

struct UnitCost {
  std::uint64_t working_set_bytes = 0;
  std::uint64_t io_bytes = 0;      // channels crossing the unit's boundary, one execution
  std::uint64_t shared_bytes = 0;  // working set + double buffer: must fit one SM
  double work_ops = 0;
  std::int64_t threads_per_execution = 1;  // S
  std::int64_t executions_per_sm = 0;      // e; 0 when one execution does not fit
  bool fits = false;
  double time_ns = 0;  // T; infinite when it does not fit
};

class CostModel {
 public:
  CostModel(const Graph& g, const Schedule& s, const DeviceLimits& d) : g_(g), s_(s), d_(d) {}

  // The cost of `nodes` (any order) as one GPU partition.
  UnitCost gpu_cost(const std::vector<NodeId>& nodes) const;
  // Operations of one firing (FilterSpec::cost, else peek + push; items moved for splitters and
  // joiners).
  double firing_ops(NodeId v) const;

  const Graph& graph() const { return g_; }
  const Schedule& schedule() const { return s_; }
  const DeviceLimits& device() const { return d_; }

 private:
  const Graph& g_;
  const Schedule& s_;
  DeviceLimits d_;
};

}  // namespace harness::streamgraph
