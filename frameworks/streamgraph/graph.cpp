#include "frameworks/streamgraph/graph.h"

#include <algorithm>
#include <queue>

#include "harness/core/errors.h"

namespace harness::streamgraph {

const char* item_type_name(ItemType t) { return t == ItemType::f32 ? "f32" : "u32"; }

namespace {

std::string describe(const Graph& g, NodeId id) {
  return "'" + g.node(id).name + "' (node " + std::to_string(id) + ")";
}

}  // namespace

NodeId Graph::add_node(Node n, std::size_t inputs, std::size_t outputs) {
  n.inputs.assign(inputs, -1);
  n.outputs.assign(outputs, -1);
  nodes_.push_back(std::move(n));
  return static_cast<NodeId>(nodes_.size() - 1);
}

NodeId Graph::add_filter(FilterSpec spec) {
  if (spec.pop < 0 || spec.push < 0 || spec.peek < spec.pop) {
    throw UsageError("stream graph: filter '" + spec.name + "' has rates pop " +
                     std::to_string(spec.pop) + ", peek " + std::to_string(spec.peek) + ", push " +
                     std::to_string(spec.push) + " (need 0 <= pop <= peek, push >= 0)");
  }
  if (spec.pop == 0 && spec.peek == 0 && spec.push == 0) {
    throw UsageError("stream graph: filter '" + spec.name + "' neither consumes nor produces");
  }
  const bool f32_work = static_cast<bool>(spec.work.f32);
  const bool u32_work = static_cast<bool>(spec.work.u32);
  if (f32_work == u32_work) {
    throw UsageError("stream graph: filter '" + spec.name +
                     "' needs exactly one host work function");
  }
  if ((item_type_ == ItemType::f32) != f32_work) {
    throw UsageError("stream graph: filter '" + spec.name + "' works on " +
                     (f32_work ? "f32" : "u32") + " items, the graph carries " +
                     item_type_name(item_type_));
  }
  if (!spec.stateful && !spec.kernel) {
    throw UsageError("stream graph: stateless filter '" + spec.name +
                     "' has no dialect work function (kernel)");
  }
  Node n;
  n.kind = NodeKind::filter;
  n.name = spec.name;
  const std::size_t ins = (spec.pop > 0 || spec.peek > 0) ? 1 : 0;
  const std::size_t outs = spec.push > 0 ? 1 : 0;
  n.filter = std::move(spec);
  return add_node(std::move(n), ins, outs);
}

NodeId Graph::add_duplicate_splitter(int branches, std::string name) {
  if (branches < 1) throw UsageError("stream graph: a duplicate splitter needs a branch");
  Node n;
  n.kind = NodeKind::splitter;
  n.split = SplitKind::duplicate;
  n.weights.assign(static_cast<std::size_t>(branches), 1);
  n.name = name.empty() ? "duplicate" : std::move(name);
  return add_node(std::move(n), 1, static_cast<std::size_t>(branches));
}

NodeId Graph::add_round_robin_splitter(std::vector<int> weights, std::string name) {
  if (weights.empty() || std::any_of(weights.begin(), weights.end(), [](int w) { return w < 1; })) {
    throw UsageError("stream graph: a round-robin splitter needs weights >= 1");
  }
  Node n;
  n.kind = NodeKind::splitter;
  n.split = SplitKind::round_robin;
  const std::size_t outs = weights.size();
  n.weights = std::move(weights);
  n.name = name.empty() ? "split_rr" : std::move(name);
  return add_node(std::move(n), 1, outs);
}

NodeId Graph::add_round_robin_joiner(std::vector<int> weights, std::string name) {
  if (weights.empty() || std::any_of(weights.begin(), weights.end(), [](int w) { return w < 1; })) {
    throw UsageError("stream graph: a round-robin joiner needs weights >= 1");
  }
  Node n;
  n.kind = NodeKind::joiner;
  const std::size_t ins = weights.size();
  n.weights = std::move(weights);
  n.name = name.empty() ? "join_rr" : std::move(name);
  return add_node(std::move(n), ins, 1);
}

ChannelId Graph::connect(NodeId from, int out_port, NodeId to, int in_port) {
  if (from < 0 || from >= node_count() || to < 0 || to >= node_count()) {
    throw UsageError("stream graph: connect() names a node that does not exist");
  }
  Node& a = node(from);
  Node& b = node(to);
  if (out_port < 0 || out_port >= static_cast<int>(a.outputs.size())) {
    throw UsageError("stream graph: " + describe(*this, from) + " has no output port " +
                     std::to_string(out_port));
  }
  if (in_port < 0 || in_port >= static_cast<int>(b.inputs.size())) {
    throw UsageError("stream graph: " + describe(*this, to) + " has no input port " +
                     std::to_string(in_port));
  }
  auto& out_slot = a.outputs[static_cast<std::size_t>(out_port)];
  auto& in_slot = b.inputs[static_cast<std::size_t>(in_port)];
  if (out_slot != -1 || in_slot != -1) {
    throw UsageError("stream graph: port already connected (" + describe(*this, from) + " -> " +
                     describe(*this, to) + ")");
  }
  channels_.push_back(Channel{from, out_port, to, in_port});
  const auto id = static_cast<ChannelId>(channels_.size() - 1);
  out_slot = id;
  in_slot = id;
  return id;
}

int Graph::pop_rate(NodeId id, int in_port) const {
  const Node& n = node(id);
  switch (n.kind) {
    case NodeKind::filter:
      return n.filter.pop;
    case NodeKind::splitter:  // one item per firing for duplicate, the weights' sum for round-robin
      if (n.split == SplitKind::duplicate) return 1;
      {
        int sum = 0;
        for (int w : n.weights) sum += w;
        return sum;
      }
    case NodeKind::joiner:
      return n.weights[static_cast<std::size_t>(in_port)];
  }
  return 0;
}

int Graph::peek_rate(NodeId id, int in_port) const {
  const Node& n = node(id);
  return n.kind == NodeKind::filter ? n.filter.peek : pop_rate(id, in_port);
}

int Graph::push_rate(NodeId id, int out_port) const {
  const Node& n = node(id);
  switch (n.kind) {
    case NodeKind::filter:
      return n.filter.push;
    case NodeKind::splitter:
      return n.weights[static_cast<std::size_t>(out_port)];
    case NodeKind::joiner: {
      int sum = 0;
      for (int w : n.weights) sum += w;
      return sum;
    }
  }
  return 0;
}

std::vector<NodeId> Graph::topological_order() const {
  std::vector<int> pending(nodes_.size(), 0);
  for (const Channel& c : channels_) ++pending[static_cast<std::size_t>(c.dst)];
  std::priority_queue<NodeId, std::vector<NodeId>, std::greater<>> ready;
  for (NodeId v = 0; v < node_count(); ++v) {
    if (pending[static_cast<std::size_t>(v)] == 0) ready.push(v);
  }
  std::vector<NodeId> order;
  order.reserve(nodes_.size());
  while (!ready.empty()) {
    const NodeId v = ready.top();
    ready.pop();
    order.push_back(v);
    for (ChannelId c : node(v).outputs) {
      if (c < 0) continue;
      const NodeId w = channel(c).dst;
      if (--pending[static_cast<std::size_t>(w)] == 0) ready.push(w);
    }
  }
  if (order.size() != nodes_.size()) {
    // Name one node on a cycle: walk back along unfinished inputs until a node repeats.
    NodeId v = 0;
    while (pending[static_cast<std::size_t>(v)] == 0) ++v;
    std::vector<int> seen(nodes_.size(), -1);
    std::vector<NodeId> walk;
    while (seen[static_cast<std::size_t>(v)] < 0) {
      seen[static_cast<std::size_t>(v)] = static_cast<int>(walk.size());
      walk.push_back(v);
      for (ChannelId c : node(v).inputs) {
        if (c >= 0 && pending[static_cast<std::size_t>(channel(c).src)] > 0) {
          v = channel(c).src;
          break;
        }
      }
    }
    // walk is v, then each node's producer: the cycle is v -> walk[end] -> ... -> walk[k+1] -> v.
    const auto k = static_cast<std::size_t>(seen[static_cast<std::size_t>(v)]);
    std::string path = "'" + node(v).name + "'";
    for (std::size_t i = walk.size() - 1; i > k; --i) path += " -> '" + node(walk[i]).name + "'";
    path += " -> '" + node(v).name + "'";
    throw UsageError("stream graph has a cycle (" + path +
                     "); only acyclic graphs are supported (no feedback loops)");
  }
  return order;
}

NodeId Graph::find(const std::string& name) const {
  for (NodeId v = 0; v < node_count(); ++v) {
    if (nodes_[static_cast<std::size_t>(v)].name == name) return v;
  }
  return -1;
}

void Graph::validate() const {
  if (nodes_.empty()) throw UsageError("stream graph is empty");
  for (NodeId v = 0; v < node_count(); ++v) {
    const Node& n = node(v);
    for (std::size_t p = 0; p < n.inputs.size(); ++p) {
      if (n.inputs[p] < 0) {
        throw UsageError("stream graph: input port " + std::to_string(p) + " of " +
                         describe(*this, v) + " is not connected");
      }
    }
    for (std::size_t p = 0; p < n.outputs.size(); ++p) {
      if (n.outputs[p] < 0) {
        throw UsageError("stream graph: output port " + std::to_string(p) + " of " +
                         describe(*this, v) + " is not connected");
      }
    }
  }
  topological_order();  // throws on a cycle
  // One piece: every node reachable from node 0 ignoring directions.
  std::vector<char> seen(nodes_.size(), 0);
  std::vector<NodeId> stack = {0};
  seen[0] = 1;
  while (!stack.empty()) {
    const NodeId v = stack.back();
    stack.pop_back();
    auto visit = [&](NodeId w) {
      if (!seen[static_cast<std::size_t>(w)]) {
        seen[static_cast<std::size_t>(w)] = 1;
        stack.push_back(w);
      }
    };
    for (ChannelId c : node(v).inputs) visit(channel(c).src);
    for (ChannelId c : node(v).outputs) visit(channel(c).dst);
  }
  for (NodeId v = 0; v < node_count(); ++v) {
    if (!seen[static_cast<std::size_t>(v)]) {
      throw UsageError("stream graph is not connected: " + describe(*this, v) +
                       " is not linked to '" + node(0).name + "'");
    }
  }
}

}  // namespace harness::streamgraph
