// memory/copy: a kernel copies a buffer many times the L2 into another, with
// 16-byte loads and stores, grid-stride, judged against the d2d_copy ceiling
// (the backend's own device-to-device copy, bytes read + written). The copy
// is in kernels/copy.cl; the checksums over the destination are
// memory_global_read4's (the probes' kernel), in phase "checksum".
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "harness/core/errors.h"
#include "micro/memory/internal.h"

namespace harness::memory {
namespace {

constexpr std::uint64_t kWord = 16;       // bytes per load and store (uint4)
constexpr std::uint64_t kGranule = 4096;  // the buffers are a whole number of 64 KiB
constexpr std::uint64_t kShift = 256;     // words the offset moves on per run (4 KiB)
constexpr std::uint64_t kMaxCheckThreads = std::uint64_t{1} << 18;
constexpr std::uint32_t kResidentPerCu = 2048;  // work-items an SM holds (sm_80 .. sm_90)

// Everything a point's parameters and device determine.
struct CopyShape {
  std::uint32_t group_size = 0, groups = 0;
  std::uint64_t threads = 0;      // of the copy
  std::uint64_t words = 0;        // 16-byte words per buffer
  std::uint64_t working_set = 0;  // bytes per buffer (words x 16)
  // The checksum launch: check_threads work-items read check_steps words each,
  // check_threads apart, so together they read every destination word once.
  std::uint32_t check_group = 0;
  std::uint64_t check_threads = 0, check_steps = 0;
  std::string skip;  // why the point cannot run, or ""
};

// "0" groups: on a GPU enough work-groups to fill every compute unit
// (kResidentPerCu work-items each, so a copy saturates DRAM), elsewhere one per
// compute unit.
std::uint32_t copy_groups(const backend::DeviceInfo& info, std::uint32_t groups,
                          std::uint32_t group_size) {
  if (groups != 0 || info.type != "gpu" || group_size == 0) return resolve_groups(info, groups);
  return resolve_groups(info, 0) * std::max<std::uint32_t>(1, kResidentPerCu / group_size);
}

CopyShape copy_shape(const PointContext& ctx) {
  const backend::DeviceInfo& info = ctx.device->info();
  CopyShape s;
  s.group_size = param_u32(ctx.params, "group_size");
  s.groups = copy_groups(info, param_u32(ctx.params, "groups"), s.group_size);
  std::uint64_t bytes = param_size(ctx.params, "working_set");
  if (bytes == 0) bytes = auto_sizes(info).dram_working_set;
  s.words = bytes / kWord / kGranule * kGranule;
  s.working_set = s.words * kWord;
  if (s.words >= (std::uint64_t{1} << 29))
    throw UsageError(fmt::format("memory: working_set must be below 8 GiB, not {} bytes", bytes));
  s.threads = std::uint64_t{s.groups} * s.group_size;
  if (std::string why = group_size_problem(info, s.group_size); !why.empty()) {
    s.skip = why;
  } else if (s.words == 0) {
    s.skip = fmt::format("a working set of {} bytes is less than the copy's 64 KiB granule", bytes);
  } else if (s.threads > s.words) {
    s.skip = fmt::format("{} work-items are more than the {} 16-byte words of the working set",
                         s.threads, s.words);
  } else if (info.max_allocation_bytes && s.working_set > info.max_allocation_bytes) {
    s.skip = fmt::format("a working set of {} bytes is more than {} allows in one buffer ({})",
                         s.working_set, info.name, info.max_allocation_bytes);
  }
  if (s.words > 0) {
    // The largest power of two up to kMaxCheckThreads that divides words / 4,
    // so every work-item reads the same whole number of 4-word steps.
    const std::uint64_t quarter = s.words / 4;
    s.check_threads = std::min(kMaxCheckThreads, quarter & (~quarter + 1));
    s.check_steps = s.words / s.check_threads;
    s.check_group = 256;
    if (info.max_work_group_size > 0)
      while (s.check_group > static_cast<std::uint32_t>(info.max_work_group_size))
        s.check_group /= 2;
  }
  return s;
}

class CopyPoint final : public KernelPoint {
 public:
  explicit CopyPoint(const PointContext& ctx) : CopyPoint(ctx, copy_shape(ctx)) {}

