// memory/l2 and memory/dram: threads read disjoint data, c-way coalesced, from
// a working set that stays in L2 (a quarter of it) or never does (8 times it),
// swept over threads per block and blocks (thesis figures 5.4-5.6). The
// access pattern is in kernels/global_read.cl and README.md.
#include <fmt/format.h>

#include <algorithm>

#include "harness/core/errors.h"
#include "micro/memory/internal.h"

namespace harness::memory {
namespace {

// Everything a point's parameters and device determine.
struct GlobalShape {
  std::uint32_t group_size = 0, groups = 0, coalescing = 0, steps = 0;
  std::uint32_t span_words = 0;   // words per unit: max(8, coalescing)
  std::uint64_t threads = 0;      // groups x group_size
  std::uint64_t read_groups = 0;  // threads / coalescing
  std::uint64_t units = 0;        // working set / unit
  std::uint64_t stride = 0;       // units a read group moves on per step
  std::uint64_t working_set = 0;  // bytes (units x unit)
  std::string skip;               // why the point cannot run, or ""
};

GlobalShape global_shape(const PointContext& ctx, GlobalLevel level) {
  const backend::DeviceInfo& info = ctx.device->info();
  const AutoSizes auto_size = auto_sizes(info);
  GlobalShape s;
  s.group_size = param_u32(ctx.params, "group_size");
  s.groups = resolve_groups(info, param_u32(ctx.params, "groups"));
  s.coalescing = param_u32(ctx.params, "coalescing");
  const std::uint32_t c = s.coalescing;
  if (c == 0 || c > 32 || (c & (c - 1)) != 0)
    throw UsageError(fmt::format("memory: coalescing must be 1, 2, 4, 8, 16 or 32, not {}", c));
  s.steps = param_u32(ctx.params, "steps");
  if (s.steps == 0) s.steps = auto_size.global_steps;
  if (s.steps % 8 != 0)
    throw UsageError(fmt::format("memory: steps must be a multiple of 8, not {}", s.steps));
  std::uint64_t bytes = param_size(ctx.params, "working_set");
  if (bytes == 0)
    bytes = level == GlobalLevel::l2 ? auto_size.l2_working_set : auto_size.dram_working_set;
  s.span_words = std::max<std::uint32_t>(8, c);
  const std::uint64_t unit = std::uint64_t{s.span_words} * 4;
  s.units = bytes / unit;
  s.working_set = s.units * unit;
  if (s.working_set / 4 >= (std::uint64_t{1} << 31))
    throw UsageError(fmt::format("memory: working_set must be below 8 GiB, not {} bytes", bytes));
  s.threads = std::uint64_t{s.groups} * s.group_size;
  s.read_groups = s.threads / c;
  if (std::string why = group_size_problem(info, s.group_size); !why.empty()) {
    s.skip = why;
  } else if (s.group_size % c != 0) {
    s.skip = fmt::format("a work-group of {} is not a whole number of {}-way coalesced groups",
                         s.group_size, c);
  } else if (s.threads >= (std::uint64_t{1} << 31)) {
    s.skip = fmt::format("{} work-items are too many (at most 2^31 - 1)", s.threads);
  } else if (s.units < s.read_groups) {
    s.skip = fmt::format(
        "the grid reads {} bytes per step, more than the working set of {} bytes: reads would "
        "overlap",
        s.read_groups * unit, s.working_set);
  } else if (info.max_allocation_bytes && s.working_set > info.max_allocation_bytes) {
    s.skip = fmt::format("a working set of {} bytes is more than {} allows in one buffer ({})",
                         s.working_set, info.name, info.max_allocation_bytes);
  }
  if (s.units > 0) {
    // A work-group moves on by one work-group's window per step; should that
    // wrap exactly onto itself, the plain grid stride (which moves back) is used.
    s.stride = (s.read_groups + s.group_size / c) % s.units;
    if (s.stride == 0) s.stride = s.read_groups % s.units;
    if (s.stride == 0 && s.skip.empty())
      s.skip = "the working set is one work-group's window: every step would re-read it";
  }
  return s;
}

class GlobalReadPoint final : public KernelPoint {
 public:
  GlobalReadPoint(const PointContext& ctx, GlobalLevel level)
      : KernelPoint(ctx), level_(level), s_(global_shape(ctx, level)) {
    if (!s_.skip.empty()) throw SkipPoint(s_.skip);
  }

