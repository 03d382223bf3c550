#include "frameworks/sl1/sl1.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/blocks/cuda_programs.h"
#include "frameworks/sl1/app_kernels.h"
#include "frameworks/sl1/cache_plan.h"
#include "frameworks/workloads/workload_point.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "harness/core/stopwatch.h"

namespace harness::sl1 {

std::string program_name(const std::string& app, Mode mode, std::uint32_t line_bytes) {
  switch (mode) {
    case Mode::no_l1:
      return "sl1/" + app + "/no-l1";
    case Mode::hw_l1:
      return "sl1/" + app + "/hw-l1";
    case Mode::sl1:
      return fmt::format("sl1/{}/sl1-{}", app, line_bytes);
    case Mode::register_line:
      return "sl1/" + app + "/register-line";
    default:  // the staged and coalesced kernels do not use the accessor: no-l1's program has them
      return "sl1/" + app + "/no-l1";
  }
}

std::string program_defines(Mode mode, std::uint32_t line_bytes) {
  // SL1_MODE_* of kernels/sl1_cache.clh.
  const int code = mode == Mode::hw_l1           ? 2
                   : mode == Mode::sl1           ? 3
                   : mode == Mode::register_line ? 4
                                                 : 1;
  return fmt::format("-DSL1_MODE={} -DSL1_LINE_BYTES={}", code,
                     mode == Mode::sl1 ? line_bytes : 16);
}

namespace {

constexpr std::uint64_t kPad = 48;  // a whole line of every size (8, 16, 24)

struct VariantDef {
  const char* name;
  Mode mode;
  bool caches_nothing;
  const char* description;
};

bool software_cached(Mode m) { return m == Mode::sl1 || m == Mode::register_line; }

// Every variant on every app: the input scanned by work-items that each own a
// contiguous slice (whole lines or records: AppKernel::cuts), or staged in
// tiles.
class Sl1Point final : public workloads::WorkloadPoint {
 public:
  Sl1Point(const PointContext& ctx, const VariantDef& def)
      : WorkloadPoint(ctx), def_(def), app_(make_app_kernel(ctx.app)) {
    if (!ctx.device) throw UsageError(fmt::format("sl1/{} needs a GPU backend device", def.name));
    device_ = ctx.device;
    if (def.mode == Mode::staging && !app_->staging_problem().empty())
      throw SkipPoint(app_->staging_problem());
    if (def.mode == Mode::coalesced && !app_->has_coalesced())
      throw SkipPoint(ctx.app +
                      " has no coalesced kernel: 16 bytes a work-item cut its lines and records; "
                      "only upper's and wc's answers are sums over bytes and their neighbours");
  }

