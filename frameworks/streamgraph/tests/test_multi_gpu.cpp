// Multi-GPU execution on logical GPUs (several per OpenCL device: PoCL in
// CI) and, where a machine has them, on separate GPUs of each GPU backend:
// every benchmark validates through its sink on 2 to 4 GPUs with
// host-staged and peer-to-peer channels; each piece runs on the GPU its
// partition is mapped to (the mapper's placement and a hand-made one); too
// many GPUs without sharing is a clear error; the ci preset of streamit.fig7
// runs.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <vector>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/calibration.h"
#include "frameworks/streamgraph/cost_model.h"
#include "frameworks/streamgraph/executor_gpu.h"
#include "frameworks/streamgraph/family.h"
#include "frameworks/streamgraph/mapper.h"
#include "frameworks/streamgraph/partition.h"
#include "frameworks/streamgraph/pipeline.h"
#include "frameworks/streamgraph/schedule.h"
#include "frameworks/streamgraph/tests/gpu_test_helpers.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "harness/runner/experiment.h"
#include "harness/runner/runner.h"
#include "harness/suite/register_all.h"

namespace harness::streamgraph {
namespace {

using testing::budget_for_pieces;
using testing::expect_passed;
using testing::opencl_device;

struct Totals {
  int crossing = 0, p2p = 0, host = 0, multi_gpu_runs = 0;
  std::uint64_t p2p_bytes = 0;
};

// Channels between pieces on different GPUs, counted from the pieces' layouts.
int crossing_channels(const Graph& g, const GpuGraph& gpu) {
  std::vector<int> gpu_of_node(static_cast<std::size_t>(g.node_count()), -1);
  const auto kernels = gpu.kernels();
  const auto gpu_of = gpu.gpu_of_piece();
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    for (NodeId v : kernels[k].layout.nodes) gpu_of_node[static_cast<std::size_t>(v)] = gpu_of[k];
  }
  int n = 0;
  for (const Channel& c : g.channels()) {
    const int a = gpu_of_node[static_cast<std::size_t>(c.src)];
    const int b = gpu_of_node[static_cast<std::size_t>(c.dst)];
    n += a >= 0 && b >= 0 && a != b;
  }
  return n;
}

// Each GPU partition of `p` cut into up to `k` contiguous ranges of the
// schedule's order: convex (a range of a topological order of a convex set)
// and feeding each other only forward, so the partition graph stays acyclic.
// Gives every benchmark several GPU partitions to spread over GPUs.
Partitioning chunked(const Graph& g, const Schedule& s, const Partitioning& p, int k,
                     const DeviceLimits& limits) {
  const CostModel model(g, s, limits);
  Partitioning out;
  for (const Partition& part : p.partitions) {
    if (part.target == Target::cpu) {
      out.partitions.push_back(part);
      continue;
    }
    const std::size_t size = part.nodes.size();
    const std::size_t chunks = std::min<std::size_t>(static_cast<std::size_t>(k), size);
    for (std::size_t c = 0; c < chunks; ++c) {
      Partition piece;
      piece.nodes.assign(part.nodes.begin() + static_cast<std::ptrdiff_t>(size * c / chunks),
                         part.nodes.begin() + static_cast<std::ptrdiff_t>(size * (c + 1) / chunks));
      piece.cost = model.gpu_cost(piece.nodes);
      out.partitions.push_back(std::move(piece));
    }
  }
  std::sort(out.partitions.begin(), out.partitions.end(),
            [&](const Partition& a, const Partition& b) {
              return s.position[static_cast<std::size_t>(a.nodes.front())] <
                     s.position[static_cast<std::size_t>(b.nodes.front())];
            });
  out.partition_of.assign(static_cast<std::size_t>(g.node_count()), -1);
  for (std::size_t i = 0; i < out.partitions.size(); ++i) {
    for (NodeId v : out.partitions[i].nodes)
      out.partition_of[static_cast<std::size_t>(v)] = static_cast<int>(i);
  }
  return out;
}

// Runs `name` at N on the GPUs `gpus` (logical GPUs: a device may appear
// several times), partitioned by the multilevel partitioner (its GPU
// partitions cut into `chunks` ranges when chunks > 1) and placed by the
// mapper or, with `round_robin`, dealt out in turn; several iteration counts,
// every run validated by the sink.
void run_on(const std::vector<backend::Device*>& gpus, const std::string& name, int n,
            std::uint64_t budget, int chunks, ChannelMode mode, bool round_robin, Totals& totals) {
  const int G = static_cast<int>(gpus.size());
  backend::Device& device = *gpus.front();
  const bool one_device =
      std::all_of(gpus.begin(), gpus.end(), [&](backend::Device* d) { return d == &device; });
  SCOPED_TRACE(fmt::format("{} N={} budget={} chunks={} G={} channels={}{}{}", name, n, budget,
                           chunks, G, mode == ChannelMode::p2p ? "p2p" : "host",
                           round_robin ? " round-robin" : "",
                           one_device ? " (one device)" : " (separate devices)"));
  Benchmark plan_bench = make_benchmark(name, n);
  const Schedule s = make_schedule(plan_bench.graph);
  const DeviceLimits limits = device_limits(device.info(), budget);
  Partitioning p = partition_multilevel(plan_bench.graph, s, limits);
  if (chunks > 1) p = chunked(plan_bench.graph, s, p, chunks, limits);
  ASSERT_TRUE(partitions_acyclic(plan_bench.graph, p.partition_of));
  Mapping m = map_partitions(plan_bench.graph, s, p, G, limits);
  if (round_robin) {  // a placement of our own: GPU partitions dealt out in turn
    int next = 0;
    for (std::size_t i = 0; i < p.partitions.size(); ++i) {
      if (p.partitions[i].target == Target::gpu) m.gpu_of_partition[i] = next++ % G;
    }
  }
  GpuRunOptions o;
  o.target = codegen_target(device.info(), budget);
  o.max_block = 40;
  o.channels = mode;
  o.name = name + "-multi-test";
  GpuGraph gpu(gpus, plan_bench.graph, s, p, m, o);
  ASSERT_EQ(gpu.gpus(), G);
  const auto gpu_of = gpu.gpu_of_piece();
  const auto part_of = gpu.partition_of_piece();
  std::set<int> used;
  for (std::size_t k = 0; k < gpu_of.size(); ++k) {
    EXPECT_EQ(gpu_of[k], m.gpu_of_partition[static_cast<std::size_t>(part_of[k])]) << "piece " << k;
    used.insert(gpu_of[k]);
  }
  EXPECT_EQ(gpu.gpus_used(), static_cast<int>(used.size()));
  const PipelinePlan plan = gpu.plan();
  for (std::int64_t iterations : {37, 100}) {
    Benchmark b = make_benchmark(name, n);
    PipelineOptions po;
    po.iterations = iterations;
    po.batch = 40;
    const PipelineResult r = run_pipeline(b.graph, s, plan, po);
    expect_passed(b, s, iterations);
    EXPECT_EQ(r.stages, gpu.gpus_used() + gpu.cpu_partitions());
  }
  // Each piece ran on the thread of the GPU its partition is mapped to.
  EXPECT_EQ(gpu.ran_on(), gpu_of);
  const ChannelRoutes& routes = gpu.routes();
  EXPECT_EQ(routes.crossing, crossing_channels(plan_bench.graph, gpu));
  EXPECT_EQ(routes.p2p + routes.host, routes.crossing);
  // Logical GPUs of one device can always copy, and so can CUDA devices
  // (peer access, or the driver staging through the host); separate OpenCL
  // devices cannot, and their p2p channels fall back to host staging.
  const bool can_copy = one_device || device.info().kind == backend::Kind::cuda;
  if (can_copy) {
    EXPECT_EQ(routes.fallback_no_peer, 0);
  }
  std::uint64_t p2p_bytes = 0, h2d_bytes = 0;
  double kernel_ms = 0;
  for (const GpuStats& st : gpu.stats()) {
    p2p_bytes += st.p2p_bytes;
    h2d_bytes += st.h2d_bytes;
    kernel_ms += st.kernel_ms;
  }
  EXPECT_GT(h2d_bytes, 0u);
  EXPECT_GT(kernel_ms, 0.0);
  if (mode == ChannelMode::host) {
    EXPECT_EQ(routes.p2p, 0);
    EXPECT_EQ(p2p_bytes, 0u);
  } else {
    EXPECT_EQ(routes.p2p + routes.fallback, routes.crossing);
    EXPECT_EQ(routes.fallback, routes.fallback_peek + routes.fallback_no_peer);
    if (routes.p2p > 0) {
      if (one_device) {
        EXPECT_EQ(routes.path, backend::PeerCopy::same_device);
      } else {
        EXPECT_TRUE(routes.path == backend::PeerCopy::direct ||
                    routes.path == backend::PeerCopy::driver)
            << backend::peer_copy_name(routes.path);
      }
      EXPECT_GT(p2p_bytes, 0u);
    }
  }
  totals.crossing += routes.crossing;
  totals.p2p += routes.p2p;
  totals.host += routes.host;
  totals.p2p_bytes += p2p_bytes;
  totals.multi_gpu_runs += gpu.gpus_used() > 1;
  if (round_robin) {
    EXPECT_EQ(gpu.gpus_used(), std::min(G, p.gpu_partitions()));
    if (p.gpu_partitions() > 1) {
      EXPECT_GT(routes.crossing, 0);
    }
  }
}

// Every benchmark, its multilevel partitions cut into 3 ranges each: on 2
// GPUs as the mapper places them, on 3 dealt out in turn (every GPU used).
TEST(StreamGraphMultiGpu, EveryBenchmarkValidatesOnTwoAndThreeLogicalGpus) {
  auto device = opencl_device();
  if (!device) GTEST_SKIP() << "no OpenCL device";
  const std::uint64_t budget =
      std::min<std::uint64_t>(48 * 1024, device->info().local_memory_bytes);
  Totals totals;
  for (const BenchmarkInfo& info : benchmark_list()) {
    for (ChannelMode mode : {ChannelMode::host, ChannelMode::p2p}) {
      run_on({device.get(), device.get()}, info.name, info.small_n[1], budget, 3, mode, false,
             totals);
      run_on({device.get(), device.get(), device.get()}, info.name, info.small_n[1], budget, 3,
             mode, true, totals);
    }
  }
  EXPECT_GE(totals.multi_gpu_runs, 2 * static_cast<int>(benchmark_list().size()));
  EXPECT_GT(totals.host, 0);
  EXPECT_GT(totals.p2p, 0);
  EXPECT_GT(totals.p2p_bytes, 0u);
}

// The partitioner's own partitions (small budgets give several) on 3 GPUs,
// placed by the mapper and dealt out in turn.
TEST(StreamGraphMultiGpu, MultilevelPartitionsOnThreeGpus) {
  auto device = opencl_device();
  if (!device) GTEST_SKIP() << "no OpenCL device";
  Totals totals;
  for (const auto& [name, n] : std::vector<std::pair<std::string, int>>{
           {"MatrixMult", 4}, {"MatrixMult3", 2}, {"FMRadio", 1}}) {
    const std::uint64_t budget = budget_for_pieces(*device, name, n, 3);
    ASSERT_GT(budget, 0u) << name;
    for (ChannelMode mode : {ChannelMode::host, ChannelMode::p2p}) {
      for (bool round_robin : {false, true})
        run_on({device.get(), device.get(), device.get()}, name, n, budget, 1, mode, round_robin,
               totals);
    }
  }
  EXPECT_GT(totals.p2p, 0);
  EXPECT_GT(totals.multi_gpu_runs, 0);
}

// Every benchmark on up to four separate GPUs of each GPU backend (the
// GPU machines with several cards; skipped elsewhere): its partitions cut
// into 4 ranges and dealt out in turn so every GPU runs a piece, host-staged
// and peer-to-peer channels, every run validated by the sink. CUDA copies
// between the cards (peer access or the driver); NVIDIA OpenCL's devices
// cannot, so its p2p channels fall back to the host and are counted so.
TEST(StreamGraphMultiGpu, EveryBenchmarkValidatesOnSeparateGpus) {
  int backends_run = 0;
  for (backend::Kind kind : backend::compiled_kinds()) {
    if (kind == backend::Kind::cpu) continue;
    std::vector<std::unique_ptr<backend::Device>> owned;
    for (const auto& d : backend::list_devices(kind)) {
      if (d.type == "gpu" && owned.size() < 4) owned.push_back(backend::open_device(kind, d.index));
    }
    if (owned.size() < 2) continue;
    ++backends_run;
    SCOPED_TRACE(fmt::format("{} devices of {}", owned.size(), backend::kind_name(kind)));
    std::vector<backend::Device*> gpus;
    for (auto& d : owned) gpus.push_back(d.get());
    std::uint64_t budget = 48 * 1024;
    for (backend::Device* d : gpus)
      budget = std::min<std::uint64_t>(budget, d->info().local_memory_bytes);
    Totals totals;
    for (const BenchmarkInfo& info : benchmark_list()) {
      for (ChannelMode mode : {ChannelMode::host, ChannelMode::p2p})
        run_on(gpus, info.name, info.small_n[1], budget, 4, mode, true, totals);
    }
    EXPECT_GE(totals.multi_gpu_runs, 2 * static_cast<int>(benchmark_list().size()));
    EXPECT_GT(totals.host, 0);
    if (kind == backend::Kind::cuda) {
      EXPECT_GT(totals.p2p, 0);
      EXPECT_GT(totals.p2p_bytes, 0u);
    }
  }
  if (backends_run == 0) GTEST_SKIP() << "no backend with two or more GPUs";
}

Params multi_params(int gpus, bool share, const std::string& channels) {
  return {{"n", "2"},
          {"iterations", "50"},
          {"batch", "16"},
          {"streams", "4"},
          {"shared_kib", "16"},
          {"seed", "1"},
          {"dump_source", "0"},
          {"gpus", std::to_string(gpus)},
          {"share_devices", share ? "1" : "0"},
          {"channels", channels}};
}

// One repetition of the point `ctx` names on variant `v`, validated.
Measurement run_validated(const VariantInfo& v, const PointContext& ctx) {
  auto point = v.make(ctx);
  point->prepare();
  point->before_repetition();
  Measurement m = point->run_once();
  EXPECT_EQ(point->validate_last(), "");
  return m;
}

TEST(StreamGraphMultiGpu, VariantCountsGpusAndChannelPaths) {
  register_all();  // once per process; experiments name every framework
  auto device = opencl_device();
  if (!device) GTEST_SKIP() << "no OpenCL device";
  const VariantInfo& v = Registry::instance().find_variant("streamgraph", "gpu-multi");
  EXPECT_EQ(v.devices.count_param, "gpus");
  EXPECT_EQ(v.devices.share_param, "share_devices");
  for (const std::string channels : {"host", "p2p"}) {
    SCOPED_TRACE(channels);
    PointContext ctx;
    ctx.app = "sg-fmradio";  // 3 partitions at N = 2 in 16 KiB
    ctx.device = device.get();
    ctx.devices = {device.get()};
    ctx.params = multi_params(2, true, channels);
    ASSERT_EQ(v.skip(ctx), "");
    const Measurement m = run_validated(v, ctx);
    EXPECT_EQ(m.counters.at("gpus"), 2);
    EXPECT_EQ(m.counters.at("physical_devices"), 1);
    EXPECT_EQ(m.counters.at("gpus_used"), 2);
    EXPECT_EQ(m.counters.at("gpu0_partitions") + m.counters.at("gpu1_partitions") +
                  m.counters.at("cpu_partitions"),
              m.counters.at("gpu_partitions") + m.counters.at("cpu_partitions"));
    EXPECT_GT(m.counters.at("crossing_bytes"), 0);
    EXPECT_GT(m.counters.at("gpu0_kernel_ms") + m.counters.at("gpu1_kernel_ms"), 0);
    if (channels == "host") {
      EXPECT_EQ(m.counters.at("path_p2p_channels"), 0);
      EXPECT_EQ(m.counters.at("path_host_channels"), m.counters.at("crossing_channels"));
      EXPECT_EQ(m.counters.at("p2p_bytes"), 0);
    } else {
      EXPECT_GT(m.counters.at("path_p2p_channels"), 0);
      EXPECT_EQ(m.counters.at("p2p_path_same_device"), 1);
      EXPECT_GT(m.counters.at("p2p_bytes"), 0);
    }
  }
  // p2p on one GPU is the host run: skipped with the reason.
  PointContext one;
  one.app = "sg-dct";
  one.params = multi_params(1, false, "p2p");
  EXPECT_NE(v.skip(one).find("no channel crosses GPUs"), std::string::npos);
}

TEST(StreamGraphMultiGpu, MeasuredWeightsComeFromOneGpuAndDriveTheMapping) {
  register_all();  // once per process; experiments name every framework
  auto device = opencl_device();
  if (!device) GTEST_SKIP() << "no OpenCL device";
  // The calibration alone: FMRadio at N = 2 in 16 KiB has several GPU
  // partitions; each gets the kernel time of its pieces, CPU partitions 0.
  const Benchmark b = make_benchmark("FMRadio", 2);
  const Schedule s = make_schedule(b.graph);
  const DeviceLimits limits = device_limits(device->info(), 16 * 1024);
  const Partitioning p = partition_multilevel(b.graph, s, limits);
  ASSERT_GE(p.gpu_partitions(), 2);
  GpuRunOptions o;
  o.target = codegen_target(device->info(), 16 * 1024);
  o.max_block = 32;
  const PartitionTimes t = measure_partition_times(
      *device, b.graph, [] { return make_benchmark("FMRadio", 2).graph; }, s, p, o, 64, 32);
  EXPECT_EQ(t.executions, 64);
  EXPECT_GT(t.run_ms, 0);
  EXPECT_GT(t.staging_bytes_per_ns, 0);  // the source's and sink's channels
  ASSERT_EQ(t.ns_per_execution.size(), p.partitions.size());
  for (std::size_t i = 0; i < p.partitions.size(); ++i) {
    if (p.partitions[i].target == Target::gpu)
      EXPECT_GT(t.ns_per_execution[i], 0) << "partition " << i;
    else
      EXPECT_EQ(t.ns_per_execution[i], 0) << "partition " << i;
  }
  EXPECT_THROW(
      measure_partition_times(
          *device, b.graph, [] { return make_benchmark("FMRadio", 2).graph; }, s, p, o, 0, 32),
      UsageError);

  // The variant: weights=measured calibrates, maps and validates; with one
  // GPU it is the estimate's run and skipped.
  const VariantInfo& v = Registry::instance().find_variant("streamgraph", "gpu-multi");
  PointContext ctx;
  ctx.app = "sg-fmradio";
  ctx.device = device.get();
  ctx.devices = {device.get()};
  ctx.params = multi_params(2, true, "host");
  ctx.params["weights"] = "measured";
  ASSERT_EQ(v.skip(ctx), "");
  const Measurement m = run_validated(v, ctx);
  EXPECT_EQ(m.counters.at("weights_measured"), 1);
  EXPECT_GT(m.counters.at("calibration_ms"), 0);
  EXPECT_GT(m.counters.at("mapped_ns_per_execution"), 0);
  // Host channels are priced at the staging rate the calibration saw (when
  // below the copy rate); p2p channels at the copy rate.
  const double copy_rate = limits.host_link_bytes_per_ns;
  const double staging = m.counters.at("staging_gbps");
  EXPECT_GT(staging, 0);
  EXPECT_DOUBLE_EQ(m.counters.at("mapper_link_gbps"), std::min(copy_rate, staging));
  ctx.params["channels"] = "p2p";
  EXPECT_DOUBLE_EQ(run_validated(v, ctx).counters.at("mapper_link_gbps"), copy_rate);
  ctx.params["channels"] = "host";
  ctx.params["gpus"] = "1";
  EXPECT_NE(v.skip(ctx).find("weights=measured with gpus=1"), std::string::npos);
}

TEST(StreamGraphMultiGpu, MoreGpusThanPresentWithoutSharingIsAClearError) {
  register_all();  // once per process; experiments name every framework
  auto device = opencl_device();
  if (!device) GTEST_SKIP() << "no OpenCL device";
  // The point itself, given one device for two GPUs.
  const VariantInfo& v = Registry::instance().find_variant("streamgraph", "gpu-multi");
  PointContext ctx;
  ctx.app = "sg-dct";
  ctx.device = device.get();
  ctx.devices = {device.get()};
  ctx.params = multi_params(2, false, "host");
  auto point = v.make(ctx);
  try {
    point->prepare();
    FAIL() << "prepared";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("1 found"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("share_devices=1"), std::string::npos) << e.what();
  }
  // `harness run` asking for more devices than the machine has.
  const int present = static_cast<int>(backend::list_devices(backend::Kind::opencl).size());
  SinglePoint sp;
  sp.framework = "streamgraph";
  sp.variant = "gpu-multi";
  sp.app = "sg-dct";
  sp.backend = backend::Kind::opencl;
  sp.dataset = "uniform-f32";
  sp.size = "4KiB";
  sp.params = {{"gpus", std::to_string(present + 1)}};
  try {
    run_single(sp);
    FAIL() << "ran";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(fmt::format("needs {} opencl devices", present + 1)), std::string::npos)
        << what;
    EXPECT_NE(what.find("present"), std::string::npos) << what;
  }
}

