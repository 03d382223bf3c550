// The multi-threaded CPU executor and the GPU executor (generated kernels on
// the OpenCL device: PoCL in CI), each validated by every benchmark's
// checking sink; the registered family through its PointRunner.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <type_traits>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/codegen.h"
#include "frameworks/streamgraph/executor_gpu.h"
#include "frameworks/streamgraph/family.h"
#include "frameworks/streamgraph/host_runner.h"
#include "frameworks/streamgraph/partition.h"
#include "frameworks/streamgraph/pipeline.h"
#include "frameworks/streamgraph/schedule.h"
#include "frameworks/streamgraph/tests/gpu_test_helpers.h"
#include "harness/backend/backend.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"

namespace harness::streamgraph {
namespace {

using testing::budget_for_pieces;
using testing::expect_passed;
using testing::opencl_device;

TEST(StreamGraphThreads, EveryBenchmarkValidatesAtSeveralThreadCountsAndBatches) {
  for (const BenchmarkInfo& info : benchmark_list()) {
    for (int n : {info.small_n[0], info.small_n[2]}) {
      for (int threads : {1, 2, 5}) {
        for (std::int64_t batch : {1, 7, 64}) {
          SCOPED_TRACE(info.name + " N=" + std::to_string(n) +
                       " threads=" + std::to_string(threads) + " batch=" + std::to_string(batch));
          Benchmark b = make_benchmark(info.name, n);
          const Schedule s = make_schedule(b.graph);
          const PipelinePlan plan = cpu_thread_plan(b.graph, s, threads);
          EXPECT_EQ(static_cast<int>(plan.units.size()), std::min(threads, b.graph.node_count()));
          PipelineOptions o;
          o.iterations = 20;
          o.batch = batch;
          o.queue_blocks = 2;
          const PipelineResult r = run_pipeline(b.graph, s, plan, o);
          EXPECT_EQ(r.stages, static_cast<int>(plan.units.size()));
          expect_passed(b, s, o.iterations);
        }
      }
    }
  }
}

TEST(StreamGraphThreads, CorruptedFilterFailsTheSinkAndErrorsStopEveryStage) {
  Benchmark b = make_benchmark("DCT", 4);
  const Schedule s = make_schedule(b.graph);
  for (NodeId v = 0; v < b.graph.node_count(); ++v) {
    Node& n = b.graph.node(v);
    if (n.kind == NodeKind::filter && !n.filter.stateful) {
      n.filter.work.f32 = [](const float*, float* out) { out[0] = 1e9f; };
      break;
    }
  }
  PipelineOptions o;
  o.iterations = 4;
  run_pipeline(b.graph, s, cpu_thread_plan(b.graph, s, 3), o);
  EXPECT_GT(b.report->mismatches(), 0u);

  Benchmark c = make_benchmark("DCT", 4);
  PipelinePlan bad = cpu_thread_plan(c.graph, s, 3);
  bad.units[1].device_run = [](ChannelAccess&, std::int64_t) { throw RunError("boom"); };
  EXPECT_THROW(run_pipeline(c.graph, s, bad, o), RunError);
  bad.units[1].nodes.pop_back();
  EXPECT_THROW(run_pipeline(c.graph, s, bad, o), UsageError);
}

void run_gpu(backend::Device& device, const std::string& name, int n, bool single,
             std::uint64_t shared, int expect_min_kernels, bool device_channels = true) {
  SCOPED_TRACE(name + " N=" + std::to_string(n) + (single ? " single" : " multi") + " shared=" +
               std::to_string(shared) + (device_channels ? " device channels" : " host channels"));
  Benchmark plan_bench = make_benchmark(name, n);
  const Schedule s = make_schedule(plan_bench.graph);
  const DeviceLimits limits = device_limits(device.info(), shared);
  Partitioning p;
  if (single) {
    SinglePartitionResult r = partition_single(plan_bench.graph, s, limits);
    ASSERT_TRUE(r.feasible) << r.reason;
    p = r.partitioning;
  } else {
    p = partition_multilevel(plan_bench.graph, s, limits);
  }
  GpuRunOptions o;
  o.target = codegen_target(device.info(), shared);
  o.single = single;
  o.max_block = 40;
  o.name = name + "-test";
  o.device_channels = device_channels;
  GpuGraph gpu(device, plan_bench.graph, s, p, o);
  EXPECT_GE(gpu.gpu_pieces(), expect_min_kernels);
  // Every channel between two pieces takes the asked-for way, save those
  // whose consumer peeks across executions (always a host FIFO).
  const ChannelRoutes& routes = gpu.routes();
  EXPECT_EQ(routes.crossing, 0);
  if (!device_channels) {
    EXPECT_EQ(routes.same_gpu_device, 0);
  } else if (gpu.gpu_pieces() >= 2 && name.rfind("MatrixMult", 0) == 0) {
    EXPECT_GT(routes.same_gpu_device, 0);
  }
  EXPECT_EQ(gpu.cpu_partitions(), 2);
  for (std::int64_t iterations : {1, 37, 100}) {
    Benchmark b = make_benchmark(name, n);
    PipelineOptions po;
    po.iterations = iterations;
    po.batch = 40;
    run_pipeline(b.graph, s, gpu.plan(), po);
    expect_passed(b, s, iterations);
  }
  std::uint64_t channel_bytes = 0;
  for (const GpuStats& st : gpu.stats()) channel_bytes += st.channel_bytes;
  EXPECT_EQ(channel_bytes > 0, routes.same_gpu_device > 0);
}

// FIFOs for one piece run outside the pipeline.
template <class T>
struct TestAccess final : ChannelAccess {
  std::map<ChannelId, Fifo<T>> fifos;
  std::size_t size(ChannelId c) override { return fifos[c].size(); }
  const void* front(ChannelId c) override { return fifos[c].front(); }
  void consume(ChannelId c, std::size_t n) override { fifos[c].consume(n); }
  void append(ChannelId c, const void* x, std::size_t n) override {
    fifos[c].append(static_cast<const T*>(x), n);
  }
};

// Each generated kernel, fed the same windows as the host bindings, produces
// what they produce (item by item, several executions and fragments).
// `widest_loop`, when given, is set to the most instances one loop of the kernels runs.
template <class T>
void compare_pieces(backend::Device& device, const std::string& name, int n, std::uint64_t shared,
                    std::size_t* widest_loop = nullptr) {
  SCOPED_TRACE(name + " N=" + std::to_string(n));
  Benchmark b = make_benchmark(name, n);
  const Schedule s = make_schedule(b.graph);
  const Partitioning p = partition_multilevel(b.graph, s, device_limits(device.info(), shared));
  GpuRunOptions o;
  o.target = codegen_target(device.info(), shared);
  o.max_block = 12;
  o.streams = 3;
  o.name = name + "-compare";
  o.device_channels = false;  // each piece runs alone, fed and drained through host FIFOs
  GpuGraph gpu(device, b.graph, s, p, o);
  const PipelinePlan plan = gpu.plan();
  const auto kernels = gpu.kernels();
  for (const GeneratedKernel& kernel : kernels) {
    for (const LevelLoop& loop : kernel.loops) {
      if (widest_loop) *widest_loop = std::max(*widest_loop, loop.instances.size());
    }
  }
  std::size_t k = 0;
  std::uint32_t seed = 1;
  for (const PipelineUnit& unit : plan.units) {
    if (!unit.device_run) continue;
    const PartitionLayout& L = kernels[k++].layout;
    TestAccess<T> dev;
    HostRunner<T> host(b.graph);
    const std::int64_t executions = 11;
    for (const ChannelSlot& c : L.inputs) {
      std::vector<T> items(static_cast<std::size_t>(executions * c.steady + c.initial));
      for (T& x : items) {
        seed = seed * 1664525u + 1013904223u;
        if constexpr (std::is_same_v<T, float>) {
          x = static_cast<float>(seed >> 8) / 16777216.0f - 0.5f;
        } else {
          x = (seed >> 13) & 1u;  // DES carries bits
        }
      }
      dev.append(c.channel, items.data(), items.size());
      host.fifo(c.channel).append(items.data(), items.size());
    }
    unit.device_run(dev, executions);
    for (std::int64_t e = 0; e < executions; ++e) {
      for (NodeId v : L.nodes) {
        for (std::int64_t r = 0; r < s.repetitions[static_cast<std::size_t>(v)]; ++r) host.fire(v);
      }
    }
    for (const ChannelSlot& c : L.outputs) {
      ASSERT_EQ(dev.size(c.channel), host.fifo(c.channel).size());
      const T* got = static_cast<const T*>(dev.front(c.channel));
      const T* want = host.fifo(c.channel).front();
      for (std::size_t i = 0; i < dev.size(c.channel); ++i) {
        if constexpr (std::is_same_v<T, float>) {
          ASSERT_NEAR(got[i], want[i], 1e-4 * (1 + std::fabs(want[i])))
              << "piece " << k - 1 << " channel " << c.channel << " item " << i;
        } else {
          ASSERT_EQ(got[i], want[i])
              << "piece " << k - 1 << " channel " << c.channel << " item " << i;
        }
      }
    }
  }
}

TEST(StreamGraphGpu, GeneratedKernelsMatchTheHostBindings) {
  auto device = opencl_device();
  if (!device) GTEST_SKIP() << "no OpenCL device";
  compare_pieces<float>(*device, "DCT", 2, 0);
  compare_pieces<float>(*device, "MatrixMult", 2, 1024);
  compare_pieces<float>(*device, "FMRadio", 1, 0);
  compare_pieces<std::uint32_t>(*device, "DES", 1, 2048);
}

// Operators merged into one loop read their ports and constants from tables
// indexed by the instance: Bitonic's and BitonicRec's ascending and descending
// compare-exchanges of a level, DES's eight S-boxes of a round.
TEST(StreamGraphGpu, MergedLoopsMatchTheHostBindings) {
  auto device = opencl_device();
  if (!device) GTEST_SKIP() << "no OpenCL device";
  std::size_t widest = 0;
  compare_pieces<float>(*device, "Bitonic", 8, 0, &widest);
  EXPECT_EQ(widest, 4u);
  widest = 0;
  compare_pieces<float>(*device, "BitonicRec", 8, 0, &widest);
  EXPECT_GE(widest, 4u);
  widest = 0;
  compare_pieces<std::uint32_t>(*device, "DES", 2, 0, &widest);
  EXPECT_GE(widest, 8u);
}

TEST(StreamGraphGpu, EveryBenchmarkValidatesWithGeneratedKernelsOnOpenCl) {
  auto device = opencl_device();
  if (!device) GTEST_SKIP() << "no OpenCL device";
  for (const BenchmarkInfo& info : benchmark_list()) {
    run_gpu(*device, info.name, info.small_n[1], true, 48 * 1024, 1);
    run_gpu(*device, info.name, info.small_n[1], false, 48 * 1024, 1);
  }
}

TEST(StreamGraphGpu, ManySmallPartitionsValidate) {
  auto device = opencl_device();
  if (!device) GTEST_SKIP() << "no OpenCL device";
  for (const auto& [name, n] : std::vector<std::pair<std::string, int>>{
           {"MatrixMult", 4}, {"MatrixMult3", 2}, {"FMRadio", 1}}) {
    const std::uint64_t budget = budget_for_pieces(*device, name, n, 2);
    ASSERT_GT(budget, 0u) << name;
    run_gpu(*device, name, n, false, budget, 2, true);
    run_gpu(*device, name, n, false, budget, 2, false);
  }
}

TEST(StreamGraphGpu, GeneratedKernelThatFailsToBuildShowsTheLog) {
  auto device = opencl_device();
  if (!device) GTEST_SKIP() << "no OpenCL device";
  backend::ProgramSource src;
  src.name = "streamgraph/test-broken";
  src.opencl_files = {"harness/dialect/dialect.h"};
  src.opencl_text = "KERNEL broken(GLOBAL float* x) { x[0] = undefined_name; }\n";
  try {
    device->build(src);
    FAIL() << "built";
  } catch (const KernelBuildError& e) {
    EXPECT_NE(e.log().find("undefined_name"), std::string::npos) << e.log();
  }
}

TEST(StreamGraphFamily, RegisteredVariantsRunAndValidate) {
  register_family();
  auto device = opencl_device();
  std::vector<std::pair<std::string, Params>> runs = {
      {"cpu-seq", {}}, {"cpu-threads", {{"threads", "3"}, {"batch", "8"}}}};
  if (device) {
    const auto dump = (std::filesystem::temp_directory_path() / "sg-dump-test").string();
    runs.push_back({"gpu-multi",
                    {{"batch", "32"},
                     {"streams", "2"},
                     {"shared_kib", "0"},
                     {"seed", "1"},
                     {"dump_source", dump}}});
    runs.push_back({"gpu-single",
                    {{"batch", "32"},
                     {"streams", "4"},
                     {"shared_kib", "48"},
                     {"seed", "1"},
                     {"dump_source", "0"}}});
  }
  for (const auto& [variant, params] : runs) {
    const VariantInfo& v = Registry::instance().find_variant("streamgraph", variant);
    for (const std::string& app : {std::string("sg-dct"), std::string("sg-des")}) {
      SCOPED_TRACE(variant + " " + app);
      PointContext ctx;
      ctx.app = app;
      ctx.device = variant.rfind("gpu", 0) == 0 ? device.get() : nullptr;
      ctx.params = params;
      ctx.params["n"] = app == "sg-dct" ? "4" : "2";
      ctx.params["iterations"] = "50";
      EXPECT_EQ(v.skip(ctx), "");
      auto point = v.make(ctx);
      point->prepare();
      for (int rep = 0; rep < 2; ++rep) {
        point->before_repetition();
        const Measurement m = point->run_once();
        EXPECT_GT(m.total_ms, 0);
        EXPECT_EQ(point->validate_last(), "");
      }
      EXPECT_EQ(point->work().item("executions"), 50u);
    }
  }
  if (device) {
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::temp_directory_path() / "sg-dump-test"));
    // The single partition has no solution where the graph does not fit.
    const VariantInfo& v = Registry::instance().find_variant("streamgraph", "gpu-single");
    PointContext ctx;
    ctx.app = "sg-matrixmult";
    ctx.device = device.get();
    ctx.params = {{"n", "4"},          {"iterations", "4"}, {"batch", "4"},      {"streams", "1"},
                  {"shared_kib", "1"}, {"seed", "1"},       {"dump_source", "0"}};
    auto point = v.make(ctx);
    try {
      point->prepare();
      FAIL() << "prepared";
    } catch (const SkipPoint& e) {
      EXPECT_NE(std::string(e.what()).find("no solution"), std::string::npos) << e.what();
    }
  }
  if (device) {
    // A partition cost that is not a non-negative number, or a same-GPU
    // channel path that is not 'device' or 'host', is a usage error naming it.
    const VariantInfo& v = Registry::instance().find_variant("streamgraph", "gpu-multi");
    const std::pair<std::string, std::string> bad_params[] = {{"partition_ns", "150ns"},
                                                              {"partition_ns", "-5"},
                                                              {"partition_ns", "abc"},
                                                              {"partition_ns", ""},
                                                              {"same_gpu_channels", "peer"}};
    for (const auto& [key, bad] : bad_params) {
      SCOPED_TRACE(key + "=" + bad);
      PointContext ctx;
      ctx.app = "sg-dct";
      ctx.device = device.get();
      ctx.params = {{"n", "4"},           {"iterations", "4"}, {"batch", "4"},
                    {"streams", "1"},     {"shared_kib", "0"}, {"seed", "1"},
                    {"dump_source", "0"}, {key, bad}};
      try {
        v.make(ctx)->prepare();  // the point refuses it when made
        FAIL() << "prepared";
      } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("parameter " + key + "="), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find(key + " takes"), std::string::npos) << e.what();
      }
    }
  }
  // An N the benchmark does not take is skipped with the reason.
  const VariantInfo& seq = Registry::instance().find_variant("streamgraph", "cpu-seq");
  PointContext ctx;
  ctx.app = "sg-bitonic";
  ctx.params = {{"n", "6"}, {"iterations", "4"}};
  EXPECT_NE(seq.skip(ctx).find("not a valid size"), std::string::npos);
}

}  // namespace
}  // namespace harness::streamgraph
