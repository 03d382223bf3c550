// The mapper: every GPU partition on exactly one of G GPUs (G = 1..4), CPU
// partitions on CPU threads, loads within the stated bound, deterministic,
// and independent heavy branches spread over the GPUs.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/mapper.h"
#include "frameworks/streamgraph/structure.h"
#include "frameworks/streamgraph/tests/test_helpers.h"
#include "harness/core/errors.h"

namespace harness::streamgraph {
namespace {

void expect_valid(const Partitioning& p, const Mapping& m, int gpus) {
  ASSERT_EQ(m.gpu_of_partition.size(), p.partitions.size());
  ASSERT_EQ(m.gpu_load_ns.size(), static_cast<std::size_t>(gpus));
  std::vector<double> load(static_cast<std::size_t>(gpus), 0.0);
  double total = 0;
  std::vector<int> threads;
  for (std::size_t i = 0; i < p.partitions.size(); ++i) {
    if (p.partitions[i].target == Target::gpu) {
      ASSERT_GE(m.gpu_of_partition[i], 0);
      ASSERT_LT(m.gpu_of_partition[i], gpus);
      EXPECT_EQ(m.cpu_thread_of_partition[i], -1);
      load[static_cast<std::size_t>(m.gpu_of_partition[i])] += p.partitions[i].cost.time_ns;
      total += p.partitions[i].cost.time_ns;
    } else {
      EXPECT_EQ(m.gpu_of_partition[i], -1);
      EXPECT_GE(m.cpu_thread_of_partition[i], 0);
      threads.push_back(m.cpu_thread_of_partition[i]);
    }
  }
  std::sort(threads.begin(), threads.end());
  EXPECT_EQ(std::adjacent_find(threads.begin(), threads.end()), threads.end())
      << "two CPU partitions share a thread";
  const double eps = 1e-6 * (total + 1);
  for (int g = 0; g < gpus; ++g) {
    EXPECT_NEAR(load[static_cast<std::size_t>(g)], m.gpu_load_ns[static_cast<std::size_t>(g)], eps);
    // The stated bound: average load plus the largest partition.
    EXPECT_LE(m.gpu_load_ns[static_cast<std::size_t>(g)], m.balance_bound_ns + eps);
  }
  double largest = 0;
  for (const Partition& part : p.partitions) {
    if (part.target == Target::gpu) largest = std::max(largest, part.cost.time_ns);
  }
  EXPECT_NEAR(m.balance_bound_ns, total / gpus + largest, eps);
}

TEST(StreamGraphMapper, EveryBenchmarkOnOneToFourGpus) {
  // An SM that wants many threads: the partitioner then leaves several
  // partitions for the mapper to balance.
  DeviceLimits d = DeviceLimits::h200().with_shared_bytes(48 * 1024);
  d.threads_to_saturate_sm = 1 << 20;
  d.round_overhead_ns = 0;
  int balanced = 0;
  for (const BenchmarkInfo& info : benchmark_list()) {
    for (int n : {info.small_n[1], info.small_n[3]}) {
      Benchmark b = make_benchmark(info.name, n);
      const Schedule s = make_schedule(b.graph);
      const Partitioning p = partition_multilevel(b.graph, s, d);
      for (int gpus = 1; gpus <= 4; ++gpus) {
        SCOPED_TRACE(info.name + " N=" + std::to_string(n) + " GPUs=" + std::to_string(gpus));
        const Mapping m = map_partitions(b.graph, s, p, gpus, d);
        expect_valid(p, m, gpus);
        if (gpus == 1) {
          for (std::size_t i = 0; i < p.partitions.size(); ++i) {
            if (p.partitions[i].target == Target::gpu) {
              EXPECT_EQ(m.gpu_of_partition[i], 0);
            }
          }
        }
        const Mapping again = map_partitions(b.graph, s, p, gpus, d);
        EXPECT_EQ(again.gpu_of_partition, m.gpu_of_partition);
        if (gpus > 1 && p.gpu_partitions() >= 4) {
          // Enough partitions: more GPUs lower the estimated time of an execution.
          const Mapping one = map_partitions(b.graph, s, p, 1, d);
          EXPECT_LT(m.estimated_ns, one.estimated_ns);
          ++balanced;
        }
      }
    }
  }
  EXPECT_GE(balanced, 6);
}

TEST(StreamGraphMapper, IndependentHeavyBranchesSpreadOverGpus) {
  // source -> duplicate -> four heavy filters -> joiner -> sink, one partition each.
  std::vector<Stream> branches;
  for (int i = 0; i < 4; ++i) {
    FilterSpec heavy = testing::copy_filter("heavy" + std::to_string(i), 1, 1);
    heavy.cost = 1e6;
    branches.push_back(filter(std::move(heavy)));
  }
  Graph g =
      build_graph(pipeline({filter(testing::source("src", 1)),
                            split_join(duplicate(), std::move(branches), join_round_robin({1})),
                            filter(testing::sink("snk", 4))}),
                  ItemType::f32);
  const Schedule s = make_schedule(g);
  const DeviceLimits d = DeviceLimits::h200();
  const CostModel model(g, s, d);
  Partitioning p;
  p.partition_of.assign(static_cast<std::size_t>(g.node_count()), -1);
  for (NodeId v : s.order) {
    Partition part;
    part.target = g.node(v).stateful() ? Target::cpu : Target::gpu;
    part.nodes = {v};
    part.cost = model.gpu_cost(part.nodes);
    p.partition_of[static_cast<std::size_t>(v)] = static_cast<int>(p.partitions.size());
    p.partitions.push_back(part);
  }
  for (int gpus : {2, 4}) {
    const Mapping m = map_partitions(g, s, p, gpus, d);
    expect_valid(p, m, gpus);
    std::vector<int> heavy_per_gpu(static_cast<std::size_t>(gpus), 0);
    for (int i = 0; i < 4; ++i) {
      const int part =
          p.partition_of[static_cast<std::size_t>(g.find("heavy" + std::to_string(i)))];
      ++heavy_per_gpu[static_cast<std::size_t>(m.gpu_of_partition[static_cast<std::size_t>(part)])];
    }
    for (int count : heavy_per_gpu) EXPECT_EQ(count, 4 / gpus) << "GPUs=" << gpus;
  }
  EXPECT_THROW(map_partitions(g, s, p, 0, d), UsageError);
}

// A pipeline source -> f0 -> f1 -> f2 -> f3 -> sink, each operator its own
// partition (the stateful source and sink on the CPU).
struct Chain {
  Graph g{ItemType::f32};
  Schedule s;
  Partitioning p;
};
Chain chain_of_four() {
  std::vector<Stream> stages;
  stages.push_back(filter(testing::source("src", 1)));
  for (int i = 0; i < 4; ++i)
    stages.push_back(filter(testing::copy_filter("f" + std::to_string(i), 1, 1)));
  stages.push_back(filter(testing::sink("snk", 1)));
  Chain c;
  c.g = build_graph(pipeline(std::move(stages)), ItemType::f32);
  c.s = make_schedule(c.g);
  const CostModel model(c.g, c.s, DeviceLimits::h200());
  c.p.partition_of.assign(static_cast<std::size_t>(c.g.node_count()), -1);
  for (NodeId v : c.s.order) {
    Partition part;
    part.target = c.g.node(v).stateful() ? Target::cpu : Target::gpu;
    part.nodes = {v};
    part.cost = model.gpu_cost(part.nodes);
    c.p.partition_of[static_cast<std::size_t>(v)] = static_cast<int>(c.p.partitions.size());
    c.p.partitions.push_back(part);
  }
  return c;
}

int gpu_of(const Chain& c, const Mapping& m, const std::string& name) {
  const int part = c.p.partition_of[static_cast<std::size_t>(c.g.find(name))];
  return m.gpu_of_partition[static_cast<std::size_t>(part)];
}

TEST(StreamGraphMapper, BalancesTheWeightsItIsGiven) {
  const Chain c = chain_of_four();
  const DeviceLimits d = DeviceLimits::h200();
  // Weights far above the host-link term (a few bytes an execution): the
  // mapper balances them. One heavy filter and three light ones on 2 GPUs:
  // the heavy one alone, the light ones together (loads 3 and 3).
  std::vector<double> w(c.p.partitions.size(), 0.0);
  for (int i = 0; i < 4; ++i) {
    const int part = c.p.partition_of[static_cast<std::size_t>(c.g.find("f" + std::to_string(i)))];
    w[static_cast<std::size_t>(part)] = i == 2 ? 3e5 : 1e5;
  }
  const Mapping m = map_partitions(c.g, c.s, c.p, 2, d, w);
  EXPECT_NEAR(std::max(m.gpu_load_ns[0], m.gpu_load_ns[1]), 3e5, 1.0);
  EXPECT_NE(gpu_of(c, m, "f2"), gpu_of(c, m, "f0"));
  EXPECT_EQ(gpu_of(c, m, "f0"), gpu_of(c, m, "f1"));
  EXPECT_EQ(gpu_of(c, m, "f1"), gpu_of(c, m, "f3"));
  const Mapping one = map_partitions(c.g, c.s, c.p, 1, d, w);
  EXPECT_NEAR(one.gpu_load_ns[0], 6e5, 1.0);
  EXPECT_LT(m.estimated_ns, one.estimated_ns * 0.6);
  // Equal weights: two filters a GPU.
  for (double& x : w) x = x > 0 ? 1e5 : 0;
  const Mapping even = map_partitions(c.g, c.s, c.p, 2, d, w);
  EXPECT_NEAR(even.gpu_load_ns[0], 2e5, 1.0);
  EXPECT_NEAR(even.gpu_load_ns[1], 2e5, 1.0);
  // Bad weights.
  EXPECT_THROW(map_partitions(c.g, c.s, c.p, 2, d, std::vector<double>(2, 1.0)), UsageError);
  w[1] = -1;
  EXPECT_THROW(map_partitions(c.g, c.s, c.p, 2, d, w), UsageError);
  w[1] = std::nan("");
  EXPECT_THROW(map_partitions(c.g, c.s, c.p, 2, d, w), UsageError);
}

}  // namespace
}  // namespace harness::streamgraph
