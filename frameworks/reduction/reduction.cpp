#include "frameworks/reduction/reduction.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <mutex>
#include <ostream>
#include <tuple>

#include "frameworks/blocks/cuda_programs.h"
#include "frameworks/mapreduce/cpu/cpu_runtime.h"
#include "harness/core/errors.h"
#include "harness/core/lru_cache.h"
#include "harness/core/registry.h"
#include "harness/core/stopwatch.h"

namespace harness::reduction {
namespace {

constexpr std::uint32_t kMaxGroup = 1024;  // SEGMENT_SUM_MAX_GROUP in kernels/segment_sum.cl

std::span<const float> as_floats(const PointContext& ctx) {
  if (ctx.input_size % 4 != 0)
    throw RunError(fmt::format(
        "segsum: the input ({} bytes) is not a whole number of float32 values", ctx.input_size));
  return {reinterpret_cast<const float*>(ctx.input), ctx.input_size / 4};
}

std::uint32_t segment_of(const PointContext& ctx, std::size_t values) {
  const std::uint32_t segment = param_u32(ctx.params, "segment");
  if (segment == 0) throw UsageError("segsum: segment must be at least 1");
  if (values % segment != 0)
    throw RunError(
        fmt::format("segsum: {} values are not a whole number of segments of {}", values, segment));
  return segment;
}

// References are computed once per (input, segment) and shared by every
// variant measured on that input, keyed on its checksum (the address alone
// could come back holding another dataset).
std::shared_ptr<const std::vector<double>> cached_reference(std::span<const float> in,
                                                            std::uint32_t segment,
                                                            const std::string& checksum) {
  static std::mutex mutex;
  static LruCache<std::tuple<std::string, std::size_t, std::uint32_t>, std::vector<double>> cache(
      kCachedReferences);
  std::lock_guard lock(mutex);
  const std::string id =
      checksum.empty() ? "address:" + std::to_string(reinterpret_cast<std::uintptr_t>(in.data()))
                       : checksum;
  return cache.get_or_make(std::make_tuple(id, in.size(), segment), [&] {
    return std::make_shared<const std::vector<double>>(reference_sums(in, segment));
  });
}

// What both variants share: reference, validation, work, output dump.
class SegmentSumPoint : public PointRunner {
 public:
  explicit SegmentSumPoint(const PointContext& ctx)
      : values_(as_floats(ctx)),
        segment_(segment_of(ctx, values_.size())),
        policy_(ctx.validation),
        checksum_(ctx.input_checksum),
        out_(values_.size() / segment_) {}

  void prepare() override { reference_ = cached_reference(values_, segment_, checksum_); }
  std::string validate_last() override {
    std::vector<double> got(out_.begin(), out_.end());
    return compare_within_tolerance(*reference_, got, policy_);
  }
  void dump_output(std::ostream& out) const override {
    for (std::size_t s = 0; s < out_.size(); ++s)
      out << s << '\t' << fmt::format("{:.9g}", out_[s]) << '\n';
  }

 protected:
  std::span<const float> values_;
  std::uint32_t segment_;
  ValidationPolicy policy_;
  std::string checksum_;
  std::vector<float> out_;
  std::shared_ptr<const std::vector<double>> reference_;
};

// reduction/tree: the kernel above on a GPU backend (or PoCL).
class TreePoint final : public SegmentSumPoint {
 public:
  TreePoint(const PointContext& ctx)
      : SegmentSumPoint(ctx),
        device_(*ctx.device),
        group_size_(param_u32(ctx.params, "group_size")) {}

  void prepare() override {
    SegmentSumPoint::prepare();
    backend::ProgramSource src;
    src.name = "reduction/segment_sum";
    src.opencl_files = {"frameworks/reduction/kernels/segment_sum.cl"};
    src.cuda = cuda_program(src.name);
    program_ = device_.build(src);
    kernel_ = program_->kernel("segment_sum");
    d_in_ = device_.allocate(values_.size() * 4);
    d_out_ = device_.allocate(out_.size() * 4);
  }
  // Poisons the output (all-ones bytes are NaN) so an unwritten sum fails validation.
  void before_repetition() override {
    std::memset(out_.data(), 0xff, out_.size() * 4);
    auto& q = device_.queue();
    q.write(d_out_, 0, out_.data(), out_.size() * 4);
    q.finish();
    q.take_spans();
  }
  Measurement run_once() override {
    auto& q = device_.queue();
    Measurement m;
    Stopwatch total;
    const auto segments = static_cast<std::uint32_t>(out_.size());
    q.begin_span("copy_in");
    q.write(d_in_, 0, values_.data(), values_.size() * 4);
    q.end_span();
    q.begin_span("reduce");
    q.launch(kernel_,
             backend::LaunchShape{std::min<std::uint32_t>(segments, 1u << 20), group_size_}, d_in_,
             segment_, segments, d_out_);
    q.end_span();
    q.begin_span("copy_out");
    q.read(out_.data(), d_out_, 0, out_.size() * 4);
    q.end_span();
    q.finish();
    m.total_ms = total.elapsed_ms();
    for (auto& s : q.take_spans()) m.phases.push_back({s.name, s.milliseconds});
    m.counters["segments"] = segments;
    return m;
  }
  Work work() const override {
    Work w;
    w.input_bytes = values_.size() * 4;
    w.items("elements", values_.size(), "reduce")
        .reads(level::h2d, values_.size() * 4, "copy_in")
        .reads(level::dram, values_.size() * 4, "reduce")
        .writes(level::dram, out_.size() * 4, "reduce")
        .writes(level::d2h, out_.size() * 4, "copy_out", "d2h_pageable");  // into a std::vector
    return w;
  }

