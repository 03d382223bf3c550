// A flat stream graph: operators (filters, splitters, joiners) connected by
// channels, each channel from one output port to one input port. Pipelines
// and split-joins (structure.h) flatten into this; the low-level calls here
// also let a test build graphs that no StreamIt structure can express (a
// cycle, a dangling port), which validate() rejects.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frameworks/streamgraph/filter.h"

namespace harness::streamgraph {

using NodeId = int;
using ChannelId = int;

enum class NodeKind { filter, splitter, joiner };
enum class SplitKind { duplicate, round_robin };

struct Node {
  NodeKind kind = NodeKind::filter;
  std::string name;
  FilterSpec filter;                         // kind == filter
  SplitKind split = SplitKind::round_robin;  // kind == splitter
  std::vector<int> weights;        // splitter/joiner: items per port per firing (1s for duplicate)
  std::vector<ChannelId> inputs;   // by input port; -1 until connected
  std::vector<ChannelId> outputs;  // by output port; -1 until connected

  bool stateful() const { return kind == NodeKind::filter && filter.stateful; }
};

struct Channel {
  NodeId src = -1;
  int src_port = 0;
  NodeId dst = -1;
  int dst_port = 0;
};

class Graph {
 public:
  explicit Graph(ItemType item_type) : item_type_(item_type) {}

  // A filter has one input port when it pops or peeks, one output port when it pushes.
  NodeId add_filter(FilterSpec spec);
  // Duplicate: `branches` outputs, each receiving every item. Round-robin: one
  // output per weight, weight items to each in turn.
  NodeId add_duplicate_splitter(int branches, std::string name = "");
  NodeId add_round_robin_splitter(std::vector<int> weights, std::string name = "");
  NodeId add_round_robin_joiner(std::vector<int> weights, std::string name = "");
  ChannelId connect(NodeId from, int out_port, NodeId to, int in_port);

  // Throws harness::UsageError naming the cause: an empty graph, a port left
  // unconnected, a cycle, a graph in several pieces, a filter with impossible
  // rates. Rate consistency (the SDF balance equations) is checked by
  // make_schedule().
  void validate() const;

  ItemType item_type() const { return item_type_; }
  int node_count() const { return static_cast<int>(nodes_.size()); }
  int channel_count() const { return static_cast<int>(channels_.size()); }
  const Node& node(NodeId id) const { return nodes_.at(static_cast<std::size_t>(id)); }
  Node& node(NodeId id) { return nodes_.at(static_cast<std::size_t>(id)); }
  const Channel& channel(ChannelId id) const { return channels_.at(static_cast<std::size_t>(id)); }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Channel>& channels() const { return channels_; }

  // Items per firing on a port.
  int pop_rate(NodeId id, int in_port) const;
  int peek_rate(NodeId id, int in_port) const;
  int push_rate(NodeId id, int out_port) const;

  // Nodes in a topological order; among ready nodes the lowest id first, so a
  // flattened split-join runs branch by branch. Throws UsageError on a cycle.
  std::vector<NodeId> topological_order() const;

  // The first node named `name` (tests use it to tamper with a filter); -1 if none.
  NodeId find(const std::string& name) const;

 private:
  NodeId add_node(Node n, std::size_t inputs, std::size_t outputs);

  ItemType item_type_;
  std::vector<Node> nodes_;
  std::vector<Channel> channels_;
};

}  // namespace harness::streamgraph
