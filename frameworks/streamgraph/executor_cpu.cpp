#include "frameworks/streamgraph/executor_cpu.h"

#include <chrono>

#include "frameworks/streamgraph/host_runner.h"

namespace harness::streamgraph {

namespace {

template <class T>
CpuRunResult run_typed(const Graph& g, const Schedule& s, std::int64_t iterations) {
  const auto t0 = std::chrono::steady_clock::now();
  HostRunner<T> runner(g);
  for (NodeId v : s.order) runner.fire(v, s.init_firings[static_cast<std::size_t>(v)]);
  for (std::int64_t it = 0; it < iterations; ++it) {
    for (NodeId v : s.order) runner.fire(v, s.repetitions[static_cast<std::size_t>(v)]);
  }
  CpuRunResult r;
  r.iterations = iterations;
  r.firings = runner.firings();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

CpuRunResult run_sequential(const Graph& g, const Schedule& s, std::int64_t iterations) {
  return g.item_type() == ItemType::f32 ? run_typed<float>(g, s, iterations)
                                        : run_typed<std::uint32_t>(g, s, iterations);
}

}  // namespace harness::streamgraph
