#include "frameworks/mapreduce/coproc/coproc_runtime.h"

#include <algorithm>
#include <exception>
#include <thread>

#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/cpu/cpu_runtime.h"
#include "frameworks/mapreduce/mars/mars_runtime.h"
#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"

namespace harness::coproc {
namespace {

// "auto" keeps both parts non-empty, so both speeds stay measured.
constexpr double kMinAutoShare = 0.005;

class CoProcessing final : public mapreduce::Runtime {
 public:
  CoProcessing(std::unique_ptr<Runtime> cpu, std::unique_ptr<Runtime> gpu, Options options)
      : cpu_(std::move(cpu)), gpu_(std::move(gpu)), options_(options) {}

  std::string name() const override { return "coproc"; }

  void prepare(const apps::MapReduceApp& app) override {
    cpu_->set_app_params(app_params());
    gpu_->set_app_params(app_params());
    cpu_->prepare(app);
    gpu_->prepare(app);
  }

  mapreduce::RunResult run(const apps::MapReduceApp& app, const std::uint8_t* input,
                           std::size_t size) override {
    Stopwatch host;
    const mapreduce::PreparedInput in = mapreduce::preprocess(app, app_params(), input, size);
    const double preprocess_ms = host.elapsed_ms();

    const double share = options_.cpu_share >= 0 ? options_.cpu_share : auto_share_;
    const std::uint32_t split = split_record(in.offsets, share);
    mapreduce::RunResult on_cpu, on_gpu;
    std::exception_ptr cpu_error;
    std::thread cpu_thread([&] {
      try {
        if (split > 0) on_cpu = cpu_->run_records(app, in, 0, split);
      } catch (...) {
        cpu_error = std::current_exception();
      }
    });
    try {
      if (split < in.records()) on_gpu = gpu_->run_records(app, in, split, in.records());
    } catch (...) {
      cpu_thread.join();
      throw;
    }
    cpu_thread.join();
    if (cpu_error) std::rethrow_exception(cpu_error);

    // Joining the parts: an app with a reduce folds the keys found in both
    // (timed). A map-only app's output is both parts' pairs as they stand
    // (each part wrote its own region of host memory); putting them in one
    // canonical list is the harness's bookkeeping, not timed, as each
    // runtime's own canonical sort is not.
    host.restart();
    mapreduce::RunResult result;
    result.output = app.merge_outputs({std::move(on_cpu.output), std::move(on_gpu.output)});
    const double merge_ms = app.has_reduce() ? host.elapsed_ms() : 0.0;

    // The parts ran at once: the slower one's own time (input in host memory
    // to output in host memory, as every runtime reports it) is the parallel
    // section. Turning each part's output into sorted key/value lists for the
    // harness is not timed, as for a runtime run alone.
    const double cpu_ms = on_cpu.measurement.total_ms, gpu_ms = on_gpu.measurement.total_ms;
    result.measurement.total_ms = preprocess_ms + std::max(cpu_ms, gpu_ms) + merge_ms;
    result.measurement.phases = {{"preprocess", preprocess_ms},
                                 {"cpu_and_gpu", std::max(cpu_ms, gpu_ms)},
                                 {"merge", merge_ms}};
    auto& counters = result.measurement.counters;
    counters["cpu_share"] = share;
    counters["cpu_ms"] = cpu_ms;
    counters["gpu_ms"] = gpu_ms;
    counters["cpu_records"] = split;
    counters["gpu_records"] = in.records() - split;
    for (const auto& [name, value] : on_gpu.measurement.counters) counters["gpu." + name] = value;
    result.work.add(on_cpu.work).add(on_gpu.work);
    update_auto_share(in, split, cpu_ms, gpu_ms);
    return result;
  }

