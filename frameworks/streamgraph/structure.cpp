#include "frameworks/streamgraph/structure.h"

#include "harness/core/errors.h"

namespace harness::streamgraph {

Splitter duplicate() { return Splitter{SplitKind::duplicate, {}}; }
Splitter round_robin(std::vector<int> weights) {
  return Splitter{SplitKind::round_robin, std::move(weights)};
}
Joiner join_round_robin(std::vector<int> weights) { return Joiner{std::move(weights)}; }

Stream filter(FilterSpec spec) {
  Stream s;
  s.kind = Stream::Kind::filter;
  s.name = spec.name;
  s.filter = std::move(spec);
  return s;
}

Stream pipeline(std::vector<Stream> stages) {
  Stream s;
  s.kind = Stream::Kind::pipeline;
  s.children = std::move(stages);
  return s;
}

Stream split_join(Splitter sp, std::vector<Stream> branches, Joiner j, std::string name) {
  Stream s;
  s.kind = Stream::Kind::split_join;
  s.splitter = std::move(sp);
  s.children = std::move(branches);
  s.joiner = std::move(j);
  s.name = std::move(name);
  return s;
}

namespace {

// Where a flattened stream is entered and left: (node, port), node -1 when
// the stream has no input (it starts with a source) or no output (a sink).
struct Ends {
  NodeId in_node = -1;
  int in_port = 0;
  NodeId out_node = -1;
  int out_port = 0;
};

std::vector<int> expand_weights(const std::vector<int>& w, std::size_t branches,
                                const std::string& what) {
  if (w.size() == 1) return std::vector<int>(branches, w[0]);
  if (w.size() != branches) {
    throw UsageError("stream graph: " + what + " has " + std::to_string(w.size()) +
                     " weights for " + std::to_string(branches) + " branches");
  }
  return w;
}

Ends flatten(const Stream& s, Graph& g) {
  switch (s.kind) {
    case Stream::Kind::filter: {
      const bool has_in = s.filter.pop > 0 || s.filter.peek > 0;
      const bool has_out = s.filter.push > 0;
      const NodeId v = g.add_filter(s.filter);
      return Ends{has_in ? v : -1, 0, has_out ? v : -1, 0};
    }
    case Stream::Kind::pipeline: {
      if (s.children.empty()) throw UsageError("stream graph: empty pipeline");
      Ends first = flatten(s.children[0], g);
      Ends all = first;
      for (std::size_t i = 1; i < s.children.size(); ++i) {
        Ends next = flatten(s.children[i], g);
        if (all.out_node < 0 || next.in_node < 0) {
          throw UsageError("stream graph: pipeline stage " + std::to_string(i) +
                           (all.out_node < 0 ? " follows a stage with no output"
                                             : " has no input (a source inside a pipeline)"));
        }
        g.connect(all.out_node, all.out_port, next.in_node, next.in_port);
        all.out_node = next.out_node;
        all.out_port = next.out_port;
      }
      return all;
    }
    case Stream::Kind::split_join: {
      if (s.children.empty()) throw UsageError("stream graph: split-join with no branch");
      const std::size_t k = s.children.size();
      const std::string base = s.name.empty() ? "sj" : s.name;
      const NodeId split =
          s.splitter.kind == SplitKind::duplicate
              ? g.add_duplicate_splitter(static_cast<int>(k), base + ".split")
              : g.add_round_robin_splitter(
                    expand_weights(s.splitter.weights, k, "splitter of '" + base + "'"),
                    base + ".split");
      std::vector<Ends> branch_ends;
      for (const Stream& b : s.children) branch_ends.push_back(flatten(b, g));
      const NodeId join = g.add_round_robin_joiner(
          expand_weights(s.joiner.weights, k, "joiner of '" + base + "'"), base + ".join");
      for (std::size_t i = 0; i < k; ++i) {
        const Ends& e = branch_ends[i];
        if (e.in_node < 0 || e.out_node < 0) {
          throw UsageError("stream graph: branch " + std::to_string(i) + " of '" + base +
                           "' must both consume and produce");
        }
        g.connect(split, static_cast<int>(i), e.in_node, e.in_port);
        g.connect(e.out_node, e.out_port, join, static_cast<int>(i));
      }
      return Ends{split, 0, join, 0};
    }
  }
  return {};
}

}  // namespace

Graph build_graph(const Stream& top, ItemType item_type) {
  Graph g(item_type);
  flatten(top, g);
  g.validate();
  return g;
}

}  // namespace harness::streamgraph