  void prepare() override {
    program_ = device_.build(portable_program());
    read_ = program_->kernel("memory_global_read");
    backend::Kernel fill = program_->kernel("memory_fill_index");
    const auto words = static_cast<std::uint32_t>(s_.working_set / 4);
    d_data_ = device_.allocate(s_.working_set);
    auto& q = device_.queue();
    q.launch(fill, fill_shape(device_.info(), words), d_data_, words);
    q.finish();
    q.take_spans();
    allocate_output();
  }

  // Each run goes on with the walk where the last one stopped, so no run
  // re-reads what the previous one left in L2 (unless the working set fits
  // there: memory/l2); the expected sums follow the run's start (untimed).
  void before_repetition() override {
    KernelPoint::before_repetition();
    start_ = next_start_;
    next_start_ = (start_ + (std::uint64_t{s_.steps} % s_.units) * s_.stride) % s_.units;
    // Work-item gid of read group G = gid / c reads word j = gid % c of unit
    // (G + start + i * stride) mod units at step i; every word holds its index.
    const std::uint32_t c = s_.coalescing;
    std::vector<std::uint32_t> per_group(s_.read_groups);
    for (std::uint64_t g = 0; g < s_.read_groups; ++g)
      per_group[g] = walk_sum((g + start_) % s_.units, s_.stride, s_.units, s_.steps);
    expected_.resize(s_.threads);
    for (std::uint64_t gid = 0; gid < s_.threads; ++gid) {
      expected_[gid] =
          per_group[gid / c] * s_.span_words + s_.steps * static_cast<std::uint32_t>(gid % c);
    }
  }

  Work work() const override {
    Work w;
    w.input_bytes = s_.working_set;
    w.reads(level_ == GlobalLevel::l2 ? level::l2 : level::dram, delivered_bytes(), "kernel")
        .items("bytes_delivered", delivered_bytes(), "kernel")
        .items("bytes_used", used_bytes(), "kernel");
    return w;
  }
  std::uint64_t delivered_bytes() const override {
    return std::uint64_t{s_.steps} * s_.read_groups * s_.span_words * 4;
  }
  std::uint64_t used_bytes() const override { return std::uint64_t{s_.steps} * s_.threads * 4; }

 protected:
  void launch(backend::Queue& q) override {
    q.launch(read_, backend::LaunchShape{groups_, group_size_}, d_data_,
             static_cast<std::uint32_t>(s_.units * s_.span_words),
             static_cast<std::uint32_t>(s_.stride * s_.span_words),
             static_cast<std::uint32_t>(start_ * s_.span_words), s_.span_words, s_.coalescing,
             s_.steps, d_out_);
  }
  void add_counters(Measurement& m) const override {
    m.counters["threads"] = static_cast<double>(s_.threads);
    m.counters["groups"] = s_.groups;
    m.counters["steps"] = s_.steps;
    m.counters["working_set_bytes"] = static_cast<double>(s_.working_set);
    m.counters["unit_bytes"] = s_.span_words * 4.0;
  }

 private:
  GlobalLevel level_;
  GlobalShape s_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel read_;
  backend::Buffer d_data_;
  std::uint64_t start_ = 0, next_start_ = 0;  // unit where this run's and the next run's walk start
};

}  // namespace

std::unique_ptr<PointRunner> make_global_read(const PointContext& ctx, GlobalLevel level) {
  point_device(ctx, level == GlobalLevel::l2 ? "l2" : "dram");
  return std::make_unique<GlobalReadPoint>(ctx, level);
}

std::string skip_global_read(const PointContext& ctx, GlobalLevel level) {
  if (!ctx.device) return "";  // make() names the problem
  return global_shape(ctx, level).skip;
}

}  // namespace harness::memory
