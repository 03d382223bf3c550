// Mapping partitions onto G GPUs (section 6.1): stateful (CPU) partitions
// are pre-mapped to CPU threads of their own; the GPU partitions are split
// k-way over the GPUs, balancing their estimated times T while cutting as
// few channel bytes as possible (each channel between devices is staged
// through host memory, so each GPU pays its side of the copy over the host
// link). Deterministic:
// The weights are T unless the caller passes its own (measured kernel times).
//  1. greedy: partitions by decreasing T; each goes to the GPU it exchanges
//     the most bytes with among those whose load stays within the bound
//     B = total T / G + largest T (the least loaded GPU always qualifies, so
//     the bound always holds), ties to the less loaded, then lower index;
//  2. refinement: single moves that lower the estimated time of a
//     steady-state execution, max over GPUs of (load + its host-link time),
//     or keep it and cut fewer bytes, never breaking the bound.
#pragma once

#include <cstdint>
#include <vector>

#include "frameworks/streamgraph/partition.h"

namespace harness::streamgraph {

struct Mapping {
  int gpus = 0;
  std::vector<int> gpu_of_partition;         // -1 for CPU partitions
  std::vector<int> cpu_thread_of_partition;  // -1 for GPU partitions
  std::vector<double> gpu_load_ns;           // sum of T of each GPU's partitions
  std::vector<double> gpu_transfer_ns;       // host-link time of each GPU's crossing channels
  std::uint64_t cut_bytes = 0;  // per execution, between partitions on different devices
  double balance_bound_ns = 0;  // B: no GPU's load exceeds it
  double estimated_ns = 0;      // max over GPUs of load + transfer
};

// Throws harness::UsageError when gpus < 1. The weights are the partitions'
// estimated times T (Partition::cost.time_ns).
Mapping map_partitions(const Graph& g, const Schedule& s, const Partitioning& p, int gpus,
                       const DeviceLimits& d);
// The same with a weight per partition in ns an execution (entries of CPU
// partitions ignored), e.g. kernel times measured on the device
// (calibration.h); UsageError when their count or a value is off.
Mapping map_partitions(const Graph& g, const Schedule& s, const Partitioning& p, int gpus,
                       const DeviceLimits& d, const std::vector<double>& weight_ns);

}  // namespace harness::streamgraph
