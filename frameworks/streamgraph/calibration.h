// Measured partition weights for the mapper. The paper's mapper balances the
// partitions' estimated times T (cost_model.h); on an H100/H200 T and the
// kernels' measured times disagree (fig7: MatrixMult3 N = 20 on two GPUs,
// estimated loads 160 and 189 against measured kernel times 389 and 274 ms),
// and T's absolute scale is far below the host-link term the mapper adds, so
// the mapper keeps partitions together instead of balancing them. Measuring
// each partition's kernels once, every GPU partition on one device, gives
// weights in the same unit as that term (ns an execution).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "frameworks/streamgraph/executor_gpu.h"
#include "frameworks/streamgraph/graph.h"

namespace harness::streamgraph {

struct PartitionTimes {
  std::vector<double> ns_per_execution;  // per partition; 0 for CPU partitions
  double run_ms = 0;                     // wall time of the measured run
  std::int64_t executions = 0;           // of the measured run
  // Host staging of the channels between the GPU and the host threads (the
  // stateful source and sink), bytes per ns of the GPU thread's staging:
  // (h2d + d2h bytes) / staging time. A channel between two GPUs staged on
  // the host pays this on each side, far below the copy rate (0: nothing
  // was staged).
  double staging_bytes_per_ns = 0;
};

// Builds graph `g`'s kernels with every GPU partition of `p` on `device`
// and runs graphs of the same structure from `fresh` (a new runnable
// instance each call: its source and sink hold state): one warm-up run, then
// one measured run of `executions` steady-state executions in blocks of
// `batch`. Each partition's weight is the device time of its pieces' kernels
// over the measured run, divided by `executions`.
PartitionTimes measure_partition_times(backend::Device& device, const Graph& g,
                                       const std::function<Graph()>& fresh, const Schedule& s,
                                       const Partitioning& p, const GpuRunOptions& options,
                                       std::int64_t executions, std::int64_t batch);

}  // namespace harness::streamgraph
