// StreamIt's hierarchical streams: a filter, a pipeline of streams, or a
// split-join (a splitter, parallel branches, a joiner). build_graph()
// flattens a stream into a Graph, numbering nodes in program order (a
// split-join's splitter, then each branch in turn, then its joiner).
#pragma once

#include <vector>

#include "frameworks/streamgraph/graph.h"

namespace harness::streamgraph {

struct Splitter {
  SplitKind kind = SplitKind::round_robin;
  std::vector<int> weights;  // round-robin: one per branch (a single value applies to every branch)
};
struct Joiner {
  std::vector<int> weights;  // one per branch (a single value applies to every branch)
};

Splitter duplicate();
Splitter round_robin(std::vector<int> weights);
Joiner join_round_robin(std::vector<int> weights);

struct Stream {
  enum class Kind { filter, pipeline, split_join };
  Kind kind = Kind::pipeline;
  FilterSpec filter;             // kind == filter
  std::vector<Stream> children;  // pipeline stages, or split-join branches
  Splitter splitter;             // kind == split_join
  Joiner joiner;
  std::string name;  // names the split-join's splitter and joiner
};

Stream filter(FilterSpec spec);
Stream pipeline(std::vector<Stream> stages);
Stream split_join(Splitter s, std::vector<Stream> branches, Joiner j, std::string name = "");

// Flattens `top` (normally source -> ... -> sink) and validates the result.
// Throws harness::UsageError for an empty stream, an empty pipeline or
// split-join, weights that do not match the branch count, and whatever
// Graph::validate() rejects.
Graph build_graph(const Stream& top, ItemType item_type);

}  // namespace harness::streamgraph