TEST(StreamGraphMultiGpu, Fig7CiPresetRunsOnSharedDevices) {
  register_all();  // once per process; experiments name every framework
  if (!opencl_device()) GTEST_SKIP() << "no OpenCL device";
  const auto dir =
      std::filesystem::temp_directory_path() / ("sg-fig7-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  RunOptions o;
  o.preset = "ci";
  o.backend = backend::Kind::opencl;
  o.out_path = dir / "fig7.json";
  o.data_dir = dir / "data";
  o.ceilings = false;
  const Experiment e = find_experiment("streamit.fig7");
  const RunSummary s = run_experiment(e, o);
  EXPECT_EQ(s.errors, 0);
  EXPECT_EQ(s.failed, 0);
  EXPECT_GT(s.ok, 0);
  std::ifstream in(o.out_path);
  const auto doc = nlohmann::json::parse(in);
  int two_gpu = 0, p2p = 0, host_crossing = 0;
  for (const auto& p : doc["points"]) {
    if (p["status"] == "skipped") {
      const std::string why = p["skip_reason"];
      EXPECT_TRUE(why.find("no channel crosses GPUs") != std::string::npos ||
                  why.find("one GPU holds every partition") != std::string::npos ||
                  why.find("not a valid size") != std::string::npos ||
                  why.find("no solution") != std::string::npos)
          << why;
      continue;
    }
    ASSERT_EQ(p["status"], "ok") << p.dump();
    EXPECT_EQ(p["validation"]["status"], "passed");
    const auto& c = p["counters"];
    if (p["axes"]["gpus"] == "2") {
      ++two_gpu;
      EXPECT_EQ(c["gpus"], 2.0);
      // On one shared device the p2p channels copy within it; with several
      // OpenCL devices present the logical GPUs land on separate contexts,
      // where a p2p channel falls back to the host and is counted so.
      if (p["axes"]["channels"] == "p2p")
        p2p += c["path_p2p_channels"].get<double>() > 0 ||
               (c["physical_devices"].get<double>() > 1 &&
                c["p2p_fallback_no_peer"].get<double>() > 0);
      if (p["axes"]["channels"] == "host") host_crossing += c["crossing_bytes"].get<double>() > 0;
    }
  }
  EXPECT_GT(two_gpu, 0);
  EXPECT_GT(p2p, 0);
  EXPECT_GT(host_crossing, 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace harness::streamgraph
