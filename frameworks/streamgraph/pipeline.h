// The pipelined executors (section 6.2, level 1): the graph's operators are
// grouped into units (partitions), each run by one host thread (a stage);
// a stage may run several units one after another (a GPU's partitions, time
// multiplexed). Steady-state executions go through the pipeline in blocks of
// `batch` executions: per block, a stage takes from each channel that enters
// it the items its upstream stage produced for that block, runs its units,
// and hands on the items of each channel that leaves it. Channels between
// stages are bounded FIFOs of blocks in host memory (a producer blocks when
// `queue_blocks` blocks wait), so stages run concurrently on consecutive
// blocks. Channels inside a stage are host FIFOs of that thread.
//
// The initialization firings (schedule.h) run first, on the host, in every
// stage (a device unit's operators fire through their host bindings then),
// so channels that peek hold their initial items before the first block.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "frameworks/streamgraph/graph.h"
#include "frameworks/streamgraph/schedule.h"

namespace harness::streamgraph {

// The FIFOs of the thread running a unit, as 32-bit items (device code moves bytes).
class ChannelAccess {
 public:
  virtual ~ChannelAccess() = default;
  virtual std::size_t size(ChannelId c) = 0;  // items waiting
  virtual const void* front(ChannelId c) = 0;
  virtual void consume(ChannelId c, std::size_t items) = 0;
  virtual void append(ChannelId c, const void* items, std::size_t count) = 0;
  // A channel between stages may carry, beside its host items, one opaque
  // attachment per block (device-resident items: peer-to-peer channels).
  // The producing unit attaches it, the pipeline hands it on with the block,
  // the consuming unit takes it (null when the block came without one).
  virtual void attach(ChannelId c, std::shared_ptr<void> attachment);
  virtual std::shared_ptr<void> take_attachment(ChannelId c);
};

struct PipelineUnit {
  std::vector<NodeId> nodes;  // any order; fired along the schedule's order
  int stage = 0;              // the host thread that runs it
  // Runs `executions` steady-state executions of the unit: takes its input
  // channels' items from `io` and appends its outputs. Empty: the unit's
  // operators fire on the host (their host bindings).
  std::function<void(ChannelAccess& io, std::int64_t executions)> device_run;
};

struct PipelinePlan {
  std::vector<PipelineUnit> units;  // cover the graph; their graph must be acyclic
  // Optional, per stage: run first on the stage's thread (a GPU stage makes
  // its device current there).
  std::vector<std::function<void()>> stage_setup;
};

struct PipelineOptions {
  std::int64_t iterations = 1;   // steady-state executions
  std::int64_t batch = 256;      // executions per block
  std::size_t queue_blocks = 4;  // blocks a channel between stages holds
};

struct PipelineResult {
  std::int64_t iterations = 0;
  std::int64_t blocks = 0;
  int stages = 0;
  std::uint64_t host_firings = 0;  // operator firings on the host (initialization included)
  double seconds = 0;
  // Per stage: seconds its thread waited on the channels between stages
  // (an empty input or a full output), the rest of `seconds` it worked.
  std::vector<double> stage_blocked_seconds;
};

// Throws harness::UsageError for a plan that does not cover the graph once or
// whose units feed each other in a cycle; rethrows the first error a stage hit
// (the other stages are stopped).
PipelineResult run_pipeline(const Graph& g, const Schedule& s, const PipelinePlan& plan,
                            const PipelineOptions& options);

// The multi-threaded CPU executor's plan: `threads` units (fewer for small
// graphs), each a contiguous range of the schedule's firing order (hence
// convex, and the units form a chain), balanced by the work of one execution
// (firings x operations per firing), each on its own thread.
PipelinePlan cpu_thread_plan(const Graph& g, const Schedule& s, int threads);

}  // namespace harness::streamgraph
