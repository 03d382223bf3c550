// Running stream graphs with GPU partitions (section 6): the partitions of a
// Partitioning (multilevel or single), cut further where code generation
// needs it (codegen.h: split_for_codegen), each compiled at run time into one
// kernel (OpenCL build, NVRTC on CUDA; programs cached by the device per
// source), placed on G GPUs as the mapper (mapper.h) puts their partitions,
// and run in the pipeline (pipeline.h): one host thread per GPU that has
// pieces (it makes its device current; its pieces time multiplexed on it),
// plus one thread per CPU partition (stateful filters). One GPU is the case
// G = 1. Channels between pieces on one GPU stay in device memory (a device
// copy out of the producer's buffer, one into the consumer's) unless the
// consumer peeks across executions (a host FIFO then keeps the window); a
// channel between two GPUs is staged in host memory (the paper's FIFO) or, with ChannelMode::p2p,
// copied device to device (peer_channel.h) where the backend can and the
// consumer does not peek across executions, else staged on the host
// (counted in ChannelRoutes::fallback). Level 2: each block of executions is
// split into `streams` fragments, each on its own queue of its GPU (copy in,
// kernel, copy out), so copies of one fragment overlap the kernel of another.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/streamgraph/codegen.h"
#include "frameworks/streamgraph/device_limits.h"
#include "frameworks/streamgraph/mapper.h"
#include "frameworks/streamgraph/partition.h"
#include "frameworks/streamgraph/pipeline.h"
#include "harness/backend/backend.h"

namespace harness::streamgraph {

// The partitioner's view of an opened device: the H200 preset's rates with
// the device's SM count, warp size and the local memory one work-group may
// use (CUDA: up to the opt-in limit), or `shared_bytes` when not 0.
DeviceLimits device_limits(const backend::DeviceInfo& info, std::uint64_t shared_bytes = 0);
CodegenTarget codegen_target(const backend::DeviceInfo& info, std::uint64_t shared_bytes = 0);

// How channels between pieces on different GPUs travel.
enum class ChannelMode { host, p2p };
// "host" or "p2p"; UsageError for anything else.
ChannelMode parse_channel_mode(const std::string& name);

struct GpuRunOptions {
  CodegenTarget target;  // codegen_target(device info, shared-memory override)
  // The previous work's single partition: a GPU partition whose exact layout
  // does not fit is 'no solution' (SkipPoint) instead of being cut.
  bool single = false;
  int streams = 4;                           // level-2 fragments (queues) per block
  std::int64_t max_block = 256;              // executions per block (buffers are sized for it)
  std::string dump_dir;                      // non-empty: write each generated source there
  int build_threads = 0;                     // pieces compiled at once (0: one per hardware thread)
  std::string name;                          // names the programs, e.g. "Bitonic-n8-multi"
  ChannelMode channels = ChannelMode::host;  // channels between GPUs
  // Channels between pieces on one GPU stay in device memory (section 6.1);
  // false stages them through host FIFOs like channels between GPUs.
  bool device_channels = true;
  std::size_t queue_blocks = 4;  // PipelineOptions::queue_blocks of the runs (p2p buffer pools)
};

// The channels between pieces that sit on different GPUs.
struct ChannelRoutes {
  int same_gpu_device = 0;   // channels between pieces on one GPU, kept in device memory
  int same_gpu_host = 0;     // the same, staged through the host (consumer peeks, or asked for)
  int crossing = 0;          // channels between GPUs
  int p2p = 0;               // copied device to device
  int host = 0;              // staged in host memory (asked for, or fallback)
  int fallback = 0;          // p2p asked for but staged on the host (the reasons below)
  int fallback_no_peer = 0;  // the backend cannot copy between the two devices
  int fallback_peek = 0;     // the consumer peeks across executions (initial items)
  // The slowest path a p2p channel takes: direct (peer access), driver
  // (CUDA staging through the host), same-device (logical GPUs of one device).
  backend::PeerCopy path = backend::PeerCopy::none;
  std::uint64_t crossing_bytes_per_execution = 0;
};

// What one GPU did, accumulated over runs since construction or reset_stats().
// Device times are summed over the GPU's queues (fragments overlap, so they
// can exceed the wall time); host times are its thread's.
struct GpuStats {
  int pieces = 0;
  double kernel_ms = 0;   // device: kernels
  double h2d_ms = 0;      // device: host-to-device copies
  double d2h_ms = 0;      // device: device-to-host copies
  double channel_ms = 0;  // device: copies into and out of channels between this GPU's pieces
  double p2p_ms = 0;      // device: copies into another GPU and out of landing buffers
  double staging_ms = 0;  // host: packing inputs into pinned buffers, appending outputs
  double wait_ms = 0;     // host: waiting for the queues
  std::uint64_t h2d_bytes = 0, d2h_bytes = 0, p2p_bytes = 0;
  std::uint64_t channel_bytes = 0;  // written into channels between this GPU's pieces
};

// The compiled GPU side of a graph on one device, reusable across runs of
// graphs with the same structure (a benchmark rebuilt with fresh source and sink).
class GpuGraph {
 public:
  // Generates and builds one kernel per GPU piece, on the GPU `mapping`
  // gives its partition; `gpus[i]` is logical GPU i (a device may appear
  // several times: each logical GPU has its own thread, queues and buffers).
  // Throws UsageError when a piece does not fit or the mapping does not match,
  // KernelBuildError (with the compiler log) when a generated kernel does not build.
  GpuGraph(const std::vector<backend::Device*>& gpus, const Graph& g, const Schedule& s,
           const Partitioning& p, const Mapping& mapping, const GpuRunOptions& options);
  // One GPU: every GPU partition on `device`.
  GpuGraph(backend::Device& device, const Graph& g, const Schedule& s, const Partitioning& p,
           const GpuRunOptions& options);
  ~GpuGraph();
  GpuGraph(const GpuGraph&) = delete;
  GpuGraph& operator=(const GpuGraph&) = delete;

  // The pipeline plan: stages 0.. are the threads of the GPUs that have
  // pieces (in GPU order); CPU partitions get a thread each after them.
  PipelinePlan plan();

  int gpu_pieces() const;
  int gpus() const;                       // logical GPUs
  int gpus_used() const;                  // those with pieces
  std::vector<int> gpu_of_piece() const;  // per piece (kernels() order)
  std::vector<int> partition_of_piece() const;
  // Per piece: the logical GPU whose stage thread last ran it in a pipeline
  // (-1: not run there yet).
  std::vector<int> ran_on() const;
  const ChannelRoutes& routes() const;
  std::vector<GpuStats> stats() const;  // per logical GPU
  // Per piece (kernels() order): device time of its kernels, summed over its
  // fragments, since construction or reset_stats().
  std::vector<double> piece_kernel_ms() const;
  void reset_stats();
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