 private:
  // Next run's share: the CPU's speed over both speeds (bytes per ms of each
  // part), so that both parts would have finished together this time.
  void update_auto_share(const mapreduce::PreparedInput& in, std::uint32_t split, double cpu_ms,
                         double gpu_ms) {
    const double cpu_bytes = in.offsets[split] - in.offsets[0];
    const double gpu_bytes = in.offsets[in.records()] - in.offsets[split];
    if (cpu_bytes <= 0 || gpu_bytes <= 0 || cpu_ms <= 0 || gpu_ms <= 0) return;
    const double cpu_rate = cpu_bytes / cpu_ms, gpu_rate = gpu_bytes / gpu_ms;
    auto_share_ = std::clamp(cpu_rate / (cpu_rate + gpu_rate), kMinAutoShare, 1 - kMinAutoShare);
  }

  std::unique_ptr<Runtime> cpu_, gpu_;
  Options options_;
  double auto_share_ = 0.5;
};

}  // namespace

std::uint32_t split_record(const std::vector<std::uint32_t>& offsets, double share) {
  const auto records = static_cast<std::uint32_t>(offsets.size() - 1);
  if (share <= 0 || records == 0) return 0;
  if (share >= 1) return records;
  const double target = offsets.front() + share * (offsets.back() - offsets.front());
  // The first record starting at or after the target.
  const auto it = std::lower_bound(offsets.begin(), offsets.end() - 1, target,
                                   [](std::uint32_t off, double t) { return off < t; });
  return static_cast<std::uint32_t>(it - offsets.begin());
}

std::unique_ptr<mapreduce::Runtime> make_runtime(std::unique_ptr<mapreduce::Runtime> cpu,
                                                 std::unique_ptr<mapreduce::Runtime> gpu,
                                                 const Options& options) {
  return std::make_unique<CoProcessing>(std::move(cpu), std::move(gpu), options);
}

namespace {
ParamDecls coproc_params() {
  ParamDecl share = real_param("cpu_share", 0, 0, 1,
                               "share of each job's records run on the cpu runtime; auto: by "
                               "the measured speeds");
  share.words = {"auto"};
  share.default_value = "auto";
  ParamDecls decls = mars::params();
  decls.push_back(share);
  decls.push_back(unsigned_param("cpu_threads", 0, 0, 4096,
                                 "host threads of the cpu part; 0: all cores but one"));
  return decls;
}

// -1 for auto.
double parse_share(const Params& params) {
  check_params(coproc_params(), params);
  if (param_string(params, "cpu_share") == "auto") return -1;
  return param_real(params, "cpu_share");
}
}  // namespace

void register_variants() {
  VariantInfo v;
  v.framework = "coproc";
  v.name = "mars-cpu";
  v.description =
      "CPU+GPU co-processing (mars.fig9): each job's records split between the cpu runtime and "
      "Mars by their measured speeds (cpu_share=auto) or a fixed share, run at once, outputs "
      "merged";
  v.backends = {backend::Kind::opencl, backend::Kind::cuda};
  v.params = coproc_params();
  v.devices.with_host = true;
  // Mars builds every app; those with a reduce merge through merge_values
  // (the four of them have it).
  v.apps = cpu::built_apps();
  v.make = mapreduce::point_factory([](const PointContext& ctx) {
    if (!ctx.device)
      throw UsageError("coproc needs a GPU backend (opencl or cuda) beside the host");
    Options o;
    o.cpu_share = parse_share(ctx.params);
    cpu::Options c;
    // One host core stays with the GPU part's host thread.
    const unsigned threads = param_u32(ctx.params, "cpu_threads");
    c.threads = threads != 0 ? threads : std::max(1u, cpu::resolve_threads(0) - 1);
    auto on_cpu = cpu::make_runtime(ctx.app, c);
    if (!on_cpu) throw UsageError("the cpu runtime has no build of '" + ctx.app + "'");
    return make_runtime(std::move(on_cpu),
                        mars::make_runtime(*ctx.device, mars::options_from(ctx.params)), o);
  });
  Registry::instance().add_variant(std::move(v));
}

}  // namespace harness::coproc
