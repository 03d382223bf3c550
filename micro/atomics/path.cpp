// The path effect (figures 1 and 4): the copy kernels with no atomic, an
// atomic never executed, executed per element, once per wavefront step; and
// figure 3's kernel in its three versions plus the 'ideal' (the atomic-only
// and memory-only kernels back to back). kernels/path.cl has the kernels.
#include <fmt/format.h>

#include <algorithm>

#include "harness/core/errors.h"
#include "micro/atomics/internal.h"

namespace harness::atomics {
namespace {

constexpr std::uint32_t kMul = 2654435761u;  // atomics_fill_hash
constexpr std::uint32_t kPoison = 0xffffffffu;

enum class CopyKind { plain, never, thread, wave };

// Elements of a copy point: the `elements` parameter, 0 meaning 64 Mi words
// (256 MiB per buffer) on a GPU and 256 Ki elsewhere.
std::uint32_t copy_elements(const PointContext& ctx) {
  const std::uint32_t n = param_u32(ctx.params, "elements");
  if (n) return n;
  return ctx.device->info().type == "gpu" ? (64u << 20) : (256u << 10);
}

class CopyPoint final : public KernelPoint {
 public:
  CopyPoint(const PointContext& ctx, CopyKind kind)
      : KernelPoint(ctx), kind_(kind), n_(copy_elements(ctx)) {
    if (n_ == kPoison) throw UsageError("atomics: elements must be below 2^32 - 1");
  }

  void prepare() override {
    program_ = device_.build(portable_program());
    static const char* names[] = {"atomics_copy_plain", "atomics_copy_atomic_never",
                                  "atomics_copy_atomic_thread", "atomics_copy_atomic_wave"};
    kernel_ = program_->kernel(names[static_cast<int>(kind_)]);
    const std::uint64_t bytes = std::uint64_t{n_} * 4;
    if (device_.info().max_allocation_bytes && bytes > device_.info().max_allocation_bytes)
      throw SkipPoint(fmt::format("{} bytes are more than one buffer may hold on {}", bytes,
                                  device_.info().name));
    d_in_ = device_.allocate(bytes);
    d_out_ = device_.allocate(bytes);
    d_counter_ = device_.allocate(4);
    auto& q = device_.queue();
    q.launch(program_->kernel("atomics_fill_hash"), micro::fill_shape(device_.info(), n_), d_in_,
             n_);
    q.finish();
    q.take_spans();
    got_.resize(n_);
    switch (kind_) {
      case CopyKind::plain:
      case CopyKind::never:
        expected_counter_ = 0;
        break;
      case CopyKind::thread: {
        // sum of i * kMul over i < n = kMul * n (n - 1) / 2, mod 2^32
        const std::uint64_t nn = n_;
        const std::uint64_t tri = nn % 2 == 0 ? (nn / 2) * (nn - 1) : nn * ((nn - 1) / 2);
        expected_counter_ = static_cast<std::uint32_t>(tri) * kMul;
        break;
      }
      case CopyKind::wave:
        expected_counter_ = n_;
        break;
    }
  }

  void before_repetition() override {
    auto& q = device_.queue();
    q.fill_zero(d_out_, 0, std::size_t{n_} * 4);
    q.fill_zero(d_counter_, 0, 4);
    q.finish();
    q.take_spans();
  }

  Work work() const override {
    Work w;
    w.input_bytes = std::uint64_t{n_} * 4;
    w.reads(level::dram, std::uint64_t{n_} * 4, "kernel")
        .writes(level::dram, std::uint64_t{n_} * 4, "kernel")
        .items("elements", n_, "kernel");
    return w;
  }

  void corrupt_expected() override { expected_counter_ ^= 1u; }

 protected:
  void launch(backend::Queue& q) override {
    const backend::LaunchShape shape{shape_.groups, shape_.group_size};
    switch (kind_) {
      case CopyKind::plain:
        q.launch(kernel_, shape, d_in_, d_out_, n_);
        break;
      case CopyKind::never:
        q.launch(kernel_, shape, d_in_, d_out_, n_, n_ * kMul, d_counter_);
        break;
      case CopyKind::thread:
        q.launch(kernel_, shape, d_in_, d_out_, n_, d_counter_);
        break;
      case CopyKind::wave:
        q.launch(kernel_, shape, d_in_, d_out_, n_, shape_.wave, d_counter_);
        break;
    }
  }
  void read_back(backend::Queue& q) override {
    q.read(got_.data(), d_out_, 0, got_.size() * 4);
    q.read(&counter_, d_counter_, 0, 4);
  }
  std::string check() override {
    std::size_t wrong = 0, first = 0;
    for (std::uint32_t i = 0; i < n_; ++i) {
      if (got_[i] != i * kMul && wrong++ == 0) first = i;
    }
    if (wrong)
      return fmt::format("{} of {} copied words differ; first [{}] expected {} got {}", wrong, n_,
                         first, static_cast<std::uint32_t>(first) * kMul, got_[first]);
    if (counter_ != expected_counter_)
      return fmt::format("the atomic counter holds {}, expected {}", counter_, expected_counter_);
    return "";
  }
  void add_counters(Measurement& m) const override {
    m.counters["elements"] = n_;
    m.counters["threads"] = static_cast<double>(shape_.threads());
    m.counters["wave"] = shape_.wave;
  }
  std::vector<std::uint32_t> output() const override { return {counter_}; }

