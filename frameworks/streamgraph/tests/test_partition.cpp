// The partitioner: properties of every multilevel partitioning (over all
// eight benchmarks, several N, several shared-memory sizes), the single
// partition baseline's 'no solution', and the errors.
#include <gtest/gtest.h>

#include <algorithm>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/partition.h"
#include "frameworks/streamgraph/structure.h"
#include "frameworks/streamgraph/tests/test_helpers.h"
#include "harness/core/errors.h"

namespace harness::streamgraph {
namespace {

const std::uint64_t kSharedSizes[] = {16 * 1024, 48 * 1024, 228 * 1024};

// Every property the paper asks of a partitioning, plus our own (acyclic
// partition graph, stateful filters alone on the CPU).
void expect_valid(const Graph& g, const Schedule& s, const Partitioning& p, const DeviceLimits& d) {
  ASSERT_EQ(p.partition_of.size(), static_cast<std::size_t>(g.node_count()));
  std::vector<int> seen(static_cast<std::size_t>(g.node_count()), 0);
  const CostModel model(g, s, d);
  for (std::size_t i = 0; i < p.partitions.size(); ++i) {
    const Partition& part = p.partitions[i];
    ASSERT_FALSE(part.nodes.empty());
    for (NodeId v : part.nodes) {
      ++seen[static_cast<std::size_t>(v)];
      EXPECT_EQ(p.partition_of[static_cast<std::size_t>(v)], static_cast<int>(i));
    }
    EXPECT_TRUE(is_convex(g, part.nodes)) << "partition " << i << " is not convex";
    if (part.target == Target::gpu) {
      for (NodeId v : part.nodes)
        EXPECT_FALSE(g.node(v).stateful()) << g.node(v).name << " is in a GPU partition";
      const UnitCost c = model.gpu_cost(part.nodes);
      EXPECT_TRUE(c.fits);
      EXPECT_LE(c.shared_bytes, d.shared_bytes_per_sm) << "partition " << i;
      EXPECT_EQ(part.cost.shared_bytes, c.shared_bytes);
    } else {
      ASSERT_EQ(part.nodes.size(), 1u);
      EXPECT_TRUE(g.node(part.nodes[0]).stateful());
    }
  }
  for (NodeId v = 0; v < g.node_count(); ++v)
    EXPECT_EQ(seen[static_cast<std::size_t>(v)], 1) << "node " << v;
  EXPECT_TRUE(partitions_acyclic(g, p.partition_of));
}

// The largest shared-memory need of one stateless operator alone.
std::uint64_t largest_operator_need(const Graph& g, const Schedule& s) {
  const CostModel model(g, s, DeviceLimits::h200());
  std::uint64_t largest = 0;
  for (NodeId v = 0; v < g.node_count(); ++v) {
    if (!g.node(v).stateful()) largest = std::max(largest, model.gpu_cost({v}).shared_bytes);
  }
  return largest;
}

TEST(StreamGraphPartition, MultilevelPartitionsAreValidEverywhere) {
  int several = 0;  // results with more than one GPU partition, so the properties are not vacuous
  for (const BenchmarkInfo& info : benchmark_list()) {
    for (int n : info.small_n) {
      Benchmark b = make_benchmark(info.name, n);
      const Schedule s = make_schedule(b.graph);
      std::vector<DeviceLimits> devices;
      for (std::uint64_t shared : kSharedSizes)
        devices.push_back(DeviceLimits::h200().with_shared_bytes(shared));
      // Just room for the largest operator, and an SM that needs many threads
      // to be busy: memory bounds every merge.
      DeviceLimits tight =
          DeviceLimits::h200().with_shared_bytes(largest_operator_need(b.graph, s));
      tight.threads_to_saturate_sm = 1 << 20;
      devices.push_back(tight);
      for (const DeviceLimits& d : devices) {
        for (std::uint64_t seed : {1, 2, 3}) {
          SCOPED_TRACE(info.name + " N=" + std::to_string(n) + " shared=" +
                       std::to_string(d.shared_bytes_per_sm) + " seed=" + std::to_string(seed));
          PartitionOptions options;
          options.seed = seed;
          const Partitioning p = partition_multilevel(b.graph, s, d, options);
          expect_valid(b.graph, s, p, d);
          EXPECT_EQ(p.cpu_partitions(), 2);
          EXPECT_GE(p.gpu_partitions(), 1);
          EXPECT_GT(p.estimated_ns, 0);
          if (p.gpu_partitions() > 1) ++several;
          // Without refinement the coarsest level alone is valid too.
          options.refine = false;
          expect_valid(b.graph, s, partition_multilevel(b.graph, s, d, options), d);
        }
      }
    }
  }
  EXPECT_GE(several, 20);
}

TEST(StreamGraphPartition, LargerGraphsOnTheC2070) {
  // Paper-sized graphs on the paper's GPU, where they no longer fit one partition.
  const DeviceLimits d = DeviceLimits::c2070();
  const std::pair<const char*, int> cases[] = {
      {"DES", 16}, {"FFT", 64},     {"Bitonic", 32},   {"BitonicRec", 32},
      {"DCT", 16}, {"FMRadio", 12}, {"MatrixMult", 6}, {"MatrixMult3", 5}};
  for (const auto& [name, n] : cases) {
    SCOPED_TRACE(std::string(name) + " N=" + std::to_string(n));
    Benchmark b = make_benchmark(name, n);
    const Schedule s = make_schedule(b.graph);
    const Partitioning p = partition_multilevel(b.graph, s, d);
    expect_valid(b.graph, s, p, d);
  }
}

// A cost for being a partition (the measured launches and channel copies)
// makes merging pay: FMRadio, which the H200 preset splits although one
// partition holds it, keeps fewer partitions, and they stay valid.
TEST(StreamGraphPartition, PartitionCostMergesWhatFits) {
  const DeviceLimits plain = DeviceLimits::h200();
  DeviceLimits costly = plain;
  costly.partition_overhead_ns = 150;
  int fewer = 0;
  for (int n : {8, 16, 20}) {
    SCOPED_TRACE("FMRadio N=" + std::to_string(n));
    Benchmark b = make_benchmark("FMRadio", n);
    const Schedule s = make_schedule(b.graph);
    const Partitioning without = partition_multilevel(b.graph, s, plain);
    const Partitioning with = partition_multilevel(b.graph, s, costly);
    expect_valid(b.graph, s, with, costly);
    EXPECT_LE(with.gpu_partitions(), without.gpu_partitions());
    if (with.gpu_partitions() < without.gpu_partitions()) ++fewer;
  }
  EXPECT_GT(fewer, 0);
}

TEST(StreamGraphPartition, SameSeedSamePartitions) {
  Benchmark b = make_benchmark("DES", 4);
  const Schedule s = make_schedule(b.graph);
  const DeviceLimits d = DeviceLimits::h200().with_shared_bytes(16 * 1024);
  EXPECT_EQ(partition_multilevel(b.graph, s, d).partition_of,
            partition_multilevel(b.graph, s, d).partition_of);
}

TEST(StreamGraphPartition, SinglePartitionHasNoSolutionWhereTheGraphDoesNotFit) {
  for (const BenchmarkInfo& info : benchmark_list()) {
    const int n = info.small_n[3];
    SCOPED_TRACE(info.name + " N=" + std::to_string(n));
    Benchmark b = make_benchmark(info.name, n);
    const Schedule s = make_schedule(b.graph);
    const DeviceLimits roomy = DeviceLimits::h200().with_shared_bytes(1ull << 30);
    const SinglePartitionResult fits = partition_single(b.graph, s, roomy);
    ASSERT_TRUE(fits.feasible) << fits.reason;
    expect_valid(b.graph, s, fits.partitioning, roomy);
    EXPECT_EQ(fits.partitioning.gpu_partitions(), 1);
    // One byte less than the whole graph needs: no single partition.
    const std::uint64_t whole = fits.partitioning.partitions[1].cost.shared_bytes;
    const DeviceLimits tight = DeviceLimits::h200().with_shared_bytes(whole - 1);
    const SinglePartitionResult single = partition_single(b.graph, s, tight);
    EXPECT_FALSE(single.feasible);
    EXPECT_NE(single.reason.find("no solution"), std::string::npos) << single.reason;
    // Several partitions do fit when every operator fits on its own (each
    // operator alone also double-buffers its channels, so that can need more
    // than the whole graph; then there is no partitioning at all).
    if (largest_operator_need(b.graph, s) <= tight.shared_bytes_per_sm) {
      const Partitioning multi = partition_multilevel(b.graph, s, tight);
      expect_valid(b.graph, s, multi, tight);
      EXPECT_GT(multi.gpu_partitions(), 1);
    } else {
      EXPECT_THROW(partition_multilevel(b.graph, s, tight), UsageError);
    }
  }
}

TEST(StreamGraphPartition, MatrixMult3AtNineNeedsSeveralPartitionsIn48KiB) {
  // The paper's figure 5 case: a single partition has no solution, several do.
  Benchmark b = make_benchmark("MatrixMult3", 9);
  const Schedule s = make_schedule(b.graph);
  const DeviceLimits d = DeviceLimits::h200().with_shared_bytes(48 * 1024);
  const SinglePartitionResult single = partition_single(b.graph, s, d);
  EXPECT_FALSE(single.feasible);
  const Partitioning multi = partition_multilevel(b.graph, s, d);
  expect_valid(b.graph, s, multi, d);
  EXPECT_GT(multi.gpu_partitions(), 1);
}

TEST(StreamGraphPartition, OperatorLargerThanSharedMemoryIsAnError) {
  Benchmark b = make_benchmark("MatrixMult", 4);
  const Schedule s = make_schedule(b.graph);
  try {
    partition_multilevel(b.graph, s, DeviceLimits::h200().with_shared_bytes(256));
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("no partition can hold it"), std::string::npos)
        << e.what();
  }
}

TEST(StreamGraphPartition, StatefulFilterInsideTheGraphRunsOnTheCpu) {
  using testing::copy_filter;
  FilterSpec counter = testing::copy_filter("counter", 1, 1);
  counter.stateful = true;
  Graph g = build_graph(pipeline({filter(testing::source("src", 1)), filter(copy_filter("a", 1, 1)),
                                  filter(copy_filter("b", 1, 1)), filter(counter),
                                  filter(copy_filter("c", 1, 1)), filter(testing::sink("snk", 1))}),
                        ItemType::f32);
  const Schedule s = make_schedule(g);
  const DeviceLimits d = DeviceLimits::h200();
  const SinglePartitionResult single = partition_single(g, s, d);
  EXPECT_FALSE(single.feasible);
  EXPECT_NE(single.reason.find("stateful filter lies between"), std::string::npos) << single.reason;
  const Partitioning p = partition_multilevel(g, s, d);
  expect_valid(g, s, p, d);
  EXPECT_EQ(p.cpu_partitions(), 3);
  EXPECT_NE(p.partition_of[static_cast<std::size_t>(g.find("b"))],
            p.partition_of[static_cast<std::size_t>(g.find("c"))]);
}

}  // namespace
}  // namespace harness::streamgraph
