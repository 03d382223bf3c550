// System vs software atomic add (figures 8 and 9) and the speedup model
// (section V): atomics/system and atomics/software on the apps atomic-add (the
// atomic alone) and atomic-add-mem (each work-item also stores the old value
// it got back), and atomics/model, which runs both on atomic-add, predicts
// their speedup from parameters measured on the device and records both.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <random>

#include "harness/core/errors.h"
#include "micro/atomics/internal.h"

namespace harness::atomics {
namespace {

constexpr std::uint32_t kPoison = 0xffffffffu;

std::uint32_t inc_of(std::uint64_t g) { return 1u + static_cast<std::uint32_t>(g & 1023u); }

enum class AddMode { system, software, model };

class AddPoint final : public KernelPoint {
 public:
  AddPoint(const PointContext& ctx, AddMode mode)
      : KernelPoint(ctx),
        mode_(mode),
        with_memory_(ctx.app == "atomic-add-mem"),
        nvars_(param_u32(ctx.params, "vars")),
        skip_every_(param_u32(ctx.params, "skip_every")) {
    if (nvars_ == 0) throw UsageError("atomics: vars must be at least 1");
    if (shape_.threads() >= (std::uint64_t{1} << 22))
      throw SkipPoint("more than 4 Mi work-items: the sum of the increments would wrap");
    if (mode_ == AddMode::model) {
      const auto it = ctx.params.find("curve");
      curve_ = it == ctx.params.end() ? "measured" : it->second;
      if (curve_ != "measured" && curve_ != "predicted")
        throw UsageError("atomics: curve must be 'measured' or 'predicted', not '" + curve_ + "'");
    }
    // The expected final values and, per variable, the increments in caller order.
    expected_.assign(nvars_, 0);
    for (std::uint64_t g = 0; g < shape_.threads(); ++g) {
      if (!active(g)) continue;
      expected_[var_of(g)] += inc_of(g);
    }
  }

  void prepare() override {
    program_ = device_.build(portable_program());
    const std::string suffix = with_memory_ ? "_mem" : "";
    system_ = program_->kernel("atomics_system_add" + suffix);
    software_ = program_->kernel("atomics_software_add" + suffix);
    if (mode_ != AddMode::system) {
      swa_ = std::make_unique<SoftwareAtomic>(device_, shape_);
      if (std::string why = residency_problem(device_, software_, shape_.groups + 1,
                                              shape_.group_size, swa_->scratch_bytes());
          !why.empty())
        throw SkipPoint(why);
    }
    if (mode_ == AddMode::model) params_ = measure_model(device_);
    d_vars_ = device_.allocate(std::size_t{nvars_} * 4);
    d_vars_system_ = device_.allocate(std::size_t{nvars_} * 4);
    if (with_memory_) d_old_ = device_.allocate(shape_.threads() * 4);
    vars_.assign(nvars_, 0);
    vars_system_.assign(nvars_, 0);
    old_.assign(with_memory_ ? shape_.threads() : 0, kPoison);
  }

  void before_repetition() override {
    auto& q = device_.queue();
    q.fill_zero(d_vars_, 0, std::size_t{nvars_} * 4);
    q.fill_zero(d_vars_system_, 0, std::size_t{nvars_} * 4);
    if (with_memory_) {
      std::fill(old_.begin(), old_.end(), kPoison);
      q.write(d_old_, 0, old_.data(), old_.size() * 4);
    }
    if (swa_) swa_->reset(q);
    q.finish();
    q.take_spans();
  }

  Work work() const override {
    Work w;
    std::uint64_t adds = 0;
    for (std::uint64_t g = 0; g < shape_.threads(); ++g) adds += active(g) ? 1 : 0;
    if (mode_ == AddMode::model) {
      w.items("system_atomics", adds, "system").items("software_atomics", adds, "software");
    } else {
      w.items("atomics", adds, "kernel");
      if (with_memory_) w.writes(level::dram, shape_.threads() * 4, "kernel");
    }
    return w;
  }

  void corrupt_expected() override { expected_[0] ^= 1u; }

