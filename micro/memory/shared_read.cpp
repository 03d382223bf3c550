// memory/shared: every work-group reads its own tile of shared (local)
// memory, conflict-free, swept over threads per block and blocks (thesis
// figure 5.7). The access pattern is in kernels/shared_read.cl.
#include <fmt/format.h>

#include "harness/core/errors.h"
#include "micro/memory/internal.h"

namespace harness::memory {
namespace {

constexpr std::uint32_t kTileWords = 4096;  // MEMORY_SHARED_WORDS in kernels/shared_read.cl
constexpr std::uint32_t kSeed = 0x5eed1234u;

std::uint32_t shared_steps(const PointContext& ctx) {
  std::uint32_t steps = param_u32(ctx.params, "steps");
  if (steps == 0) steps = auto_sizes(ctx.device->info()).shared_steps;
  if (steps % 8 != 0)
    throw UsageError(fmt::format("memory: steps must be a multiple of 8, not {}", steps));
  return steps;
}

class SharedReadPoint final : public KernelPoint {
 public:
  explicit SharedReadPoint(const PointContext& ctx) : KernelPoint(ctx), steps_(shared_steps(ctx)) {
    if (std::string why = skip_shared_read(ctx); !why.empty()) throw SkipPoint(why);
  }

  void prepare() override {
    program_ = device_.build(portable_program());
    read_ = program_->kernel("memory_shared_read");
    allocate_output();
    // Work-item l of every work-group reads word (l + i * group_size) mod the
    // tile at step i, and word w holds w + seed.
    std::vector<std::uint32_t> per_lane(group_size_);
    for (std::uint32_t l = 0; l < group_size_; ++l)
      per_lane[l] = walk_sum(l, group_size_ % kTileWords, kTileWords, steps_) + steps_ * kSeed;
    expected_.resize(threads());
    for (std::uint64_t gid = 0; gid < threads(); ++gid)
      expected_[gid] = per_lane[gid % group_size_];
  }

  Work work() const override {
    Work w;
    w.reads(level::shared, delivered_bytes(), "kernel")
        .items("bytes_delivered", delivered_bytes(), "kernel")
        .items("bytes_used", used_bytes(), "kernel");
    return w;
  }
  // Shared memory delivers what is used: 4 bytes per load, no conflicts.
  std::uint64_t delivered_bytes() const override { return used_bytes(); }
  std::uint64_t used_bytes() const override { return std::uint64_t{steps_} * threads() * 4; }

 protected:
  void launch(backend::Queue& q) override {
    q.launch(read_, backend::LaunchShape{groups_, group_size_}, kSeed, steps_, d_out_);
  }
  void add_counters(Measurement& m) const override {
    m.counters["threads"] = static_cast<double>(threads());
    m.counters["groups"] = groups_;
    m.counters["steps"] = steps_;
    m.counters["tile_bytes"] = kTileWords * 4.0;
  }

 private:
  std::uint32_t steps_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel read_;
};

}  // namespace

std::unique_ptr<PointRunner> make_shared_read(const PointContext& ctx) {
  point_device(ctx, "shared");
  return std::make_unique<SharedReadPoint>(ctx);
}

std::string skip_shared_read(const PointContext& ctx) {
  if (!ctx.device) return "";
  const backend::DeviceInfo& info = ctx.device->info();
  const std::uint32_t group_size = param_u32(ctx.params, "group_size");
  if (std::string why = group_size_problem(info, group_size); !why.empty()) return why;
  if (group_size > kTileWords)
    return fmt::format("a work-group of {} is larger than the tile of {} words", group_size,
                       kTileWords);
  if (info.local_memory_bytes && info.local_memory_bytes < kTileWords * 4u)
    return fmt::format("{} has {} bytes of local memory per work-group, less than the {}-byte tile",
                       info.name, info.local_memory_bytes, kTileWords * 4);
  const std::uint64_t threads =
      std::uint64_t{resolve_groups(info, param_u32(ctx.params, "groups"))} * group_size;
  if (threads >= (std::uint64_t{1} << 31))
    return fmt::format("{} work-items are too many (at most 2^31 - 1)", threads);
  return "";
}

}  // namespace harness::memory
