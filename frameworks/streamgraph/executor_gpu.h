// Running stream graphs with GPU partitions (section 6): the partitions of a
// Partitioning (multilevel or single), cut further where code generation
// needs it (codegen.h: split_for_codegen), each compiled at run time into one
// kernel (OpenCL build, NVRTC on CUDA; programs cached by the device per
// source), mapped onto one GPU (all GPU partitions on it, time multiplexed)
// and run in the pipeline (pipeline.h): the GPU's host thread plus one
// thread per CPU partition (stateful filters), channels between partitions
// staged in host memory. Level 2: each block of executions is split into
// `streams` fragments, each on its own queue (copy in, kernel, copy out), so
// copies of one fragment overlap the kernel of another.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/streamgraph/codegen.h"
#include "frameworks/streamgraph/device_limits.h"
#include "frameworks/streamgraph/partition.h"
#include "frameworks/streamgraph/pipeline.h"
#include "harness/backend/backend.h"

namespace harness::streamgraph {

// The partitioner's view of an opened device: the H200 preset's rates with
// the device's SM count, warp size and the local memory one work-group may
// use (CUDA: up to the opt-in limit), or `shared_bytes` when not 0.
DeviceLimits device_limits(const backend::DeviceInfo& info, std::uint64_t shared_bytes = 0);
CodegenTarget codegen_target(const backend::DeviceInfo& info, std::uint64_t shared_bytes = 0);

struct GpuRunOptions {
  CodegenTarget target;  // codegen_target(device info, shared-memory override)
  // The previous work's single partition: a GPU partition whose exact layout
  // does not fit is 'no solution' (SkipPoint) instead of being cut.
  bool single = false;
  int streams = 4;               // level-2 fragments (queues) per block
  std::int64_t max_block = 256;  // executions per block (buffers are sized for it)
  std::string dump_dir;          // non-empty: write each generated source there
  std::string name;              // names the programs, e.g. "Bitonic-n8-multi"
};

// The compiled GPU side of a graph on one device, reusable across runs of
// graphs with the same structure (a benchmark rebuilt with fresh source and sink).
class GpuGraph {
 public:
  // Generates and builds one kernel per GPU piece. Throws UsageError when a
  // piece does not fit, KernelBuildError (with the compiler log) when a
  // generated kernel does not build.
  GpuGraph(backend::Device& device, const Graph& g, const Schedule& s, const Partitioning& p,
           const GpuRunOptions& options);
  ~GpuGraph();
  GpuGraph(const GpuGraph&) = delete;
  GpuGraph& operator=(const GpuGraph&) = delete;

  // The pipeline plan: stage 0 is the GPU's thread; CPU partitions get a thread each.
  PipelinePlan plan();

  int gpu_pieces() const;
  int cpu_partitions() const { return cpu_partitions_; }
  std::vector<GeneratedKernel> kernels() const;
  std::vector<std::string> dumped_files() const { return dumped_; }
  // Full source of piece i as built for this device's backend.
  std::string source(std::size_t i) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<std::vector<NodeId>> cpu_nodes_;
  int cpu_partitions_ = 0;
  std::vector<std::string> dumped_;
};

}  // namespace harness::streamgraph
