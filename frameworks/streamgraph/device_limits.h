// What the partitioner and the mapper know of the target GPU: its limits and
// the few rates the time estimate T uses. Presets for the paper's C2070 and
// for an H200; a caller may change any field (tests vary the shared memory).
#pragma once

#include <cstdint>
#include <string>

namespace harness::streamgraph {

struct DeviceLimits {
  std::string name;
  std::uint64_t shared_bytes_per_sm = 0;  // the constraint on one execution of a GPU partition
  int sms = 0;
  int max_threads_per_sm = 0;
  int warp_size = 32;
  // Resident threads at which an SM's pipelines are kept busy; fewer leave
  // them partly idle (the utilization in T).
  int threads_to_saturate_sm = 0;
  double ops_per_ns_per_sm = 0;       // float operations
  double dram_bytes_per_ns = 0;       // global memory (GB/s)
  double host_link_bytes_per_ns = 0;  // host <-> GPU copies (GB/s), for the mapper
  // One barrier + WS/DB swap per round of parallel executions on an SM.
  double round_overhead_ns = 0;
  // What being a partition costs an execution: its kernel launches, the
  // hand-over between pieces and the device copies of its channels. 0 in
  // the presets (the paper's T has no such term); measured on an H100 at
  // 130-150 ns on CUDA and about 230 ns on OpenCL (frameworks/streamgraph/
  // README.md). Set through the gpu variants' `partition_ns`.
  double partition_overhead_ns = 0;

  static DeviceLimits c2070();  // the paper's Tesla C2070 (Fermi)
  static DeviceLimits h200();
  // The preset with another shared-memory size per SM.
  DeviceLimits with_shared_bytes(std::uint64_t bytes) const {
    DeviceLimits d = *this;
    d.shared_bytes_per_sm = bytes;
    return d;
  }
};

inline DeviceLimits DeviceLimits::c2070() {
  DeviceLimits d;
  d.name = "Tesla C2070";
  d.shared_bytes_per_sm = 48 * 1024;
  d.sms = 14;
  d.max_threads_per_sm = 1536;
  d.threads_to_saturate_sm = 768;
  d.ops_per_ns_per_sm = 32 * 1.15;
  d.dram_bytes_per_ns = 144;
  d.host_link_bytes_per_ns = 6;
  d.round_overhead_ns = 1000;
  return d;
}

inline DeviceLimits DeviceLimits::h200() {
  DeviceLimits d;
  d.name = "H200";
  d.shared_bytes_per_sm = 228 * 1024;
  d.sms = 132;
  d.max_threads_per_sm = 2048;
  d.threads_to_saturate_sm = 1024;
  d.ops_per_ns_per_sm = 128 * 1.98;
  d.dram_bytes_per_ns = 4800;
  d.host_link_bytes_per_ns = 55;
  d.round_overhead_ns = 500;
  return d;
}

}  // namespace harness::streamgraph
