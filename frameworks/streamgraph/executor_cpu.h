// The uniprocessor baseline: one host thread runs the whole graph, the
// initialization firings once, then steady-state executions along the
// schedule's order, every channel a FIFO in host memory. Work functions are
// the filters' host bindings (dialect functions compiled as C++, or the
// stateful filters' callables), so sinks validate as the graph runs.
#pragma once

#include <cstdint>

#include "frameworks/streamgraph/graph.h"
#include "frameworks/streamgraph/schedule.h"

namespace harness::streamgraph {

struct CpuRunResult {
  std::int64_t iterations = 0;
  std::uint64_t firings = 0;  // all operator firings, initialization included
  double seconds = 0;         // wall time of the whole run
};

// Runs `iterations` steady-state executions. Throws harness::RunError if an
// operator finds fewer items than it needs (a schedule that does not match
// the graph).
CpuRunResult run_sequential(const Graph& g, const Schedule& s, std::int64_t iterations);

}  // namespace harness::streamgraph