 protected:
  void prepare_run() override {
    const backend::DeviceInfo& info = device_->info();
    const Params& p = ctx_.params;
    const std::uint32_t group_size = param_u32(p, "group_size");
    if (info.max_work_group_size &&
        group_size > static_cast<std::uint32_t>(info.max_work_group_size))
      throw SkipPoint(fmt::format("work-groups of {} are more than {} allows ({})", group_size,
                                  info.name, info.max_work_group_size));
    std::uint32_t groups = param_u32(p, "groups");
    if (groups == 0) groups = 4 * static_cast<std::uint32_t>(std::max(info.compute_units, 1));
    launch_.shape = {groups, group_size};
    threads_ = std::uint64_t{groups} * group_size;
    line_bytes_ = def_.mode == Mode::sl1
                      ? static_cast<std::uint32_t>(std::stoul(param_string(p, "line_bytes")))
                      : 16;
    const auto structures = static_cast<std::uint32_t>(app_->structures().size());

    // The text, padded to whole lines (zeros past its end; a multiple of 16
    // bytes, the staged kernels copy pairs of words).
    launch_.size = ctx_.input_size;
    const std::uint64_t padded = (ctx_.input_size + kPad) / kPad * kPad;
    text_ = device_->allocate(padded);
    device_->queue().fill_zero(text_, 0, padded);
    upload_text();
    launch_.text = &text_;

    launch_.mode = def_.mode;
    if (def_.mode == Mode::staging) {
      launch_.part = param_u32(p, "part");
      if (launch_.part < 8 || !std::has_single_bit(launch_.part))
        throw UsageError(fmt::format(
            "sl1/staging: part must be a power of two of at least 8 bytes, not {}", launch_.part));
      // A pad word after each part (kernels/sl1_staging.clh).
      launch_.local_bytes = std::uint64_t{launch_.part + 8} * group_size;
      if (info.local_memory_bytes && launch_.local_bytes > info.local_memory_bytes)
        throw SkipPoint(fmt::format("a tile of {} B is more than the {} B of local memory of {}",
                                    launch_.local_bytes, info.local_memory_bytes, info.name));
    } else if (def_.mode != Mode::coalesced) {
      const std::vector<std::uint64_t> cuts64 =
          app_->cuts(ctx_.input, ctx_.input_size, static_cast<unsigned>(threads_));
      cuts_ = device_->allocate(cuts64.size() * sizeof(std::uint64_t));
      device_->queue().write(cuts_, 0, cuts64.data(), cuts64.size() * sizeof(std::uint64_t));
      launch_.cuts = &cuts_;
      if (def_.mode == Mode::sl1 && !def_.caches_nothing) {
        launch_.lines = lines_per_thread(info.local_memory_bytes, param_size(p, "app_local"),
                                         group_size, line_bytes_, structures);
      }
      launch_.monitor = def_.mode == Mode::sl1 ? param_u32(p, "monitor") : 0;
      launch_.local_bytes =
          std::max<std::uint64_t>(8, std::uint64_t{launch_.lines} * group_size * line_bytes_);
      stats_host_.assign(
          software_cached(def_.mode) ? threads_ * structures * kStatFields * app_->passes() : 1, 0);
      stats_ = device_->allocate(stats_host_.size() * sizeof(std::uint32_t));
      launch_.stats = &stats_;
    }
    app_->prepare(*device_, p, ctx_.input, ctx_.input_size, threads_);
    backend::ProgramSource src =
        program_source(program_name(ctx_.app, def_.mode, line_bytes_), {app_->source()});
    src.opencl_options = program_defines(def_.mode, line_bytes_);
    program_ = device_->build(src);
    kernel_ = program_->kernel(app_->kernel_name(def_.mode));
    device_->queue().finish();
  }

  // Upper rewrites its text: each run starts from the input again (untimed).
  void before_repetition() override {
    if (workload_.modifies_input()) upload_text();
  }

  Measurement run_once() override {
    last_.reset();
    backend::Queue& q = device_->queue();
    Measurement m;
    Stopwatch clock;
    app_->launch(q, kernel_, launch_);
    q.finish();
    const double kernel_ms = clock.elapsed_ms();
    Stopwatch copy;
    last_ = app_->read_output(q, launch_);
    m.total_ms = clock.elapsed_ms();
    m.phases = {{"kernel", kernel_ms}, {"copy_out", copy.elapsed_ms()}};
    m.counters["threads"] = static_cast<double>(threads_);
    // The launch shape and how many launches a run makes (an app launched once
    // per pass), so a profiler's launches can be told apart per point
    // (scripts/ncu_counters.py, figure 5.15's instruction counts).
    m.counters["groups"] = launch_.shape.groups;
    const bool whole_text = def_.mode == Mode::staging || def_.mode == Mode::coalesced;
    m.counters["kernel_launches"] = whole_text ? 1.0 : static_cast<double>(app_->passes());
    if (whole_text) {
      if (def_.mode == Mode::staging) m.counters["stage_part_bytes"] = launch_.part;
      return m;
    }
    m.counters["sl1_line_bytes"] = software_cached(def_.mode) ? line_bytes_ : 0;
    // The hit rate of a scan that reads each byte of a line once (wc: a miss,
    // then 15 hits in 16-byte lines), what figure 5.11's rates are judged by.
    m.counters["sl1_sequential_hit_rate"] =
        software_cached(def_.mode) ? 1.0 - 1.0 / line_bytes_ : 0.0;
    m.counters["sl1_lines_per_thread"] = def_.mode == Mode::register_line
                                             ? static_cast<double>(app_->structures().size())
                                             : launch_.lines;
    if (software_cached(def_.mode)) {
      read_now(q, stats_host_.data(), stats_, 0, stats_host_.size() * sizeof(std::uint32_t));
      for (const auto& [name, value] : stat_counters(stats_host_, app_->structures()))
        m.counters[name] = value;
    }
    return m;
  }

