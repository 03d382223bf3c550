// Shared by the executor tests: the sink's verdict, the OpenCL device the
// GPU tests run on, and a local-memory budget that cuts a benchmark into pieces.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/codegen.h"
#include "frameworks/streamgraph/executor_gpu.h"
#include "frameworks/streamgraph/partition.h"
#include "frameworks/streamgraph/schedule.h"
#include "harness/backend/backend.h"
#include "harness/core/errors.h"

namespace harness::streamgraph::testing {

inline std::int64_t sink_items(const Graph& g, const Schedule& s, std::int64_t iterations) {
  for (NodeId v = 0; v < g.node_count(); ++v) {
    if (g.node(v).stateful() && g.node(v).outputs.empty())
      return iterations * s.repetitions[static_cast<std::size_t>(v)] * g.node(v).filter.pop;
  }
  return 0;
}

inline void expect_passed(const Benchmark& b, const Schedule& s, std::int64_t iterations) {
  EXPECT_EQ(b.report->mismatches(), 0u) << b.report->first_mismatch();
  EXPECT_EQ(static_cast<std::int64_t>(b.report->items_checked()),
            sink_items(b.graph, s, iterations));
}

// A GPU when the machine has one (NVIDIA OpenCL beside PoCL on the GPU
// machine), else the first device (PoCL in CI).
inline std::unique_ptr<backend::Device> opencl_device() {
  bool compiled = false;
  for (backend::Kind k : backend::compiled_kinds()) compiled |= k == backend::Kind::opencl;
  if (!compiled) return nullptr;
  const auto devices = backend::list_devices(backend::Kind::opencl);
  if (devices.empty()) return nullptr;
  int index = devices[0].index;
  for (const auto& d : devices) {
    if (d.type == "gpu") {
      index = d.index;
      break;
    }
  }
  return backend::open_device(backend::Kind::opencl, index);
}

// The largest local-memory budget (bytes) at which the multilevel partitions
// and code generation's cuts give at least `pieces` kernels.
inline std::uint64_t budget_for_pieces(const backend::Device& device, const std::string& name,
                                       int n, int pieces) {
  Benchmark b = make_benchmark(name, n);
  const Schedule s = make_schedule(b.graph);
  // From 64 KiB or the device's local memory per work-group, whichever is less
  // (48 KiB on NVIDIA OpenCL).
  const std::uint64_t start = std::min<std::uint64_t>(64 * 1024, device.info().local_memory_bytes);
  for (std::uint64_t budget = start; budget >= 64; budget = budget * 7 / 8) {
    try {
      const Partitioning p = partition_multilevel(b.graph, s, device_limits(device.info(), budget));
      int count = 0;
      for (const Partition& part : p.partitions) {
        if (part.target == Target::gpu)
          count += static_cast<int>(
              split_for_codegen(b.graph, s, part.nodes, codegen_target(device.info(), budget))
                  .size());
      }
      if (count >= pieces) return budget;
    } catch (const UsageError&) {
      return 0;
    }
  }
  return 0;
}

}  // namespace harness::streamgraph::testing