 protected:
  void timed(backend::Queue& q) override {
    if (mode_ != AddMode::model) {
      KernelPoint::timed(q);
      return;
    }
    q.begin_span("system");
    launch_system(q, d_vars_system_);
    q.end_span();
    q.begin_span("software");
    launch(q);
    q.end_span();
  }
  void launch(backend::Queue& q) override {
    if (mode_ == AddMode::system) {
      launch_system(q, d_vars_);
      return;
    }
    if (with_memory_)
      launch_software(q, software_, *swa_, d_vars_, nvars_, skip_every_, d_old_);
    else
      launch_software(q, software_, *swa_, d_vars_, nvars_, skip_every_);
  }
  void read_back(backend::Queue& q) override {
    q.read(vars_.data(), d_vars_, 0, vars_.size() * 4);
    if (mode_ == AddMode::model) q.read(vars_system_.data(), d_vars_system_, 0, vars_.size() * 4);
    if (with_memory_) q.read(old_.data(), d_old_, 0, old_.size() * 4);
    if (swa_) swa_->read_status(q);
  }
  std::string check() override {
    if (swa_) {
      if (std::string bad = swa_->problem(); !bad.empty()) return bad;
    }
    if (std::string bad = check_vars(vars_, mode_ == AddMode::system ? "system" : "software");
        !bad.empty())
      return bad;
    if (mode_ == AddMode::model) {
      if (std::string bad = check_vars(vars_system_, "system"); !bad.empty()) return bad;
    }
    if (with_memory_) {
      std::vector<std::vector<std::uint32_t>> olds(nvars_), incs(nvars_);
      for (std::uint64_t g = 0; g < shape_.threads(); ++g) {
        if (!active(g)) continue;
        olds[var_of(g)].push_back(old_[g]);
        incs[var_of(g)].push_back(inc_of(g));
      }
      for (std::uint32_t v = 0; v < nvars_; ++v) {
        if (std::string bad = check_old_values(olds[v], incs[v], 0, expected_[v]); !bad.empty())
          return fmt::format("variable {}: {}", v, bad);
      }
    }
    return "";
  }
  void add_counters(Measurement& m) const override {
    m.counters["threads"] = static_cast<double>(shape_.threads());
    m.counters["wave"] = shape_.wave;
    if (swa_) m.counters["launched_groups"] = shape_.groups + 1;
    if (mode_ != AddMode::model) return;
    double sys = 0, sw = 0;
    for (const auto& p : m.phases) {
      if (p.name == "system") sys = p.ms;
      if (p.name == "software") sw = p.ms;
    }
    const double nc = shape_.group_size, nwg = shape_.groups;
    const double predicted = model_speedup(params_, nc, nwg, nwg);
    const double measured = sw > 0 ? sys / sw : 0;
    m.counters["t_fast_ns"] = params_.t_fast_ns;
    m.counters["t_comp_ns"] = params_.t_comp_ns;
    m.counters["t_local_ns"] = params_.t_local_ns;
    m.counters["x"] = params_.t_comp_ns / params_.t_fast_ns;
    m.counters["x_l"] = params_.t_local_ns / params_.t_fast_ns;
    m.counters["model_system_ns"] = model_system_ns(params_, nc, nwg);
    m.counters["model_software_ns"] = model_software_ns(params_, nc, nwg, nwg);
    m.counters["speedup_measured"] = measured;
    m.counters["speedup_predicted"] = predicted;
    m.counters["model_rel_error"] = measured > 0 ? std::abs(predicted - measured) / measured : 0;
    m.counters["speedup"] = curve_ == "predicted" ? predicted : measured;
  }
  std::vector<std::uint32_t> output() const override { return vars_; }

 private:
  bool active(std::uint64_t g) const { return skip_every_ == 0 || g % skip_every_ != 0; }
  std::uint32_t var_of(std::uint64_t g) const {
    return static_cast<std::uint32_t>((g / shape_.wave) % nvars_);
  }
  void launch_system(backend::Queue& q, backend::Buffer& vars) {
    const backend::LaunchShape shape{shape_.groups, shape_.group_size};
    if (with_memory_)
      q.launch(system_, shape, vars, nvars_, shape_.wave, skip_every_, d_old_);
    else
      q.launch(system_, shape, vars, nvars_, shape_.wave, skip_every_);
  }
  std::string check_vars(const std::vector<std::uint32_t>& got, const char* which) const {
    for (std::uint32_t v = 0; v < nvars_; ++v) {
      if (got[v] != expected_[v])
        return fmt::format("{} atomic: variable {} holds {}, expected {}", which, v, got[v],
                           expected_[v]);
    }
    return "";
  }

