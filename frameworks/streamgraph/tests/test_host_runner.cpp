// Host firing: `count` firings of an operator in one call move the same items
// as `count` single firings, for every kind of operator (filters that peek,
// weighted round-robin and duplicate splitters, weighted joiners).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "frameworks/streamgraph/host_runner.h"
#include "frameworks/streamgraph/schedule.h"
#include "frameworks/streamgraph/structure.h"
#include "frameworks/streamgraph/tests/test_helpers.h"

namespace harness::streamgraph {
namespace {

using testing::copy_filter;

// source (6 distinct items a firing) -> split rr {1, 2} -> [a | b1 (peeks 4,
// pops 2) -> b2] -> join rr {1, 2} -> duplicate split -> [c | d] -> join rr
// {1, 1} -> sink recording what it pops.
struct RecordedGraph {
  Graph graph{ItemType::f32};
  std::shared_ptr<float> next = std::make_shared<float>(0.0f);
  std::shared_ptr<std::vector<float>> seen = std::make_shared<std::vector<float>>();
};

std::unique_ptr<RecordedGraph> make_graph() {
  auto r = std::make_unique<RecordedGraph>();
  auto next = r->next;
  auto seen = r->seen;
  std::vector<Stream> ab;
  ab.push_back(filter(copy_filter("a", 1, 1)));
  ab.push_back(pipeline({filter(copy_filter("b1", 2, 2, 4)), filter(copy_filter("b2", 2, 2))}));
  std::vector<Stream> cd;
  cd.push_back(filter(copy_filter("c", 1, 1)));
  cd.push_back(filter(copy_filter("d", 1, 1)));
  r->graph = build_graph(
      pipeline({filter(stateful_filter<float>("src", 0, 0, 6,
                                              [next](const float*, float* out) {
                                                for (int i = 0; i < 6; ++i) out[i] = (*next)++;
                                              })),
                split_join(round_robin({1, 2}), std::move(ab), join_round_robin({1, 2}), "ab"),
                split_join(duplicate(), std::move(cd), join_round_robin({1, 1}), "cd"),
                filter(stateful_filter<float>(
                    "snk", 4, 4, 0,
                    [seen](const float* in, float*) { seen->insert(seen->end(), in, in + 4); }))}),
      ItemType::f32);
  return r;
}

std::vector<float> run(bool batched, std::int64_t iterations) {
  auto r = make_graph();
  const Schedule s = make_schedule(r->graph);
  HostRunner<float> runner(r->graph);
  auto fire = [&](NodeId v, std::int64_t times) {
    if (batched) {
      runner.fire(v, times);
    } else {
      for (std::int64_t k = 0; k < times; ++k) runner.fire(v);
    }
  };
  for (NodeId v : s.order) fire(v, s.init_firings[static_cast<std::size_t>(v)]);
  for (std::int64_t it = 0; it < iterations; ++it) {
    for (NodeId v : s.order) fire(v, s.repetitions[static_cast<std::size_t>(v)]);
  }
  return *r->seen;
}

TEST(StreamGraphHostRunner, BatchedFiringsMoveTheSameItemsAsSingleOnes) {
  const std::vector<float> single = run(false, 5);
  const std::vector<float> batched = run(true, 5);
  ASSERT_FALSE(single.empty());
  EXPECT_EQ(batched, single);
  // The duplicate split-join doubles each item the first join emits: pairs agree.
  for (std::size_t i = 0; i + 1 < single.size(); i += 2) EXPECT_EQ(single[i], single[i + 1]);
}

TEST(StreamGraphHostRunner, BatchedFiringChecksTheWholeWindowFirst) {
  auto r = make_graph();
  HostRunner<float> runner(r->graph);
  const NodeId split = r->graph.find("ab.split");
  const NodeId src = r->graph.find("src");
  runner.fire(src, 1);  // 6 items: two firings of the {1, 2} splitter, not three
  EXPECT_THROW(runner.fire(split, 3), RunError);
}

TEST(StreamGraphHostRunner, FifoKeepsOrderAcrossGrowthAndCompaction) {
  Fifo<float> f;
  float next_in = 0, next_out = 0;
  for (int round = 0; round < 200; ++round) {
    const std::size_t add = 1 + (round * 37) % 150;
    float* at = f.append(add);
    for (std::size_t i = 0; i < add; ++i) at[i] = next_in++;
    const std::size_t take = std::min<std::size_t>(f.size(), 1 + (round * 53) % 170);
    for (std::size_t i = 0; i < take; ++i)
      ASSERT_EQ(f.front()[i], next_out + static_cast<float>(i));
    f.consume(take);
    next_out += static_cast<float>(take);
  }
  const std::vector<float> rest = f.take_all();
  ASSERT_EQ(rest.size(), static_cast<std::size_t>(next_in - next_out));
  for (std::size_t i = 0; i < rest.size(); ++i)
    EXPECT_EQ(rest[i], next_out + static_cast<float>(i));
  EXPECT_EQ(f.size(), 0u);
}

}  // namespace
}  // namespace harness::streamgraph
