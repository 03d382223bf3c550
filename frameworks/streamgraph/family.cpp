#include "frameworks/streamgraph/family.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <ostream>
#include <thread>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/executor_cpu.h"
#include "frameworks/streamgraph/executor_gpu.h"
#include "frameworks/streamgraph/partition.h"
#include "frameworks/streamgraph/pipeline.h"
#include "frameworks/streamgraph/schedule.h"
#include "frameworks/streamgraph/stats.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "harness/core/stopwatch.h"

namespace harness::streamgraph {
namespace {

enum class Mode { cpu_seq, cpu_threads, gpu_multi, gpu_single };

std::string app_name(const std::string& benchmark) {
  std::string s = "sg-";
  for (char c : benchmark) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

const BenchmarkInfo& info_of_app(const std::string& app) {
  for (const BenchmarkInfo& b : benchmark_list()) {
    if (app_name(b.name) == app) return b;
  }
  throw UsageError("streamgraph: unknown app '" + app + "'");
}

std::int64_t param_int(const Params& params, const std::string& key, std::int64_t lo) {
  auto it = params.find(key);
  if (it == params.end()) throw UsageError("streamgraph: missing parameter '" + key + "'");
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(it->second, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != it->second.size() || it->second.empty() || v < lo)
    throw UsageError(
        fmt::format("streamgraph: parameter {}={} is not an integer >= {}", key, it->second, lo));
  return v;
}

std::string param_str(const Params& params, const std::string& key) {
  auto it = params.find(key);
  return it == params.end() ? std::string() : it->second;
}

NodeId sink_of(const Graph& g) {
  for (NodeId v = 0; v < g.node_count(); ++v) {
    if (g.node(v).stateful() && g.node(v).outputs.empty()) return v;
  }
  throw RunError("streamgraph: the benchmark has no sink");
}
NodeId source_of(const Graph& g) {
  for (NodeId v = 0; v < g.node_count(); ++v) {
    if (g.node(v).stateful() && g.node(v).inputs.empty()) return v;
  }
  throw RunError("streamgraph: the benchmark has no source");
}

class StreamGraphPoint final : public PointRunner {
 public:
  StreamGraphPoint(const PointContext& ctx, Mode mode)
      : mode_(mode),
        device_(ctx.device),
        info_(info_of_app(ctx.app)),
        n_(static_cast<int>(param_int(ctx.params, "n", 0))),
        iterations_(param_int(ctx.params, "iterations", 1)),
        params_(ctx.params) {
    if (!info_.valid_n(n_))
      throw SkipPoint(fmt::format("N = {} is not a valid size for {}", n_, info_.name));
  }

  void prepare() override {
    plan_bench_ = make_benchmark(info_.name, n_);
    schedule_ = make_schedule(plan_bench_.graph);
    const Graph& g = plan_bench_.graph;
    const Schedule& s = schedule_;
    const NodeId sink = sink_of(g);
    sink_items_ =
        iterations_ * s.repetitions[static_cast<std::size_t>(sink)] * g.node(sink).filter.pop;
    const NodeId source = source_of(g);
    source_items_ =
        iterations_ * s.repetitions[static_cast<std::size_t>(source)] * g.node(source).filter.push;
    stats_ = graph_stats(g, s);
    if (mode_ == Mode::cpu_seq) {
      // Table 1's partition columns on the paper's C2070 (48 KiB per SM).
      const DeviceLimits c2070 = DeviceLimits::c2070();
      try {
        c2070_partitions_ = partition_multilevel(g, s, c2070).gpu_partitions();
      } catch (const UsageError&) {
        c2070_partitions_ = -1;  // an operator alone does not fit
      }
      c2070_single_ = partition_single(g, s, c2070).feasible ? 1 : 0;
    } else if (mode_ == Mode::cpu_threads) {
      auto threads = param_int(params_, "threads", 0);
      if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
      plan_ = cpu_thread_plan(g, s, static_cast<int>(threads));
      batch_ = param_int(params_, "batch", 1);
    } else if (mode_ == Mode::gpu_multi || mode_ == Mode::gpu_single) {
      if (!device_)
        throw UsageError("streamgraph GPU variants need a GPU backend (opencl or cuda)");
      batch_ = param_int(params_, "batch", 1);
      const auto shared = static_cast<std::uint64_t>(param_int(params_, "shared_kib", 0)) * 1024;
      const DeviceLimits limits = device_limits(device_->info(), shared);
      Partitioning p;
      if (mode_ == Mode::gpu_single) {
        SinglePartitionResult single = partition_single(g, s, limits);
        if (!single.feasible) {
          const bool prefixed = single.reason.rfind("no solution", 0) == 0;
          throw SkipPoint(prefixed ? single.reason : "no solution: " + single.reason);
        }
        p = std::move(single.partitioning);
      } else {
        PartitionOptions po;
        po.seed = static_cast<std::uint64_t>(param_int(params_, "seed", 0));
        try {
          p = partition_multilevel(g, s, limits, po);
        } catch (const UsageError& e) {
          throw SkipPoint(std::string("no partitioning: ") + e.what());
        }
      }
      partitions_ = p.gpu_partitions();
      GpuRunOptions o;
      o.target = codegen_target(device_->info(), shared);
      o.single = mode_ == Mode::gpu_single;
      o.streams = static_cast<int>(param_int(params_, "streams", 1));
      o.max_block = batch_;
      o.name =
          fmt::format("{}-n{}-{}", info_.name, n_, mode_ == Mode::gpu_single ? "single" : "multi");
      const std::string dump = param_str(params_, "dump_source");
      if (!dump.empty() && dump != "0") o.dump_dir = dump == "1" ? "streamgraph-src" : dump;
      device_->make_current();
      try {
        gpu_ = std::make_unique<GpuGraph>(*device_, g, s, p, o);
      } catch (const UsageError& e) {
        throw SkipPoint(std::string("no solution: ") + e.what());
      }
      for (const std::string& f : gpu_->dumped_files())
        fmt::print(stderr, "streamgraph: generated source written to {}\n", f);
      for (const GeneratedKernel& k : gpu_->kernels()) {
        max_parallel_ = std::max(max_parallel_, k.plan.parallel_executions);
        max_local_ = std::max(max_local_, k.plan.local_bytes);
        max_group_ = std::max(max_group_, k.plan.group_size);
      }
      plan_ = gpu_->plan();
    }
  }

  void before_repetition() override { bench_ = make_benchmark(info_.name, n_); }

  Measurement run_once() override {
    Measurement m;
    Stopwatch total;
    if (mode_ == Mode::cpu_seq) {
      const CpuRunResult r = run_sequential(bench_.graph, schedule_, iterations_);
      firings_ = r.firings;
      stages_ = 1;
    } else {
      if (device_) device_->make_current();
      PipelineOptions o;
      o.iterations = iterations_;
      o.batch = batch_;
      const PipelineResult r = run_pipeline(bench_.graph, schedule_, plan_, o);
      firings_ = r.host_firings;
      stages_ = r.stages;
    }
    m.total_ms = total.elapsed_ms();
    m.phases.push_back({"steady", m.total_ms});
    m.counters["executions"] = static_cast<double>(iterations_);
    m.counters["stages"] = stages_;
    m.counters["host_firings"] = static_cast<double>(firings_);
    m.counters["filters"] = stats_.filters;
    m.counters["operators"] = stats_.operators;
    m.counters["channels"] = stats_.channels;
    m.counters["stateful_filters"] = stats_.stateful_filters;
    m.counters["shared_memory_bytes"] = static_cast<double>(stats_.shared_memory_bytes);
    m.counters["total_buffer_bytes"] = static_cast<double>(stats_.total_buffer_bytes);
    if (mode_ == Mode::cpu_seq) {
      m.counters["partitions_c2070"] = c2070_partitions_;
      m.counters["single_fits_c2070"] = c2070_single_;
    }
    if (gpu_) {
      m.counters["gpu_partitions"] = partitions_;
      m.counters["gpu_kernels"] = gpu_->gpu_pieces();
      m.counters["cpu_partitions"] = gpu_->cpu_partitions();
      m.counters["parallel_executions"] = max_parallel_;
      m.counters["local_bytes"] = static_cast<double>(max_local_);
      m.counters["group_size"] = max_group_;
    }
    return m;
  }

  std::string validate_last() override {
    const SinkReport& r = *bench_.report;
    if (r.mismatches > 0)
      return fmt::format("{} N={}: the sink found {} wrong items of {}; first: {}", info_.name, n_,
                         r.mismatches, r.items_checked, r.first_mismatch);
    if (static_cast<std::int64_t>(r.items_checked) != sink_items_)
      return fmt::format("{} N={}: the sink checked {} items, expected {}", info_.name, n_,
                         r.items_checked, sink_items_);
    return "";
  }

  Work work() const override {
    Work w;
    w.input_bytes = static_cast<std::uint64_t>(source_items_) * 4;
    w.items("executions", static_cast<std::uint64_t>(iterations_))
        .items("source_items", static_cast<std::uint64_t>(source_items_))
        .items("sink_items", static_cast<std::uint64_t>(sink_items_));
    return w;
  }

  void dump_output(std::ostream& out) const override {
    const SinkReport& r = *bench_.report;
    out << "benchmark\t" << info_.name << "\nn\t" << n_ << "\nexecutions\t" << iterations_
        << "\nitems_checked\t" << r.items_checked << "\nmismatches\t" << r.mismatches << '\n';
    if (!r.first_mismatch.empty()) out << "first_mismatch\t" << r.first_mismatch << '\n';
  }

 private:
  Mode mode_;
  backend::Device* device_;
  const BenchmarkInfo& info_;
  int n_;
  std::int64_t iterations_;
  Params params_;
  Benchmark plan_bench_, bench_;
  Schedule schedule_;
  PipelinePlan plan_;
  std::unique_ptr<GpuGraph> gpu_;
  std::int64_t batch_ = 1;
  std::int64_t sink_items_ = 0, source_items_ = 0;
  std::uint64_t firings_ = 0;
  int stages_ = 0, partitions_ = 0, max_parallel_ = 0, max_group_ = 0;
  std::uint64_t max_local_ = 0;
  GraphStats stats_;
  int c2070_partitions_ = 0, c2070_single_ = 0;
};

std::string skip_n(const PointContext& ctx) {
  const BenchmarkInfo& info = info_of_app(ctx.app);
  const auto n = param_int(ctx.params, "n", 0);
  if (!info.valid_n(static_cast<int>(n)))
    return fmt::format("N = {} is not a valid size for {}", n, info.name);
  return "";
}

void add_variant(const std::string& name, const std::string& description,
                 std::vector<backend::Kind> backends, Params params, Mode mode,
                 const std::vector<std::string>& apps) {
  VariantInfo v;
  v.framework = "streamgraph";
  v.name = name;
  v.description = description;
  v.backends = std::move(backends);
  v.default_params = std::move(params);
  v.apps = apps;
  v.skip = skip_n;
  v.make = [mode](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
    return std::make_unique<StreamGraphPoint>(ctx, mode);
  };
  Registry::instance().add_variant(std::move(v));
}

}  // namespace

void register_family() {
  std::vector<std::string> apps;
  for (const BenchmarkInfo& b : benchmark_list()) {
    AppInfo app;
    app.name = app_name(b.name);
    app.kind = "streamgraph";
    app.description = "StreamIt " + b.name + ": " + b.description +
                      " (input generated by its source; validated by its checking sink)";
    // The input is generated by the benchmark's source filter; a tiny
    // uniform-f32 file stands in for the dataset the runner loads.
    app.default_dataset = "uniform-f32";
    app.validation = {"tolerance", 1e-4, 1e-5};  // the sinks apply each benchmark's own tolerance
    const int n = b.paper_n > 0 ? b.paper_n : b.small_n.back();
    app.params = {{"n", std::to_string(n)}, {"iterations", "256"}};
    apps.push_back(app.name);
    Registry::instance().add_app(std::move(app));
  }
  add_variant("cpu-seq", "the uniprocessor baseline: one host thread runs the whole schedule",
              {backend::Kind::cpu}, {}, Mode::cpu_seq, apps);
  add_variant("cpu-threads",
              "a pipeline of host threads, each a contiguous range of the schedule, bounded "
              "FIFO channels of `batch` executions between them",
              {backend::Kind::cpu}, {{"threads", "0"}, {"batch", "64"}}, Mode::cpu_threads, apps);
  const Params gpu = {{"batch", "1024"},
                      {"streams", "4"},
                      {"shared_kib", "0"},
                      {"seed", "1"},
                      {"dump_source", "0"}};
  add_variant("gpu-multi",
              "multilevel partitions, one generated kernel each (C/M threads, WS/DB in local "
              "memory), host-staged channels, stateful filters on host threads",
              {backend::Kind::opencl, backend::Kind::cuda}, gpu, Mode::gpu_multi, apps);
  add_variant("gpu-single",
              "the previous work's single partition ('no solution' where it does not fit), "
              "same code generation and executor",
              {backend::Kind::opencl, backend::Kind::cuda}, gpu, Mode::gpu_single, apps);
}

}  // namespace harness::streamgraph
