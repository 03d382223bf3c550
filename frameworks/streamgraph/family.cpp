#include "frameworks/streamgraph/family.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <ostream>
#include <string>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/calibration.h"
#include "frameworks/streamgraph/executor_cpu.h"
#include "frameworks/streamgraph/executor_gpu.h"
#include "frameworks/streamgraph/mapper.h"
#include "frameworks/streamgraph/partition.h"
#include "frameworks/streamgraph/pipeline.h"
#include "frameworks/streamgraph/schedule.h"
#include "frameworks/streamgraph/stats.h"
#include "harness/core/errors.h"
#include "harness/core/host_cores.h"
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

// The benchmark's own parameters: N and the executions of a run.
ParamDecls app_params(const BenchmarkInfo& b) {
  const int n = b.paper_n > 0 ? b.paper_n : b.small_n.back();
  return {int_param("n", n, 1, 4096, "the benchmark's size N (valid values per benchmark)"),
          int_param("iterations", 256, 1, INT64_MAX, "executions of the stream graph per run")};
}

ParamDecls thread_params() {
  return {int_param("threads", 0, 0, 4096, "host threads; 0: one per core"),
          int_param("batch", 64, 1, INT64_MAX, "executions per FIFO hand-over")};
}

ParamDecls gpu_params() {
  ParamDecl dump = string_param("dump_source", "0",
                                "write the generated kernels: 0 no, 1 to streamgraph-src/, or a "
                                "folder");
  return {
      int_param("batch", 1024, 1, INT64_MAX, "executions per kernel launch"),
      int_param("streams", 4, 1, 64, "queues per GPU"),
      int_param("shared_kib", 0, 0, 1 << 20, "local memory per work-group in KiB; 0: the device's"),
      int_param("seed", 1, 0, INT64_MAX, "the multilevel partitioner's seed"),
      dump,
      choice_param("same_gpu_channels", "device", {"device", "host"},
                   "channels between pieces of one GPU: device memory or host FIFOs"),
      real_param("partition_ns", 0, 0, 1e9,
                 "cost of being a partition, ns an execution (the cost model's term)")};
}

ParamDecls multi_params() {
  ParamDecls decls = gpu_params();
  decls.push_back(int_param("gpus", 1, 1, 64, "GPUs the partitions are mapped onto"));
  decls.push_back(
      bool_param("share_devices", false, "run `gpus` logical GPUs on fewer devices, round-robin"));
  decls.push_back(choice_param("channels", "host", {"host", "p2p"},
                               "channels between GPUs: staged on the host or peer to peer"));
  decls.push_back(choice_param(
      "weights", "estimate", {"estimate", "measured"},
      "what the mapper balances: the cost model's T (the paper) or each partition's kernel "
      "time measured on one GPU first (calibration.h)"));
  return decls;
}

ParamDecls variant_params(Mode mode) {
  switch (mode) {
    case Mode::cpu_seq:
      return {};
    case Mode::cpu_threads:
      return thread_params();
    case Mode::gpu_multi:
      return multi_params();
    case Mode::gpu_single:
      return gpu_params();
  }
  return {};
}

