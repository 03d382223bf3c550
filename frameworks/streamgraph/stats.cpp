#include "frameworks/streamgraph/stats.h"

namespace harness::streamgraph {

GraphStats graph_stats(const Graph& g, const Schedule& s) {
  GraphStats st;
  for (const Node& n : g.nodes()) {
    switch (n.kind) {
      case NodeKind::filter:
        ++st.filters;
        if (n.filter.stateful) ++st.stateful_filters;
        break;
      case NodeKind::splitter:
        ++st.splitters;
        break;
      case NodeKind::joiner:
        ++st.joiners;
        break;
    }
  }
  st.operators = g.node_count();
  st.channels = g.channel_count();
  for (std::int64_t r : s.repetitions) st.firings_per_execution += r;
  st.shared_memory_bytes = s.peak_live_bytes;
  st.total_buffer_bytes = s.total_buffer_bytes;
  return st;
}

}  // namespace harness::streamgraph
