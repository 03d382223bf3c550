// The steady-state schedule: repetition vector, initialization for peeking
// filters, buffer sizes, a valid firing order, and the live-bytes estimate.
#include <gtest/gtest.h>

#include "frameworks/streamgraph/executor_cpu.h"
#include "frameworks/streamgraph/schedule.h"
#include "frameworks/streamgraph/stats.h"
#include "frameworks/streamgraph/structure.h"
#include "frameworks/streamgraph/tests/test_helpers.h"

namespace harness::streamgraph {
namespace {

using testing::copy_filter;
using testing::sink;
using testing::source;

TEST(StreamGraphSchedule, RepetitionVectorBalancesMultiRatePipeline) {
  // src pushes 2; a pops 3 pushes 1; b pops 2 pushes 5; sink pops 1.
  Graph g = build_graph(pipeline({filter(source("src", 2)), filter(copy_filter("a", 3, 1)),
                                  filter(copy_filter("b", 2, 5)), filter(sink("snk", 1))}),
                        ItemType::f32);
  const Schedule s = make_schedule(g);
  EXPECT_EQ(s.repetitions, (std::vector<std::int64_t>{3, 2, 1, 5}));
  EXPECT_EQ(s.order, (std::vector<NodeId>{0, 1, 2, 3}));
  ASSERT_EQ(s.channels.size(), 3u);
  EXPECT_EQ(s.channels[0].steady_items, 6);
  EXPECT_EQ(s.channels[1].steady_items, 2);
  EXPECT_EQ(s.channels[2].steady_items, 5);
  EXPECT_EQ(s.channels[2].capacity_bytes, 20u);
  EXPECT_EQ(s.total_buffer_bytes, (6u + 2u + 5u) * 4u);
  // Along the order: src (ch0) 24, a (ch0+ch1) 32, b (ch1+ch2) 28, sink (ch2) 20.
  EXPECT_EQ(s.peak_live_bytes, 32u);
  EXPECT_EQ(peak_live_bytes(g, s, {1, 2}),
            24u + 8u);  // ch0 in, ch1 inside, ch2 out: a fires with ch0+ch1
}

TEST(StreamGraphSchedule, SplitJoinRatesAndPeekingInitialization) {
  std::vector<Stream> branches;
  branches.push_back(filter(copy_filter("fir", 1, 1, 4)));  // peeks 4, pops 1
  branches.push_back(filter(copy_filter("two", 2, 2)));
  Graph g =
      build_graph(pipeline({filter(source("src", 1)),
                            split_join(duplicate(), std::move(branches), join_round_robin({2, 2})),
                            filter(sink("snk", 4))}),
                  ItemType::f32);
  const Schedule s = make_schedule(g);
  // src, split, fir, two, join, snk
  EXPECT_EQ(s.repetitions, (std::vector<std::int64_t>{2, 2, 2, 1, 1, 1}));
  // The splitter (and so the source) fires 3 extra times first so fir always sees 4 items.
  EXPECT_EQ(s.init_firings, (std::vector<std::int64_t>{3, 3, 0, 0, 0, 0}));
  const ChannelId to_fir = g.node(2).inputs[0];
  const ChannelId to_two = g.node(3).inputs[0];
  EXPECT_EQ(s.channels[static_cast<std::size_t>(to_fir)].initial_items, 3);
  EXPECT_EQ(s.channels[static_cast<std::size_t>(to_fir)].capacity_items, 5);
  EXPECT_EQ(s.channels[static_cast<std::size_t>(to_two)].initial_items, 3);
  // The executor finds every input it needs for many executions (it throws otherwise).
  const CpuRunResult r = run_sequential(g, s, 50);
  EXPECT_EQ(r.firings, 3u * 2u + 50u * 9u);
}

TEST(StreamGraphSchedule, FiringOrderIsValidOnEveryChannel) {
  // Replay the order counting items: no channel ever goes below what its consumer peeks.
  std::vector<Stream> branches;
  for (int i = 0; i < 3; ++i)
    branches.push_back(pipeline({filter(copy_filter("x" + std::to_string(i), 2, 3)),
                                 filter(copy_filter("y" + std::to_string(i), 1, 2))}));
  Graph g = build_graph(
      pipeline({filter(source("src", 5)),
                split_join(round_robin({2}), std::move(branches), join_round_robin({6})),
                filter(sink("snk", 4))}),
      ItemType::f32);
  const Schedule s = make_schedule(g);
  std::vector<std::int64_t> items(static_cast<std::size_t>(g.channel_count()));
  for (ChannelId c = 0; c < g.channel_count(); ++c)
    items[static_cast<std::size_t>(c)] = s.channels[static_cast<std::size_t>(c)].initial_items;
  for (NodeId v : s.order) {
    for (std::int64_t k = 0; k < s.repetitions[static_cast<std::size_t>(v)]; ++k) {
      for (std::size_t p = 0; p < g.node(v).inputs.size(); ++p) {
        const auto c = static_cast<std::size_t>(g.node(v).inputs[p]);
        ASSERT_GE(items[c], g.peek_rate(v, static_cast<int>(p))) << g.node(v).name;
        items[c] -= g.pop_rate(v, static_cast<int>(p));
      }
      for (std::size_t p = 0; p < g.node(v).outputs.size(); ++p) {
        const auto c = static_cast<std::size_t>(g.node(v).outputs[p]);
        items[c] += g.push_rate(v, static_cast<int>(p));
        ASSERT_LE(items[c], s.channels[c].capacity_items);
      }
    }
  }
  for (ChannelId c = 0; c < g.channel_count(); ++c) {
    EXPECT_EQ(items[static_cast<std::size_t>(c)],
              s.channels[static_cast<std::size_t>(c)].initial_items);
  }
  const GraphStats st = graph_stats(g, s);
  EXPECT_EQ(st.filters, 8);
  EXPECT_EQ(st.splitters, 1);
  EXPECT_EQ(st.joiners, 1);
  EXPECT_EQ(st.channels, 11);
  EXPECT_EQ(st.stateful_filters, 2);
}

}  // namespace
}  // namespace harness::streamgraph
