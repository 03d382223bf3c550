// memory/scan-l1, memory/scan-nol1 (CUDA: one byte load per byte through
// ld.global.ca / ld.global.cg) and memory/scan-line (portable: 16-byte lines
// into registers): the per-work-item sequential byte scan of `wc`, over the
// number of threads and chunk sizes (thesis figures 5.1 and 5.13). The
// access pattern is in kernels/scan.cl.
#include <fmt/format.h>

#include "harness/core/errors.h"
#include "micro/memory/internal.h"
#include "micro/memory/kernels/pattern.clh"

namespace harness::memory {
namespace {

constexpr std::uint32_t kPeriodChunks = 61;  // chunks before the input repeats

const char* variant_name(ScanLoads loads) {
  switch (loads) {
    case ScanLoads::l1:
      return "scan-l1";
    case ScanLoads::no_l1:
      return "scan-nol1";
    default:
      return "scan-line";
  }
}

struct ScanShape {
  std::uint32_t chunk = 0;   // bytes, a multiple of 16
  std::uint32_t chunks = 0;  // of the input
  std::uint64_t input = 0;   // bytes: chunks x chunk
  std::uint64_t threads = 0;
  std::string skip;
};

ScanShape scan_shape(const PointContext& ctx) {
  const backend::DeviceInfo& info = ctx.device->info();
  ScanShape s;
  s.chunk = param_u32(ctx.params, "chunk");
  if (s.chunk == 0 || s.chunk % 16 != 0)
    throw UsageError(
        fmt::format("memory: chunk must be a positive multiple of 16, not {}", s.chunk));
  std::uint64_t bytes = param_size(ctx.params, "working_set");
  if (bytes == 0) bytes = auto_sizes(info).scan_input;
  if (bytes >= (std::uint64_t{1} << 33))
    throw UsageError(fmt::format("memory: working_set must be below 8 GiB, not {} bytes", bytes));
  if (bytes < s.chunk)
    throw UsageError(
        fmt::format("memory: a working set of {} bytes holds no chunk of {}", bytes, s.chunk));
  s.chunks = static_cast<std::uint32_t>(bytes / s.chunk);
  s.input = std::uint64_t{s.chunks} * s.chunk;
  const std::uint32_t group_size = param_u32(ctx.params, "group_size");
  s.threads = std::uint64_t{resolve_groups(info, param_u32(ctx.params, "groups"))} * group_size;
  if (std::string why = group_size_problem(info, group_size); !why.empty()) {
    s.skip = why;
  } else if (s.threads >= (std::uint64_t{1} << 31)) {
    s.skip = fmt::format("{} work-items are too many (at most 2^31 - 1)", s.threads);
  } else if (info.max_allocation_bytes && s.input > info.max_allocation_bytes) {
    s.skip = fmt::format("an input of {} bytes is more than {} allows in one buffer ({})", s.input,
                         info.name, info.max_allocation_bytes);
  }
  return s;
}

class ByteScanPoint final : public KernelPoint {
 public:
  ByteScanPoint(const PointContext& ctx, ScanLoads loads)
      : KernelPoint(ctx), loads_(loads), s_(scan_shape(ctx)) {
    if (!s_.skip.empty()) throw SkipPoint(s_.skip);
  }

  void prepare() override {
    std::shared_ptr<backend::Program> portable = device_.build(portable_program());
    if (loads_ == ScanLoads::line16) {
      program_ = portable;
      scan_ = program_->kernel("memory_scan_line");
    } else {
      program_ = device_.build(cuda_only_program());
      scan_ = program_->kernel(loads_ == ScanLoads::l1 ? "memory_scan_ca" : "memory_scan_cg");
    }
    const auto words = static_cast<std::uint32_t>(s_.input / 4);
    const std::uint32_t chunk_words = s_.chunk / 4;
    d_data_ = device_.allocate(s_.input);
    auto& q = device_.queue();
    q.launch(portable->kernel("memory_scan_fill"), fill_shape(device_.info(), words), d_data_,
             words, kPeriodChunks * chunk_words);
    q.finish();
    q.take_spans();
    allocate_output();
    std::vector<std::uint32_t> hash(kPeriodChunks);
    for (std::uint32_t k = 0; k < kPeriodChunks; ++k)
      hash[k] = scan_chunk_hash(k * chunk_words, s_.chunk);
    expected_.assign(s_.threads, 0);
    for (std::uint64_t c = 0; c < s_.chunks; ++c)
      expected_[c % s_.threads] += hash[c % kPeriodChunks];
  }

  Work work() const override {
    Work w;
    w.input_bytes = s_.input;
    w.reads(level::dram, s_.input, "kernel")
        .items("bytes_delivered", s_.input, "kernel")
        .items("bytes_used", s_.input, "kernel");
    return w;
  }
  // Each byte of the input is read once; what the caches deliver beyond it
  // shows in the profiler's hit rates (scripts/ncu_counters.py), not here.
  std::uint64_t delivered_bytes() const override { return s_.input; }
  std::uint64_t used_bytes() const override { return s_.input; }

 protected:
  void launch(backend::Queue& q) override {
    q.launch(scan_, backend::LaunchShape{groups_, group_size_}, d_data_, s_.chunk, s_.chunks,
             d_out_);
  }
  void add_counters(Measurement& m) const override {
    m.counters["threads"] = static_cast<double>(s_.threads);
    m.counters["groups"] = groups_;
    m.counters["chunks"] = s_.chunks;
    m.counters["chunks_per_thread"] =
        static_cast<double>((s_.chunks + s_.threads - 1) / s_.threads);
    m.counters["input_bytes"] = static_cast<double>(s_.input);
  }

 private:
  ScanLoads loads_;
  ScanShape s_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel scan_;
  backend::Buffer d_data_;
};

}  // namespace

std::uint32_t scan_chunk_hash(std::uint32_t first_word, std::uint32_t chunk_bytes) {
  u32 h = MEMORY_FNV_OFFSET;
  for (std::uint32_t i = 0; i < chunk_bytes / 4; ++i)
    h = memory_fnv_word(h, memory_scan_word(first_word + i));
  return h;
}

std::unique_ptr<PointRunner> make_byte_scan(const PointContext& ctx, ScanLoads loads) {
  point_device(ctx, variant_name(loads));
  return std::make_unique<ByteScanPoint>(ctx, loads);
}

std::string skip_byte_scan(const PointContext& ctx, ScanLoads /*loads*/) {
  if (!ctx.device) return "";
  return scan_shape(ctx).skip;
}

}  // namespace harness::memory