// The point's parameters: the declared defaults of its variant and benchmark
// overridden by the context's, all checked.
Params point_params(const PointContext& ctx, Mode mode) {
  ParamDecls decls = variant_params(mode);
  for (const ParamDecl& d : app_params(info_of_app(ctx.app))) decls.push_back(d);
  return resolve_params(decls, ctx.params);
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
        devices_(ctx.devices),
        info_(info_of_app(ctx.app)),
        params_(point_params(ctx, mode)),
        n_(static_cast<int>(param_int(params_, "n"))),
        iterations_(param_int(params_, "iterations")) {
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
      auto threads = param_int(params_, "threads");
      if (threads == 0) threads = harness::usable_cores();
      plan_ = cpu_thread_plan(g, s, static_cast<int>(threads));
      batch_ = param_int(params_, "batch");
    } else if (mode_ == Mode::gpu_multi || mode_ == Mode::gpu_single) {
      if (!device_)
        throw UsageError("streamgraph GPU variants need a GPU backend (opencl or cuda)");
      const std::vector<backend::Device*> logical = logical_gpus();
      batch_ = param_int(params_, "batch");
      const auto shared = static_cast<std::uint64_t>(param_int(params_, "shared_kib")) * 1024;
      DeviceLimits limits = device_limits(device_->info(), shared);
      limits.partition_overhead_ns = param_real(params_, "partition_ns");
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
        po.seed = static_cast<std::uint64_t>(param_int(params_, "seed"));
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
      o.streams = static_cast<int>(param_int(params_, "streams"));
      o.max_block = batch_;
      o.name =
          fmt::format("{}-n{}-{}", info_.name, n_, mode_ == Mode::gpu_single ? "single" : "multi");
      const std::string& dump = param_string(params_, "dump_source");
      if (!dump.empty() && dump != "0") o.dump_dir = dump == "1" ? "streamgraph-src" : dump;
      o.channels = parse_channel_mode(params_.count("channels") ? params_.at("channels") : "host");
      o.device_channels = param_string(params_, "same_gpu_channels") == "device";
      device_->make_current();
      const Mapping mapping = map_for(g, p, logical, limits, o);
      try {
        gpu_ = std::make_unique<GpuGraph>(logical, g, s, p, mapping, o);
      } catch (const UsageError& e) {
        throw SkipPoint(std::string("no solution: ") + e.what());
      }
      for (backend::Device* d : logical) {
        if (std::find(physical_.begin(), physical_.end(), d) == physical_.end())
          physical_.push_back(d);
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
      if (gpu_) gpu_->reset_stats();
      PipelineOptions o;
      o.iterations = iterations_;
      o.batch = batch_;
      const PipelineResult r = run_pipeline(bench_.graph, schedule_, plan_, o);
      firings_ = r.host_firings;
      stages_ = r.stages;
      blocked_s_ = r.stage_blocked_seconds;
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
      gpu_counters(m);
    }
    return m;
  }

  // The mapping of the partitions onto the logical GPUs, weighted by T or,
  // with weights=measured, by kernel times measured on the first GPU.
  Mapping map_for(const Graph& g, const Partitioning& p,
                  const std::vector<backend::Device*>& logical, const DeviceLimits& limits,
                  const GpuRunOptions& o) {
    const int gpus = static_cast<int>(logical.size());
    // One GPU partition or one GPU: nothing to balance, the estimate's mapping.
    const bool measure = params_.count("weights") && param_string(params_, "weights") == "measured";
    if (!measure || p.gpu_partitions() <= 1 || gpus == 1) {
      const Mapping m = map_partitions(g, schedule_, p, gpus, limits);
      mapped_ns_ = m.estimated_ns;
      link_rate_ = limits.host_link_bytes_per_ns;
      return m;
    }
    const std::int64_t executions = std::min<std::int64_t>(iterations_, 4 * batch_);
    std::vector<double> weights;
    try {
      const PartitionTimes t = measure_partition_times(
          *logical.front(), g, [&] { return make_benchmark(info_.name, n_).graph; }, schedule_, p,
          o, executions, batch_);
      weights = t.ns_per_execution;
      calibration_ms_ = t.run_ms;
      staging_rate_ = t.staging_bytes_per_ns;
    } catch (const UsageError& e) {
      throw SkipPoint(std::string("no solution: ") + e.what());
    }
    // Host-staged channels between GPUs cost what the calibration's staging
    // cost (a few GB/s), not the copy rate; peer-to-peer ones the copy rate.
    DeviceLimits priced = limits;
    if (o.channels == ChannelMode::host && staging_rate_ > 0)
      priced.host_link_bytes_per_ns = std::min(limits.host_link_bytes_per_ns, staging_rate_);
    link_rate_ = priced.host_link_bytes_per_ns;
    const Mapping m = map_partitions(g, schedule_, p, gpus, priced, weights);
    mapped_ns_ = m.estimated_ns;
    return m;
  }

  // The GPUs the point runs on: `gpus` logical GPUs, round-robin onto the
  // devices the runner gave when share_devices=1.
  std::vector<backend::Device*> logical_gpus() const {
    std::vector<backend::Device*> found = devices_;
    if (found.empty()) found.push_back(device_);
    const auto gpus =
        static_cast<std::size_t>(params_.count("gpus") ? param_int(params_, "gpus") : 1);
    const bool share = params_.count("share_devices") && param_bool(params_, "share_devices");
    if (found.size() < gpus && !share) {
      throw UsageError(fmt::format(
          "streamgraph: gpus={} needs {} {} devices, {} found (share_devices=1 runs them as "
          "logical GPUs on those present)",
          gpus, gpus, backend::kind_name(device_->info().kind), found.size()));
    }
    std::vector<backend::Device*> out;
    for (std::size_t i = 0; i < gpus; ++i) out.push_back(found[i % found.size()]);
    return out;
  }

  // GPUs used, partitions per GPU, channels between GPUs and the path they
  // took, and per GPU where its time went (what limits scaling).
  void gpu_counters(Measurement& m) const {
    const ChannelRoutes& routes = gpu_->routes();
    m.counters["gpus"] = gpu_->gpus();
    m.counters["gpus_used"] = gpu_->gpus_used();
    m.counters["weights_measured"] = calibration_ms_ > 0 ? 1 : 0;
    m.counters["calibration_ms"] = calibration_ms_;
    m.counters["mapped_ns_per_execution"] = mapped_ns_;
    m.counters["staging_gbps"] = staging_rate_;  // bytes/ns = GB/s
    m.counters["mapper_link_gbps"] = link_rate_;
    m.counters["physical_devices"] = static_cast<double>(physical_.size());
    m.counters["same_gpu_device_channels"] = routes.same_gpu_device;
    m.counters["same_gpu_host_channels"] = routes.same_gpu_host;
    m.counters["crossing_channels"] = routes.crossing;
    m.counters["crossing_bytes"] =
        static_cast<double>(routes.crossing_bytes_per_execution) * static_cast<double>(iterations_);
    m.counters["path_host_channels"] = routes.host;
    m.counters["path_p2p_channels"] = routes.p2p;
    m.counters["p2p_fallback_channels"] = routes.fallback;
    m.counters["p2p_fallback_no_peer"] = routes.fallback_no_peer;
    m.counters["p2p_fallback_peek"] = routes.fallback_peek;
    for (backend::PeerCopy path :
         {backend::PeerCopy::same_device, backend::PeerCopy::direct, backend::PeerCopy::driver}) {
      std::string name = std::string("p2p_path_") + backend::peer_copy_name(path);
      std::replace(name.begin(), name.end(), '-', '_');
      m.counters[name] = routes.p2p > 0 && routes.path == path ? 1 : 0;
    }
    const std::vector<int> gpu_of = gpu_->gpu_of_piece();
    const std::vector<int> part_of = gpu_->partition_of_piece();
    const std::vector<GpuStats> stats = gpu_->stats();
    std::uint64_t h2d = 0, d2h = 0, p2p = 0, channel = 0;
    int stage = 0;
    for (std::size_t i = 0; i < stats.size(); ++i) {
      const GpuStats& st = stats[i];
      std::vector<int> parts;
      for (std::size_t k = 0; k < gpu_of.size(); ++k) {
        if (gpu_of[k] == static_cast<int>(i) &&
            std::find(parts.begin(), parts.end(), part_of[k]) == parts.end())
          parts.push_back(part_of[k]);
      }
      const std::string gpu = fmt::format("gpu{}_", i);
      m.counters[gpu + "partitions"] = static_cast<double>(parts.size());
      m.counters[gpu + "kernels"] = st.pieces;
      m.counters[gpu + "kernel_ms"] = st.kernel_ms;
      m.counters[gpu + "h2d_ms"] = st.h2d_ms;
      m.counters[gpu + "d2h_ms"] = st.d2h_ms;
      m.counters[gpu + "channel_ms"] = st.channel_ms;
      m.counters[gpu + "p2p_ms"] = st.p2p_ms;
      m.counters[gpu + "staging_ms"] = st.staging_ms;
      m.counters[gpu + "wait_ms"] = st.wait_ms;
      if (st.pieces > 0) {
        const auto k = static_cast<std::size_t>(stage++);
        m.counters[gpu + "blocked_ms"] = k < blocked_s_.size() ? blocked_s_[k] * 1e3 : 0.0;
      }
      h2d += st.h2d_bytes;
      d2h += st.d2h_bytes;
      p2p += st.p2p_bytes;
      channel += st.channel_bytes;
    }
    double cpu_blocked = 0;
    for (auto k = static_cast<std::size_t>(stage); k < blocked_s_.size(); ++k)
      cpu_blocked = std::max(cpu_blocked, blocked_s_[k] * 1e3);
    m.counters["cpu_stage_blocked_ms_max"] = cpu_blocked;
    m.counters["h2d_bytes"] = static_cast<double>(h2d);
    m.counters["d2h_bytes"] = static_cast<double>(d2h);
    m.counters["p2p_bytes"] = static_cast<double>(p2p);
    m.counters["same_gpu_channel_bytes"] = static_cast<double>(channel);
  }

  std::string validate_last() override {
    const SinkReport& r = *bench_.report;
    if (r.mismatches() > 0)
      return fmt::format("{} N={}: the sink found {} wrong items of {}; first: {}", info_.name, n_,
                         r.mismatches(), r.items_checked(), r.first_mismatch());
    if (static_cast<std::int64_t>(r.items_checked()) != sink_items_)
      return fmt::format("{} N={}: the sink checked {} items, expected {}", info_.name, n_,
                         r.items_checked(), sink_items_);
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
        << "\nitems_checked\t" << r.items_checked() << "\nmismatches\t" << r.mismatches() << '\n';
    if (!r.first_mismatch().empty()) out << "first_mismatch\t" << r.first_mismatch() << '\n';
  }

 private:
  Mode mode_;
  backend::Device* device_;
  std::vector<backend::Device*> devices_, physical_;
  std::vector<double> blocked_s_;
  const BenchmarkInfo& info_;
  Params params_;  // declared defaults overridden by the context's, checked
  int n_;
  std::int64_t iterations_;
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
  double calibration_ms_ = 0;  // the measured run of weights=measured (0: weights=estimate)
  double mapped_ns_ = 0;       // the mapper's estimate of the slowest GPU, ns an execution
  double staging_rate_ = 0;    // the calibration's host staging, bytes/ns (0: none)
  double link_rate_ = 0;       // what the mapper charged a crossing byte at, bytes/ns
};