 private:
  CopyKind kind_;
  std::uint32_t n_;
  backend::Kernel kernel_;
  backend::Buffer d_in_, d_out_, d_counter_;
  std::vector<std::uint32_t> got_;
  std::uint32_t counter_ = 0, expected_counter_ = 0;
};

enum class Fig3Kind { atomic, memory, both, ideal };

class Fig3Point final : public KernelPoint {
 public:
  Fig3Point(const PointContext& ctx, Fig3Kind kind) : KernelPoint(ctx), kind_(kind) {
    if (shape_.threads() >= (std::uint64_t{1} << 22))
      throw SkipPoint("more than 4 Mi work-items: the sum of the increments would wrap");
    for (std::uint64_t g = 0; g < shape_.threads(); ++g)
      total_ += 1u + static_cast<std::uint32_t>(g & 1023u);
  }

  void prepare() override {
    program_ = device_.build(portable_program());
    atomic_ = program_->kernel("atomics_fig3_atomic");
    memory_ = program_->kernel("atomics_fig3_memory");
    both_ = program_->kernel("atomics_fig3_both");
    d_out_ = device_.allocate(4);
    d_array_ = device_.allocate(shape_.threads() * 4);
    array_.assign(shape_.threads(), kPoison);
  }

  void before_repetition() override {
    auto& q = device_.queue();
    std::fill(array_.begin(), array_.end(), kPoison);
    q.write(d_array_, 0, array_.data(), array_.size() * 4);
    const std::uint32_t initial = kInitial;
    q.write(d_out_, 0, &initial, 4);
    q.finish();
    q.take_spans();
  }

  Work work() const override {
    Work w;
    const std::uint64_t t = shape_.threads();
    if (kind_ != Fig3Kind::memory) w.items("atomics", t, "kernel");
    if (kind_ != Fig3Kind::atomic) w.writes(level::dram, t * 4, "kernel");
    w.items("work_items", t, "kernel");
    return w;
  }

  void corrupt_expected() override { initial_ ^= 1u; }

 protected:
  void launch(backend::Queue& q) override {
    const backend::LaunchShape shape{shape_.groups, shape_.group_size};
    switch (kind_) {
      case Fig3Kind::atomic:
        q.launch(atomic_, shape, d_out_, d_array_);
        break;
      case Fig3Kind::memory:
        q.launch(memory_, shape, d_out_, d_array_);
        break;
      case Fig3Kind::both:
        q.launch(both_, shape, d_out_, d_array_);
        break;
      case Fig3Kind::ideal:
        q.launch(atomic_, shape, d_out_, d_array_);
        q.launch(memory_, shape, d_out_, d_array_);
        break;
    }
  }
  void read_back(backend::Queue& q) override {
    q.read(&out_, d_out_, 0, 4);
    q.read(array_.data(), d_array_, 0, array_.size() * 4);
  }
  std::string check() override {
    const std::uint32_t final_value = kind_ == Fig3Kind::memory ? initial_ : initial_ + total_;
    if (out_ != final_value)
      return fmt::format("the global word holds {}, expected {}", out_, final_value);
    for (std::size_t g = 0; g < array_.size(); ++g) {
      const std::uint32_t v = array_[g];
      bool ok = true;
      switch (kind_) {
        case Fig3Kind::atomic:
          ok = v == kPoison;
          break;
        case Fig3Kind::memory:
          ok = v == kInitial;
          break;
        case Fig3Kind::ideal:
          ok = v == final_value;
          break;
        case Fig3Kind::both:
          ok = v >= kInitial && v <= final_value;
          break;
      }
      if (!ok)
        return fmt::format("array[{}] = {}: not what the {} version writes there", g, v,
                           kind_ == Fig3Kind::both ? "both" : "kernel's");
    }
    return "";
  }
  void add_counters(Measurement& m) const override {
    m.counters["threads"] = static_cast<double>(shape_.threads());
  }
  std::vector<std::uint32_t> output() const override { return {out_}; }

 private:
  static constexpr std::uint32_t kInitial = 7;
  Fig3Kind kind_;
  std::uint32_t total_ = 0, initial_ = kInitial;  // what check() expects
  backend::Kernel atomic_, memory_, both_;
  backend::Buffer d_out_, d_array_;
  std::vector<std::uint32_t> array_;
  std::uint32_t out_ = 0;
};

}  // namespace

std::unique_ptr<PointRunner> make_path(const PointContext& ctx, const std::string& variant) {
  micro::point_device(ctx, "atomics", variant);
  if (variant == "copy-plain") return std::make_unique<CopyPoint>(ctx, CopyKind::plain);
  if (variant == "copy-never") return std::make_unique<CopyPoint>(ctx, CopyKind::never);
  if (variant == "copy-thread") return std::make_unique<CopyPoint>(ctx, CopyKind::thread);
  if (variant == "copy-wave") return std::make_unique<CopyPoint>(ctx, CopyKind::wave);
  if (variant == "fig3-atomic") return std::make_unique<Fig3Point>(ctx, Fig3Kind::atomic);
  if (variant == "fig3-memory") return std::make_unique<Fig3Point>(ctx, Fig3Kind::memory);
  if (variant == "fig3-both") return std::make_unique<Fig3Point>(ctx, Fig3Kind::both);
  if (variant == "fig3-ideal") return std::make_unique<Fig3Point>(ctx, Fig3Kind::ideal);
  throw UsageError("atomics: no path variant " + variant);
}

}  // namespace harness::atomics
