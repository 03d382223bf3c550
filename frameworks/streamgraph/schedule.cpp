#include "frameworks/streamgraph/schedule.h"

#include <algorithm>
#include <numeric>

#include "harness/core/errors.h"

namespace harness::streamgraph {

namespace {

// A positive fraction num/den in lowest terms.
struct Ratio {
  std::int64_t num = 1;
  std::int64_t den = 1;
};

// Keeps every product of a count and a rate (an int) within 64 bits.
constexpr std::int64_t kMaxRepetition = (std::int64_t{1} << 31) - 1;

Ratio make_ratio(std::int64_t num, std::int64_t den) {
  const std::int64_t d = std::gcd(num, den);
  if (num / d > kMaxRepetition || den / d > kMaxRepetition) {
    throw UsageError("stream graph: repetition counts overflow (rates too far apart)");
  }
  return Ratio{num / d, den / d};
}

std::string channel_name(const Graph& g, const Channel& c) {
  return "'" + g.node(c.src).name + "' -> '" + g.node(c.dst).name + "'";
}

}  // namespace

Schedule make_schedule(const Graph& g) {
  g.validate();
  const auto n = static_cast<std::size_t>(g.node_count());
  Schedule s;

  // Balance equations: r[src] * push = r[dst] * pop on every channel. Spread
  // fractions from node 0 over the (connected) graph, then check every channel.
  std::vector<Ratio> r(n);
  std::vector<char> known(n, 0);
  known[0] = 1;
  std::vector<NodeId> stack = {0};
  while (!stack.empty()) {
    const NodeId v = stack.back();
    stack.pop_back();
    const Ratio rv = r[static_cast<std::size_t>(v)];
    for (ChannelId cid : g.node(v).outputs) {
      const Channel& c = g.channel(cid);
      if (known[static_cast<std::size_t>(c.dst)]) continue;
      known[static_cast<std::size_t>(c.dst)] = 1;
      // r[dst] = r[v] * push / pop
      r[static_cast<std::size_t>(c.dst)] =
          make_ratio(rv.num * g.push_rate(v, c.src_port), rv.den * g.pop_rate(c.dst, c.dst_port));
      stack.push_back(c.dst);
    }
    for (ChannelId cid : g.node(v).inputs) {
      const Channel& c = g.channel(cid);
      if (known[static_cast<std::size_t>(c.src)]) continue;
      known[static_cast<std::size_t>(c.src)] = 1;
      r[static_cast<std::size_t>(c.src)] =
          make_ratio(rv.num * g.pop_rate(v, c.dst_port), rv.den * g.push_rate(c.src, c.src_port));
      stack.push_back(c.src);
    }
  }
  std::int64_t lcm_den = 1;
  for (const Ratio& x : r) {
    lcm_den = std::lcm(lcm_den, x.den);
    if (lcm_den > kMaxRepetition) {
      throw UsageError("stream graph: repetition counts overflow (rates too far apart)");
    }
  }
  s.repetitions.resize(n);
  std::int64_t common = 0;
  for (std::size_t v = 0; v < n; ++v) {
    s.repetitions[v] = r[v].num * (lcm_den / r[v].den);
    common = std::gcd(common, s.repetitions[v]);
  }
  for (auto& x : s.repetitions) {
    x /= common;
    if (x > kMaxRepetition) {
      throw UsageError("stream graph: repetition counts overflow (rates too far apart)");
    }
  }
  for (const Channel& c : g.channels()) {
    const std::int64_t produced =
        s.repetitions[static_cast<std::size_t>(c.src)] * g.push_rate(c.src, c.src_port);
    const std::int64_t consumed =
        s.repetitions[static_cast<std::size_t>(c.dst)] * g.pop_rate(c.dst, c.dst_port);
    if (produced != consumed) {
      throw UsageError("stream graph: rates are inconsistent (no steady state): channel " +
                       channel_name(g, c) + " would receive " + std::to_string(produced) +
                       " items but lose " + std::to_string(consumed) + " per execution");
    }
  }

  s.order = g.topological_order();
  s.position.assign(n, 0);
  for (std::size_t i = 0; i < s.order.size(); ++i) {
    s.position[static_cast<std::size_t>(s.order[i])] = static_cast<int>(i);
  }

  // Initialization: in reverse topological order, each producer fires just
  // enough that every consumer's init firings run and peek - pop items remain.
  s.init_firings.assign(n, 0);
  for (auto it = s.order.rbegin(); it != s.order.rend(); ++it) {
    const NodeId u = *it;
    std::int64_t need = 0;
    for (ChannelId cid : g.node(u).outputs) {
      const Channel& c = g.channel(cid);
      const std::int64_t extra = g.peek_rate(c.dst, c.dst_port) - g.pop_rate(c.dst, c.dst_port);
      const std::int64_t items =
          s.init_firings[static_cast<std::size_t>(c.dst)] * g.pop_rate(c.dst, c.dst_port) + extra;
      const std::int64_t push = g.push_rate(u, c.src_port);
      need = std::max(need, (items + push - 1) / push);
    }
    s.init_firings[static_cast<std::size_t>(u)] = need;
  }

  s.channels.resize(static_cast<std::size_t>(g.channel_count()));
  for (ChannelId cid = 0; cid < g.channel_count(); ++cid) {
    const Channel& c = g.channel(cid);
    ChannelBuffer& b = s.channels[static_cast<std::size_t>(cid)];
    b.steady_items =
        s.repetitions[static_cast<std::size_t>(c.src)] * g.push_rate(c.src, c.src_port);
    b.initial_items =
        s.init_firings[static_cast<std::size_t>(c.src)] * g.push_rate(c.src, c.src_port) -
        s.init_firings[static_cast<std::size_t>(c.dst)] * g.pop_rate(c.dst, c.dst_port);
    b.capacity_items = b.initial_items + b.steady_items;
    b.capacity_bytes = static_cast<std::uint64_t>(b.capacity_items) * kItemBytes;
    s.total_buffer_bytes += b.capacity_bytes;
  }
  std::vector<NodeId> all(n);
  std::iota(all.begin(), all.end(), 0);
  s.peak_live_bytes = peak_live_bytes(g, s, all);
  return s;
}

std::uint64_t peak_live_bytes(const Graph& g, const Schedule& s,
                              const std::vector<NodeId>& subset) {
  if (subset.empty()) return 0;
  std::vector<std::pair<int, NodeId>> steps;  // (global position, node)
  steps.reserve(subset.size());
  for (NodeId v : subset) steps.emplace_back(s.position[static_cast<std::size_t>(v)], v);
  std::sort(steps.begin(), steps.end());
  const int last = static_cast<int>(steps.size()) - 1;
  auto step_of = [&](NodeId v) -> int {  // index in the unit's order, -1 if outside
    const int pos = s.position[static_cast<std::size_t>(v)];
    auto it = std::lower_bound(steps.begin(), steps.end(), std::make_pair(pos, v));
    return (it != steps.end() && it->second == v) ? static_cast<int>(it - steps.begin()) : -1;
  };
  std::vector<std::int64_t> delta(steps.size() + 1, 0);
  auto live = [&](int from, int to, ChannelId cid) {
    const auto bytes =
        static_cast<std::int64_t>(s.channels[static_cast<std::size_t>(cid)].capacity_bytes);
    delta[static_cast<std::size_t>(from)] += bytes;
    delta[static_cast<std::size_t>(to) + 1] -= bytes;
  };
  for (int i = 0; i <= last; ++i) {
    const Node& node = g.node(steps[static_cast<std::size_t>(i)].second);
    for (ChannelId cid : node.outputs) {  // each channel once, from its producer's side...
      const int d = step_of(g.channel(cid).dst);
      const bool held = s.channels[static_cast<std::size_t>(cid)].initial_items > 0;
      if (d < 0) {
        live(held ? 0 : i, last, cid);
      } else {
        live(held ? 0 : i, held ? last : d, cid);
      }
    }
    for (ChannelId cid : node.inputs) {  // ...or from its consumer's when the producer is outside
      if (step_of(g.channel(cid).src) >= 0) continue;
      const bool held = s.channels[static_cast<std::size_t>(cid)].initial_items > 0;
      live(0, held ? last : i, cid);
    }
  }
  std::int64_t cur = 0;
  std::int64_t peak = 0;
  for (int i = 0; i <= last; ++i) {
    cur += delta[static_cast<std::size_t>(i)];
    peak = std::max(peak, cur);
  }
  return static_cast<std::uint64_t>(peak);
}

}  // namespace harness::streamgraph