std::string skip_n(const PointContext& ctx) {
  const BenchmarkInfo& info = info_of_app(ctx.app);
  const auto n = param_int(ctx.params, "n");
  if (!info.valid_n(static_cast<int>(n)))
    return fmt::format("N = {} is not a valid size for {}", n, info.name);
  const auto channels = ctx.params.find("channels");
  if (channels != ctx.params.end() && channels->second == "p2p" && ctx.params.count("gpus") &&
      param_int(ctx.params, "gpus") == 1)
    return "channels=p2p with gpus=1: no channel crosses GPUs (the host-channel point is the "
           "same run)";
  const auto weights = ctx.params.find("weights");
  if (weights != ctx.params.end() && weights->second == "measured" &&
      (!ctx.params.count("gpus") || param_int(ctx.params, "gpus") == 1))
    return "weights=measured with gpus=1: one GPU holds every partition (the weights=estimate "
           "point is the same run)";
  return "";
}

void add_variant(const std::string& name, const std::string& description,
                 std::vector<backend::Kind> backends, Mode mode,
                 const std::vector<std::string>& apps, DeviceNeeds devices = {}) {
  VariantInfo v;
  v.framework = "streamgraph";
  v.name = name;
  v.description = description;
  v.backends = std::move(backends);
  v.params = variant_params(mode);
  v.apps = apps;
  v.skip = skip_n;
  v.devices = std::move(devices);
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
    // The input is generated by the benchmark's source filter: no dataset.
    app.reads_input = false;
    app.validation = {"tolerance", 1e-4, 1e-5};  // the sinks apply each benchmark's own tolerance
    app.params = app_params(b);
    apps.push_back(app.name);
    Registry::instance().add_app(std::move(app));
  }
  add_variant("cpu-seq", "the uniprocessor baseline: one host thread runs the whole schedule",
              {backend::Kind::cpu}, Mode::cpu_seq, apps);
  add_variant("cpu-threads",
              "a pipeline of host threads, each a contiguous range of the schedule, bounded "
              "FIFO channels of `batch` executions between them",
              {backend::Kind::cpu}, Mode::cpu_threads, apps);
  DeviceNeeds several;
  several.count_param = "gpus";
  several.share_param = "share_devices";
  add_variant("gpu-multi",
              "multilevel partitions, one generated kernel each (C/M threads, WS/DB in local "
              "memory), mapped onto `gpus` GPUs (a host thread each), channels between pieces "
              "of one GPU in device memory (`same_gpu_channels`), between GPUs staged on the host "
              "or peer to peer (`channels`), stateful filters on host threads",
              {backend::Kind::opencl, backend::Kind::cuda}, Mode::gpu_multi, apps, several);
  add_variant("gpu-single",
              "the previous work's single partition ('no solution' where it does not fit), "
              "same code generation and executor",
              {backend::Kind::opencl, backend::Kind::cuda}, Mode::gpu_single, apps);
}

}  // namespace harness::streamgraph