  AddMode mode_;
  bool with_memory_;
  std::uint32_t nvars_, skip_every_;
  std::string curve_;
  std::vector<std::uint32_t> expected_, vars_, vars_system_, old_;
  backend::Kernel system_, software_;
  std::unique_ptr<SoftwareAtomic> swa_;
  backend::Buffer d_vars_, d_vars_system_, d_old_;
  ModelParams params_;
};

// Median device time of `launch` over 3 runs after a warm-up, ms.
double probe_ms(backend::Device& device, const std::function<void(backend::Queue&)>& launch,
                const std::function<void(backend::Queue&)>& reset) {
  return micro::median_kernel_ms(device, launch, reset, 3, "atomics model probe");
}

}  // namespace

ModelParams measure_model(backend::Device& device) {
  static std::map<std::string, ModelParams> cache;
  const backend::DeviceInfo& info = device.info();
  const std::string key =
      fmt::format("{}:{}:{}", backend::kind_name(info.kind), info.index, info.name);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const bool gpu = info.type == "gpu";
  std::shared_ptr<backend::Program> program = device.build(portable_program());
  auto& q = device.queue();
  ModelParams p;
  {  // t_fast: dependent loads around a random cycle bigger than L1, within L2
    const std::uint32_t words = gpu ? (4u << 20) : (256u << 10);
    const std::uint32_t steps = gpu ? 16384u : 65536u;
    std::vector<std::uint32_t> next(words);
    std::iota(next.begin(), next.end(), 0u);
    std::mt19937 rng(12345);
    for (std::uint32_t i = words - 1; i > 0; --i) {  // Sattolo: one cycle through all words
      std::uniform_int_distribution<std::uint32_t> pick(0, i - 1);
      std::swap(next[i], next[pick(rng)]);
    }
    std::uint32_t end = 0;
    for (std::uint32_t s = 0; s < steps; ++s) end = next[end];
    backend::Buffer d_next = device.allocate(std::size_t{words} * 4);
    backend::Buffer d_out = device.allocate(4);
    q.write(d_next, 0, next.data(), next.size() * 4);
    backend::Kernel k = program->kernel("atomics_probe_chase");
    const double ms = probe_ms(
        device,
        [&](backend::Queue& qq) {
          qq.launch(k, backend::LaunchShape{1, 1}, d_next, steps, d_out);
        },
        [&](backend::Queue& qq) { qq.fill_zero(d_out, 0, 4); });
    std::uint32_t got = 0;
    q.read(&got, d_out, 0, 4);
    q.finish();
    q.take_spans();
    if (got != end)
      throw RunError(fmt::format("atomics model probe: chase ended at {}, expected {}", got, end));
    p.t_fast_ns = ms * 1e6 / steps;
  }
  const std::uint32_t group =
      info.max_work_group_size > 0
          ? std::min<std::uint32_t>(256, static_cast<std::uint32_t>(info.max_work_group_size))
          : 256;
  {  // t_comp: contended global atomics
    const std::uint32_t groups = static_cast<std::uint32_t>(std::max(1, info.compute_units)) * 4;
    const std::uint32_t iters = gpu ? 64 : 8;
    const std::uint64_t threads = std::uint64_t{groups} * group;
    backend::Buffer counter = device.allocate(4);
    backend::Buffer sink = device.allocate(threads * 4);
    backend::Kernel k = program->kernel("atomics_probe_global");
    const double ms = probe_ms(
        device,
        [&](backend::Queue& qq) {
          qq.launch(k, backend::LaunchShape{groups, group}, counter, iters, sink);
        },
        [&](backend::Queue& qq) { qq.fill_zero(counter, 0, 4); });
    std::uint32_t got = 0;
    q.read(&got, counter, 0, 4);
    q.finish();
    q.take_spans();
    if (got != threads * iters)
      throw RunError(
          fmt::format("atomics model probe: global counter {} expected {}", got, threads * iters));
    p.t_comp_ns = ms * 1e6 / static_cast<double>(threads * iters);
  }
  {  // t_local: contended local atomics in one work-group
    const std::uint32_t iters = gpu ? 4096 : 64;
    backend::Buffer out = device.allocate(4);
    backend::Buffer sink = device.allocate(std::size_t{group} * 4);
    backend::Kernel k = program->kernel("atomics_probe_local");
    const double ms = probe_ms(
        device,
        [&](backend::Queue& qq) {
          qq.launch(k, backend::LaunchShape{1, group}, iters, out, sink);
        },
        [&](backend::Queue& qq) { qq.fill_zero(out, 0, 4); });
    std::uint32_t got = 0;
    q.read(&got, out, 0, 4);
    q.finish();
    q.take_spans();
    if (got != group * iters)
      throw RunError(
          fmt::format("atomics model probe: local counter {} expected {}", got, group * iters));
    p.t_local_ns = ms * 1e6 / (static_cast<double>(group) * iters);
  }
  cache[key] = p;
  return p;
}

std::unique_ptr<PointRunner> make_add(const PointContext& ctx, const std::string& variant) {
  micro::point_device(ctx, "atomics", variant);
  if (variant == "model") return std::make_unique<AddPoint>(ctx, AddMode::model);
  return std::make_unique<AddPoint>(ctx,
                                    variant == "software" ? AddMode::software : AddMode::system);
}

}  // namespace harness::atomics