  Work work() const override {
    Work w = input_work();
    const std::uint64_t written = app_->written_bytes(ctx_.input_size);
    // A kernel that writes back about what it reads (upper, not K-means'
    // 8 bytes a 64-byte record) is bound by a copy's bandwidth, not a read's.
    const std::string dram_ceiling = 2 * written >= ctx_.input_size ? "d2d_copy" : "";
    w.items("bytes", ctx_.input_size)
        .reads(level::dram, ctx_.input_size, "kernel", dram_ceiling)
        .writes(level::dram, written, "kernel", dram_ceiling)
        .writes(level::d2h, app_->copied_out(), "copy_out", "d2h_pinned");
    return w;
  }

 private:
  void upload_text() {
    if (ctx_.input_size) device_->queue().write(text_, 0, ctx_.input, ctx_.input_size);
    device_->queue().finish();
  }

  VariantDef def_;
  std::unique_ptr<AppKernel> app_;
  backend::Device* device_ = nullptr;
  Launch launch_;
  std::uint64_t threads_ = 0;
  std::uint32_t line_bytes_ = 16;
  backend::Buffer text_, cuts_, stats_;
  std::vector<std::uint32_t> stats_host_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel kernel_;
};

ParamDecls common_params() {
  return {pow2_param("group_size", 256, 32, 1024, "work-items per work-group"),
          unsigned_param("groups", 0, 0, 1u << 20,
                         "work-groups (0: 4 per compute unit); each work-item scans its own "
                         "slice of whole lines or records")};
}

ParamDecls params_of(Mode mode, bool caches_nothing) {
  ParamDecls p = common_params();
  if (mode == Mode::sl1) {
    p.push_back(choice_param("line_bytes", "16", {"8", "16", "24"},
                             "bytes of an S-L1 line (the thesis' 16; figure 5.17's 8 and 24)"));
    p.push_back(unsigned_param("monitor", 300, 1, 1u << 30,
                               "accesses each thread simulates before S-L1 decides what to cache"));
    if (!caches_nothing)
      p.push_back(size_param("app_local", "0", 0, std::uint64_t{1} << 30,
                             "local memory per work-group the app keeps for itself; S-L1 "
                             "sizes its lines from the rest"));
  }
  if (mode == Mode::staging)
    p.push_back(pow2_param("part", 64, 8, 4096,
                           "bytes each work-item scans of a staged tile, a word at a time"));
  return p;
}

}  // namespace

void register_family() {
  static const VariantDef defs[] = {
      {"no-l1", Mode::no_l1, false,
       "every byte an L1-bypassing load (CUDA ld.global.cg); on OpenCL the plain load (OpenCL C "
       "cannot choose the cache level), the same code as hw-l1"},
      {"hw-l1", Mode::hw_l1, false,
       "every byte an L1-caching load (CUDA ld.global.ca); on OpenCL the plain load (OpenCL C "
       "cannot choose the cache level), the same code as no-l1"},
      {"sl1", Mode::sl1, false,
       "S-L1: the first `monitor` accesses of each thread simulated, then thread-private lines "
       "of line_bytes in local memory for the structures with more than 50% hits"},
      {"sl1-nothing", Mode::sl1, true,
       "S-L1 enabled but given no lines: the monitoring and the accessor's checks, nothing "
       "cached (figure 5.16's overhead)"},
      {"register-line", Mode::register_line, false,
       "each thread loads 16 aligned bytes of each structure into registers and consumes them "
       "(no monitoring, no shared memory)"},
      {"coalesced", Mode::coalesced, false,
       "each work-item loads 16 consecutive bytes at a time, consecutive work-items consecutive "
       "bytes (a grid-wide stride), and scans them in registers, a word at a time (upper and "
       "wc)"},
      {"staging", Mode::staging, false,
       "a work-group copies a tile of the text into local memory with coalesced loads, then "
       "each work-item scans its part of it a word at a time (upper and wc)"},
  };
  for (const VariantDef& d : defs) {
    VariantInfo v;
    v.framework = "sl1";
    v.name = d.name;
    v.description = d.description;
    v.backends = {backend::Kind::opencl, backend::Kind::cuda};
    v.apps = app_names();
    v.params = params_of(d.mode, d.caches_nothing);
    const VariantDef def = d;
    v.make = [def](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
      return std::make_unique<Sl1Point>(ctx, def);
    };
    Registry::instance().add_variant(std::move(v));
  }
}

}  // namespace harness::sl1
