// The graph API: structures flatten as StreamIt's do, and bad graphs get a
// clear error naming the cause.
#include <gtest/gtest.h>

#include "frameworks/streamgraph/schedule.h"
#include "frameworks/streamgraph/structure.h"
#include "frameworks/streamgraph/tests/test_helpers.h"
#include "harness/core/errors.h"

namespace harness::streamgraph {
namespace {

using testing::copy_filter;
using testing::sink;
using testing::source;

// The message of the UsageError `f` throws ("" if none).
template <class F>
std::string usage_error(F&& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(StreamGraph, SplitJoinFlattensInProgramOrder) {
  std::vector<Stream> branches;
  branches.push_back(filter(copy_filter("a", 1, 1)));
  branches.push_back(pipeline({filter(copy_filter("b1", 2, 2)), filter(copy_filter("b2", 2, 2))}));
  Graph g = build_graph(pipeline({filter(source("src", 1)),
                                  split_join(round_robin({1, 2}), std::move(branches),
                                             join_round_robin({1, 2}), "sj"),
                                  filter(sink("snk", 3))}),
                        ItemType::f32);
  ASSERT_EQ(g.node_count(), 7);
  EXPECT_EQ(g.channel_count(), 7);
  EXPECT_EQ(g.node(1).name, "sj.split");
  EXPECT_EQ(g.node(2).name, "a");
  EXPECT_EQ(g.node(5).name, "sj.join");
  EXPECT_EQ(g.push_rate(1, 1), 2);
  EXPECT_EQ(g.pop_rate(1, 0), 3);
  EXPECT_EQ(g.pop_rate(5, 1), 2);
  EXPECT_EQ(g.find("b2"), 4);
}

TEST(StreamGraph, EmptyGraphIsAnError) {
  Graph g(ItemType::f32);
  EXPECT_EQ(usage_error([&] { g.validate(); }), "stream graph is empty");
  EXPECT_NE(usage_error([] { build_graph(pipeline({}), ItemType::f32); }).find("empty pipeline"),
            std::string::npos);
}

TEST(StreamGraph, CycleIsAnErrorNamingIt) {
  Graph g(ItemType::f32);
  const NodeId src = g.add_filter(source("src", 1));
  const NodeId join = g.add_round_robin_joiner({1, 1}, "join");
  const NodeId a = g.add_filter(copy_filter("a", 2, 2));
  const NodeId split = g.add_round_robin_splitter({1, 1}, "split");
  const NodeId snk = g.add_filter(sink("snk", 1));
  g.connect(src, 0, join, 0);
  g.connect(join, 0, a, 0);
  g.connect(a, 0, split, 0);
  g.connect(split, 0, snk, 0);
  g.connect(split, 1, join, 1);  // feedback
  const std::string msg = usage_error([&] { g.validate(); });
  EXPECT_NE(msg.find("cycle"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'join' -> 'a' -> 'split' -> 'join'"), std::string::npos) << msg;
  EXPECT_NE(usage_error([&] { make_schedule(g); }).find("cycle"), std::string::npos);
}

TEST(StreamGraph, MismatchedRatesHaveNoSteadyState) {
  // A duplicate splitter feeding branches that consume at different rates
  // into a joiner taking one from each: no repetition vector balances it.
  std::vector<Stream> branches;
  branches.push_back(filter(copy_filter("half", 2, 1)));
  branches.push_back(filter(copy_filter("same", 1, 1)));
  const std::string msg = usage_error([&] {
    Graph g =
        build_graph(pipeline({filter(source("src", 1)),
                              split_join(duplicate(), std::move(branches), join_round_robin({1})),
                              filter(sink("snk", 1))}),
                    ItemType::f32);
    make_schedule(g);
  });
  EXPECT_NE(msg.find("rates are inconsistent"), std::string::npos) << msg;
  EXPECT_NE(msg.find("sj.join"), std::string::npos) << msg;
}

TEST(StreamGraph, DanglingPortsAndBadRatesAreErrors) {
  Graph g(ItemType::f32);
  const NodeId src = g.add_filter(source("src", 1));
  const NodeId a = g.add_filter(copy_filter("a", 1, 1));
  g.connect(src, 0, a, 0);
  EXPECT_NE(usage_error([&] { g.validate(); }).find("output port 0 of 'a'"), std::string::npos);
  EXPECT_NE(usage_error([&] { g.add_filter(copy_filter("peeky", 3, 1, 2)); }).find("pop 3, peek 2"),
            std::string::npos);
  EXPECT_NE(usage_error([&] { g.connect(a, 1, src, 0); }).find("no output port 1"),
            std::string::npos);
  Graph u(ItemType::u32);
  EXPECT_NE(usage_error([&] { u.add_filter(copy_filter("f", 1, 1)); }).find("works on f32 items"),
            std::string::npos);
}

TEST(StreamGraph, DisconnectedGraphIsAnError) {
  Graph g(ItemType::f32);
  g.connect(g.add_filter(source("s1", 1)), 0, g.add_filter(sink("k1", 1)), 0);
  g.connect(g.add_filter(source("s2", 1)), 0, g.add_filter(sink("k2", 1)), 0);
  EXPECT_NE(usage_error([&] { g.validate(); }).find("not connected"), std::string::npos);
}

TEST(StreamGraph, WeightsMustMatchBranches) {
  std::vector<Stream> branches;
  branches.push_back(filter(copy_filter("a", 1, 1)));
  branches.push_back(filter(copy_filter("b", 1, 1)));
  const std::string msg = usage_error([&] {
    build_graph(
        pipeline({filter(source("src", 1)),
                  split_join(round_robin({1, 2, 3}), std::move(branches), join_round_robin({1})),
                  filter(sink("snk", 1))}),
        ItemType::f32);
  });
  EXPECT_NE(msg.find("3 weights for 2 branches"), std::string::npos) << msg;
}

}  // namespace
}  // namespace harness::streamgraph