  void prepare() override {
    program_ = device_.build(portable_program());
    copy_ = program_->kernel("memory_copy4");
    check_ = program_->kernel("memory_global_read4");
    d_src_ = device_.allocate(s_.working_set);
    d_dst_ = device_.allocate(s_.working_set);
    const auto u32s = static_cast<std::uint32_t>(s_.words * 4);
    auto& q = device_.queue();
    q.launch(program_->kernel("memory_fill_index"), fill_shape(device_.info(), u32s), d_src_, u32s);
    q.fill_zero(d_dst_, 0, s_.working_set);
    q.finish();
    q.take_spans();
    allocate_output(s_.check_threads);
  }

  // Each run copies word e to (e + offset) mod words and the offset moves on by
  // 4 KiB: a run that skipped words leaves what the last one wrote there, for
  // another offset, and validation fails. Every run reads the source from its
  // start and writes the destination from 4 KiB past where the last run began
  // writing; both were last touched a whole pass (many L2s) ago, so the L2
  // serves neither. The expected checksums follow the offset (untimed).
  void before_repetition() override {
    KernelPoint::before_repetition();
    offset_ = next_offset_;
    next_offset_ = (offset_ + kShift) % s_.words;
    expected_.resize(s_.check_threads);
    for (std::uint64_t t = 0; t < s_.check_threads; ++t)
      expected_[t] = read4_sum(t, s_.check_threads, s_.words, s_.check_steps, offset_);
  }

  Work work() const override {
    const std::uint64_t bytes = s_.working_set;  // read once and written once
    Work w;
    w.input_bytes = s_.working_set;
    w.reads(level::dram, bytes, "kernel", "d2d_copy")
        .writes(level::dram, bytes, "kernel", "d2d_copy")
        .items("bytes_delivered", delivered_bytes(), "kernel")
        .items("bytes_used", used_bytes(), "kernel");
    return w;
  }
  // Bytes read plus bytes written; every byte moved is used.
  std::uint64_t delivered_bytes() const override { return 2 * s_.working_set; }
  std::uint64_t used_bytes() const override { return delivered_bytes(); }

  void short_by(std::uint64_t words) { short_by_ = std::min(words, s_.words); }

 protected:
  void launch(backend::Queue& q) override {
    q.launch(copy_, backend::LaunchShape{groups_, group_size_}, d_src_, d_dst_,
             static_cast<std::uint32_t>(s_.words - short_by_), static_cast<std::uint32_t>(s_.words),
             static_cast<std::uint32_t>(offset_));
  }
  bool has_checksum_kernel() const override { return true; }
  void launch_checksum(backend::Queue& q) override {
    q.launch(check_,
             backend::LaunchShape{static_cast<std::uint32_t>(s_.check_threads / s_.check_group),
                                  s_.check_group},
             d_dst_, static_cast<std::uint32_t>(s_.words),
             static_cast<std::uint32_t>(s_.check_threads),
             static_cast<std::uint32_t>(s_.check_steps), d_out_);
  }
  void add_counters(Measurement& m) const override {
    m.counters["threads"] = static_cast<double>(s_.threads);
    m.counters["groups"] = s_.groups;
    m.counters["working_set_bytes"] = static_cast<double>(s_.working_set);
    m.counters["words_per_thread"] =
        static_cast<double>(s_.words) / static_cast<double>(s_.threads);
  }

 private:
  CopyPoint(const PointContext& ctx, CopyShape s) : KernelPoint(ctx, s.groups), s_(std::move(s)) {
    if (!s_.skip.empty()) throw SkipPoint(s_.skip);
  }

  CopyShape s_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel copy_, check_;
  backend::Buffer d_src_, d_dst_;
  std::uint64_t offset_ = 0, next_offset_ = 0;  // destination word of source word 0
  std::uint64_t short_by_ = 0;                  // for tests: words left uncopied
};

}  // namespace

std::unique_ptr<PointRunner> make_copy(const PointContext& ctx) {
  point_device(ctx, "copy");
  return std::make_unique<CopyPoint>(ctx);
}

std::string skip_copy(const PointContext& ctx) {
  if (!ctx.device) return "";  // make() names the problem
  return copy_shape(ctx).skip;
}

void short_copy_for_tests(PointRunner& copy_point, std::uint64_t words) {
  auto* point = dynamic_cast<CopyPoint*>(&copy_point);
  if (!point) throw UsageError("short_copy_for_tests: not a memory/copy point");
  point->short_by(words);
}

}  // namespace harness::memory
