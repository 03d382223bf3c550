// The memory family: the memory-hierarchy characterization of the thesis'
// section 5.1 (figures 5.1, 5.4-5.7, 5.13) as PointRunners, and the ceiling
// probes that need kernels. See micro/memory/README.md for the figures, the
// access patterns and what each number means.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/core/registry.h"
#include "micro/common/params.h"

namespace harness::memory {

// Registers the apps (l2-read, dram-read, dram-copy, shared-read, byte-scan),
// the variants memory/l2, memory/dram, memory/copy, memory/shared,
// memory/scan-line (opencl, cuda), memory/scan-l1, memory/scan-nol1 (cuda) and
// the ceiling probes.
// Idempotent.
void register_family();

// Registers the ceiling probes dram_read, l2_read, shared_read,
// atomic_add_same and atomic_add_distinct (harness/core/ceilings.h). Idempotent.
void register_probes();

// ---- closed forms of the checksums (memory_sums.cpp)

// sum_{i < n} floor((a * i + b) / m), exact; n < 2^32, 1 <= m < 2^32.
std::uint64_t floor_sum(std::uint64_t n, std::uint64_t m, std::uint64_t a, std::uint64_t b);
// sum_{i < n} ((start + i * stride) mod modulus), modulo 2^32: the sum of the
// unit indices a walk of `n` steps visits; start, stride < modulus < 2^32.
std::uint32_t walk_sum(std::uint64_t start, std::uint64_t stride, std::uint64_t modulus,
                       std::uint64_t n);
// The checksum memory_global_read4 writes for a work-item whose walk over 16-byte
// words starts at word `start`, when word w holds the u32s 4v..4v+3 with v =
// (w - shift) mod modulus (memory_fill_index's buffer: shift 0; memory/copy's
// destination: its offset): each word adds 16v + 6, modulo 2^32.
std::uint32_t read4_sum(std::uint64_t start, std::uint64_t stride, std::uint64_t modulus,
                        std::uint64_t steps, std::uint64_t shift = 0);

// Exact comparison of per-work-item checksums (micro/common/params.h): "" when
// equal, else the count of differences and the first three.
using micro::compare_checksums;

// ---- points (memory_points.cpp)

// What every memory point shares: one kernel timed in phase "kernel", one u32
// checksum per work-item read back in phase "copy_out", validated exactly
// against the host's closed form and for sane rates (positive, finite). A
// point whose kernel does not write checksums (memory/copy) computes them
// from its output with a second kernel, in phase "checksum" between the two.
class KernelPoint : public PointRunner {
 public:
  explicit KernelPoint(const PointContext& ctx);
  // With the work-groups decided by the point (`groups` "0" meaning something
  // other than one per compute unit).
  KernelPoint(const PointContext& ctx, std::uint32_t groups);
  void before_repetition() override;  // poisons the checksums (all ones)
  Measurement run_once() override;
  std::string validate_last() override;
  // `work-item<TAB>checksum` lines.
  void dump_output(std::ostream& out) const override;

  // For tests: flips a bit of one expected checksum, so validation must fail.
  void corrupt_expected(std::size_t index) { expected_.at(index) ^= 1u; }
  // Device time of the last run's kernel, ms.
  double last_kernel_ms() const { return kernel_ms_; }
  std::uint64_t threads() const { return std::uint64_t{groups_} * group_size_; }
  // Bytes the last run's kernel moved at its memory level (delivered to the
  // SMs) and bytes the work-items used. work() declares them over phase
  // "kernel" as the level's traffic (rate "<level>@kernel", a fraction of the
  // level's ceiling) and as items "bytes_delivered" and "bytes_used" (rates of
  // the same names, in G/s = GB/s, alike for every variant).
  virtual std::uint64_t delivered_bytes() const = 0;
  virtual std::uint64_t used_bytes() const = 0;

 protected:
  virtual void launch(backend::Queue& q) = 0;
  // The checksum kernel of phase "checksum", writing d_out_; only called when
  // has_checksum_kernel().
  virtual bool has_checksum_kernel() const { return false; }
  virtual void launch_checksum(backend::Queue& /*q*/) {}
  // Point-level facts recorded as counters (threads, steps, working set ...).
  virtual void add_counters(Measurement& m) const = 0;
  // Allocates the checksum buffer (one u32 per work-item of `launch`, or
  // `checksums` of them); the subclass fills expected_.
  void allocate_output(std::uint64_t checksums = 0);

  backend::Device& device_;
  std::uint32_t group_size_;
  std::uint32_t groups_;
  std::vector<std::uint32_t> expected_;
  std::vector<std::uint32_t> got_;
  backend::Buffer d_out_;
  double kernel_ms_ = 0;
};

// For tests: makes memory/copy's point `copy_point` copy `words` 16-byte words
// fewer than it declares from its next run on (all of them: no copy at all),
// leaving the rest of the destination as the run before left it, for another
// offset: validation must fail. UsageError for any other point.
void short_copy_for_tests(PointRunner& copy_point, std::uint64_t words);

// ---- sizes chosen for the device (memory_points.cpp)

// The sizes a parameter of "0" stands for, by device type: a GPU gets sizes
// that run each point for about a millisecond and keep the working sets where
// they belong (L2: a quarter of it; DRAM: 8 times it, also each of
// memory/copy's two buffers); other devices (PoCL) get tiny ones.
struct AutoSizes {
  std::uint64_t l2_working_set;
  std::uint64_t dram_working_set;  // memory/dram's, and each of memory/copy's buffers
  std::uint64_t scan_input;
  std::uint32_t global_steps;
  std::uint32_t shared_steps;
};
AutoSizes auto_sizes(const backend::DeviceInfo& info);

}  // namespace harness::memory
