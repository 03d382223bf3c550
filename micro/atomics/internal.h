// Pieces the atomics family's files share (not for other families).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/core/registry.h"
#include "micro/atomics/atomics.h"
#include "micro/common/params.h"

namespace harness::atomics {

// The portable program (kernels/path.cl, kernels/atomics.cl; OpenCL and CUDA).
backend::ProgramSource portable_program();

// The wavefront width of a point: the `wave` parameter, 0 meaning the
// device's warp size (32 where the device does not say).
std::uint32_t resolve_wave(const backend::DeviceInfo& info, std::uint32_t wave);

// The launch facts every atomics point starts from: group size, requesting
// groups, wavefront, and why the combination cannot run ("" when it can).
struct Shape {
  std::uint32_t group_size = 0, groups = 0, wave = 0;
  std::string skip;
  std::uint64_t threads() const { return std::uint64_t{group_size} * groups; }
};
Shape point_shape(const PointContext& ctx);

// The software atomic's state on the device (swatomic.clh): one 64-bit
// request word per requesting wavefront, a finished flag per work-group, two
// status words; the coordinator's local scratch; the spin bound.
class SoftwareAtomic {
 public:
  SoftwareAtomic(backend::Device& device, const Shape& shape);
  // Zeroes the state (untimed, before every run).
  void reset(backend::Queue& q);
  // Queues the read of the status words (with the run's read-back).
  void read_status(backend::Queue& q);
  // After read_status and the queue's finish: "" or why the result cannot be
  // trusted (a wait gave up).
  std::string problem() const;
  backend::LaunchShape launch_shape() const { return {groups_ + 1, group_size_}; }
  std::size_t scratch_bytes() const { return scratch_bytes_; }
  std::uint32_t spin_limit() const { return spin_limit_; }
  std::uint32_t wave() const { return wave_; }
  backend::Buffer& slots() { return slots_; }
  backend::Buffer& finished() { return finished_; }
  backend::Buffer& status_words() { return status_; }

 private:
  std::uint32_t group_size_, groups_, wave_, spin_limit_;
  std::size_t scratch_bytes_;
  backend::Buffer slots_, finished_, status_;
  std::uint32_t words_[2] = {0, 0};
};

// Appends the software atomic's arguments (in swatomic.clh's order) and launches.
template <class... Args>
void launch_software(backend::Queue& q, const backend::Kernel& k, SoftwareAtomic& swa,
                     const Args&... args) {
  q.launch(k, swa.launch_shape(), args..., swa.slots(), swa.finished(), swa.status_words(),
           swa.wave(), swa.spin_limit(), backend::local_memory(swa.scratch_bytes()));
}

// "" when `groups` work-groups of `group_size` (plus `local_bytes` of dynamic
// local memory each) of `kernel` can all be resident at once on the device,
// else the reason: an occupancy query on CUDA, an estimate on OpenCL GPUs, and
// on CPU devices (PoCL) the number of compute units (worker threads).
std::string residency_problem(backend::Device& device, const backend::Kernel& kernel,
                              std::uint32_t groups, std::uint32_t group_size,
                              std::size_t local_bytes);
#if defined(HARNESS_HAVE_CUDA)
// occupancy.cu: cudaOccupancyMaxActiveBlocksPerMultiprocessor for a kernel
// function; -1 with `error` set when the query fails.
int cuda_blocks_per_sm(const void* function, int group_size, std::size_t local_bytes,
                       std::string* error);
#endif

// The base of every point: one timed phase "kernel" (or the phases a subclass
// opens itself), a read-back in phase "copy_out", exact validation by the
// subclass, then sanity of the kernel time.
class KernelPoint : public AtomicsPoint {
 public:
  explicit KernelPoint(const PointContext& ctx);
  Measurement run_once() override;
  std::string validate_last() override;
  void dump_output(std::ostream& out) const override;
  double last_kernel_ms() const override { return kernel_ms_; }
  std::uint64_t threads() const override { return shape_.threads(); }

 protected:
  // Queues the timed work; the default opens phase "kernel" around launch().
  virtual void timed(backend::Queue& q);
  virtual void launch(backend::Queue& q) = 0;
  virtual void read_back(backend::Queue& q) = 0;
  // "" when the read-back output is exactly right.
  virtual std::string check() = 0;
  virtual void add_counters(Measurement& m) const { (void)m; }
  // Lines for dump_output (`index<TAB>value`).
  virtual std::vector<std::uint32_t> output() const { return {}; }

  backend::Device& device_;
  Shape shape_;
  std::shared_ptr<backend::Program> program_;
  double kernel_ms_ = 0;
};

std::unique_ptr<PointRunner> make_path(const PointContext& ctx, const std::string& variant);
std::unique_ptr<PointRunner> make_add(const PointContext& ctx, const std::string& variant);
std::unique_ptr<PointRunner> make_app(const PointContext& ctx, const std::string& variant);
std::string skip_point(const PointContext& ctx, const std::string& variant);

// The model's parameters measured on a device (atomics_probe_* kernels),
// measured once per device and kept.
ModelParams measure_model(backend::Device& device);

}  // namespace harness::atomics
