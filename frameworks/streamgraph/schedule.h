// The steady-state schedule of a stream graph (synchronous data flow):
// the repetition vector (how often each operator fires in one steady-state
// execution so every channel ends where it began), the initialization
// firings that fill peeking channels, a sequential firing order, and per
// channel the buffer one execution needs.
#pragma once

#include <cstdint>
#include <vector>

#include "frameworks/streamgraph/graph.h"

namespace harness::streamgraph {

struct ChannelBuffer {
  std::int64_t steady_items = 0;    // produced (= consumed) per steady-state execution
  std::int64_t initial_items = 0;   // left by the initialization firings (>= peek - pop)
  std::int64_t capacity_items = 0;  // initial + steady: the most the channel ever holds
  std::uint64_t capacity_bytes = 0;
};

struct Schedule {
  std::vector<std::int64_t> repetitions;   // per node: firings per steady-state execution
  std::vector<std::int64_t> init_firings;  // per node: firings once, before the first execution
  // A valid sequential order: node order[i] fires repetitions[order[i]] times
  // in a row (a single-appearance schedule in topological order).
  std::vector<NodeId> order;
  std::vector<int> position;  // per node: its index in `order`
  std::vector<ChannelBuffer> channels;
  std::uint64_t total_buffer_bytes = 0;  // all channel buffers together
  std::uint64_t peak_live_bytes = 0;     // most channel bytes live at once along `order`
};

// Throws harness::UsageError when the graph is invalid (Graph::validate) or
// its rates admit no steady state (naming the channel whose balance fails).
Schedule make_schedule(const Graph& g);

// Channel bytes live at once while the nodes of `subset` (any order) fire
// along the schedule's order, as one unit: a channel from a node outside the
// subset is live from the start until its consumer fires, one to a node
// outside from its producer until the end, an internal one between the two,
// and one holding initial items throughout. The peak over the unit's steps
// is what one execution of the unit needs (no fragmentation counted).
std::uint64_t peak_live_bytes(const Graph& g, const Schedule& s, const std::vector<NodeId>& subset);

}  // namespace harness::streamgraph