 private:
  backend::Device& device_;
  std::uint32_t group_size_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel kernel_;
  backend::Buffer d_in_, d_out_;
};

// reduction/cpu: every host core, eight float32 accumulators per segment
// (independent chains the compiler can keep in flight). Each thread sums a
// contiguous run of segments: dealt round-robin, neighbouring sums (16 to
// a cache line) were written by different threads, and each thread's reads
// jumped a segment's length between sums.
class CpuPoint final : public SegmentSumPoint {
 public:
  CpuPoint(const PointContext& ctx)
      : SegmentSumPoint(ctx), threads_(cpu::resolve_threads(param_u32(ctx.params, "threads"))) {}

  void before_repetition() override { std::memset(out_.data(), 0xff, out_.size() * 4); }
  Measurement run_once() override {
    Measurement m;
    Stopwatch total;
    const std::size_t segments = out_.size();
    cpu::parallel_for(threads_, [&](unsigned w) {
      const std::size_t end = segments * (w + 1) / threads_;
      for (std::size_t s = segments * w / threads_; s < end; ++s) {
        const float* seg = values_.data() + s * segment_;
        float acc[8] = {};
        std::uint32_t i = 0;
        for (; i + 8 <= segment_; i += 8) {
          for (int k = 0; k < 8; ++k) acc[k] += seg[i + static_cast<std::uint32_t>(k)];
        }
        for (; i < segment_; ++i) acc[0] += seg[i];
        out_[s] = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
      }
    });
    m.total_ms = total.elapsed_ms();
    m.phases.push_back({"reduce", m.total_ms});
    m.counters["threads"] = threads_;
    return m;
  }
  Work work() const override {
    Work w;
    w.input_bytes = values_.size() * 4;
    w.items("elements", values_.size(), "reduce").reads(level::host, values_.size() * 4, "reduce");
    return w;
  }

 private:
  unsigned threads_;
};

ParamDecl segment_param() {
  return unsigned_param("segment", 1024, 1, UINT32_MAX, "values per summed segment");
}

std::string skip_tree(const PointContext& ctx) {
  const std::uint32_t group = param_u32(ctx.params, "group_size");
  const std::uint32_t segment = param_u32(ctx.params, "segment");
  if (group > segment)
    return fmt::format("a work-group of {} work-items is larger than its segment of {} values",
                       group, segment);
  if (ctx.device && group > static_cast<std::uint32_t>(ctx.device->info().max_work_group_size))
    return fmt::format("{} allows at most {} work-items per group", ctx.device->info().name,
                       ctx.device->info().max_work_group_size);
  return "";
}

}  // namespace

std::vector<double> reference_sums(std::span<const float> values, std::uint32_t segment) {
  std::vector<double> sums(segment ? values.size() / segment : 0);
  for (std::size_t s = 0; s < sums.size(); ++s) {
    double acc = 0;
    for (std::uint32_t i = 0; i < segment; ++i) acc += values[s * segment + i];
    sums[s] = acc;
  }
  return sums;
}

void register_family() {
  AppInfo app;
  app.name = "segsum";
  app.kind = "reduction";
  app.description = "float32 sum of each segment of `segment` values (tolerance-validated)";
  app.default_dataset = "uniform-f32";
  app.validation = {"tolerance", 1e-4, 0};
  Registry::instance().add_app(std::move(app));
  VariantInfo tree;
  tree.framework = "reduction";
  tree.name = "tree";
  tree.description = "work-group per segment: strided partial sums, then a local-memory tree";
  tree.backends = {backend::Kind::opencl, backend::Kind::cuda};
  tree.params = {segment_param(),
                 pow2_param("group_size", 256, 1, kMaxGroup, "work-items per work-group")};
  tree.apps = {"segsum"};
  tree.skip = skip_tree;
  tree.make = [](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
    if (!ctx.device) throw UsageError("reduction/tree needs a GPU backend (opencl or cuda)");
    return std::make_unique<TreePoint>(ctx);
  };
  Registry::instance().add_variant(std::move(tree));

  VariantInfo host;
  host.framework = "reduction";
  host.name = "cpu";
  host.description = "every host core, eight float32 accumulators per segment";
  host.backends = {backend::Kind::cpu};
  host.params = {segment_param(),
                 unsigned_param("threads", 0, 0, 4096, "host threads; 0: one per core")};
  host.apps = {"segsum"};
  host.make = [](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
    return std::make_unique<CpuPoint>(ctx);
  };
  Registry::instance().add_variant(std::move(host));
}

}  // namespace harness::reduction
