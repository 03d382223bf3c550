// Table 1's characterization of a graph: its size and the shared memory one
// steady-state execution of the whole graph needs.
#pragma once

#include <cstdint>

#include "frameworks/streamgraph/graph.h"
#include "frameworks/streamgraph/schedule.h"

namespace harness::streamgraph {

struct GraphStats {
  int filters = 0;  // filters only
  int splitters = 0;
  int joiners = 0;
  int operators = 0;  // filters + splitters + joiners (StreamIt's schedule operators)
  int channels = 0;
  int stateful_filters = 0;
  std::int64_t firings_per_execution = 0;  // sum of the repetition vector
  // Channel buffers live at once along the firing order in one steady-state
  // execution (schedule.h, peak_live_bytes): the shared memory it needs.
  std::uint64_t shared_memory_bytes = 0;
  std::uint64_t total_buffer_bytes = 0;  // every channel's buffer, none reused
};

GraphStats graph_stats(const Graph& g, const Schedule& s);

}  // namespace harness::streamgraph
