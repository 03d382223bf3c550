// Code generation for GPU partitions (sections 3.2, 6.2 level 3, 6.3).
//
// One kernel per GPU partition runs many steady-state executions of the
// partition: each work-group holds P parallel executions in local (shared)
// memory, each with its working set WS (every channel of the partition, laid
// out by a static allocator) and a double buffer DB. Compute threads (C, the
// first warps) fire the operators level by level (operators of one level
// do not feed each other; a barrier between levels), every firing of every
// parallel execution spread over the C threads, one loop per kind of work in
// a level (LevelLoop). Memory threads (M, the last warps, so C and M never
// share a warp) meanwhile store the previous round's outputs from DB to
// global memory and load the next round's inputs into DB, their work spread
// over the levels. One swap per round moves DB's inputs into WS and WS's
// outputs into DB.
//
// The static allocator (section 6.2) gives each channel a contiguous range,
// reusing the ranges of channels that are dead (liveness by level: a channel
// is live from its producer's level to its consumer's, inputs from the start,
// outputs to the end). Inputs are laid out first, contiguously from 0, in the
// order DB holds them; outputs are recorded in address order and DB holds
// them contiguously in that order from 0, overlapping the inputs. Then output
// item q sits at WS address >= q, so swapping element p (input p into WS[p],
// output p into DB[p]) in increasing chunks, each chunk read completely
// before it is written, never overwrites an element not yet moved (the
// paper's induction).
//
// Parallel executions must be independent, so a partition's internal channel
// may not carry items from one execution to the next (initial items, from a
// filter that peeks beyond what it pops): split_for_codegen cuts there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frameworks/streamgraph/graph.h"
#include "frameworks/streamgraph/schedule.h"

namespace harness::streamgraph {

// What code generation knows of the target: local memory per work-group
// (the SM memory one work-group may use), group size and warp width.
struct CodegenTarget {
  std::uint64_t local_bytes = 48 * 1024;
  int max_group_size = 1024;  // used up to 1024
  int warp_size = 32;
  int max_parallel_executions = 64;  // P's cap
};

struct ChannelSlot {
  ChannelId channel = -1;
  std::int64_t items = 0;               // per execution: the window (initial + steady) for inputs
  std::int64_t steady = 0;              // items per execution
  std::int64_t initial = 0;             // inputs: items the window overlaps the next execution's
  std::int64_t ws_offset = 0;           // in WS, items
  std::int64_t db_offset = -1;          // in DB (inputs and outputs), items
  int first_level = 0, last_level = 0;  // live range
};

struct PartitionLayout {
  std::vector<NodeId> nodes;  // in the schedule's order
  std::vector<int> level;     // per entry of nodes
  int levels = 0;
  std::vector<ChannelSlot> inputs;           // DB order = WS order, from 0
  std::vector<ChannelSlot> outputs;          // in WS address order = DB order
  std::vector<ChannelSlot> internal;         // the others
  std::int64_t in_items = 0, out_items = 0;  // per execution
  std::int64_t ws_items = 0;                 // WS size (largest end), per execution
  std::int64_t db_items = 0;                 // max(in_items, out_items)
  // Work items of the widest level (firings of filters, items moved by
  // splitters and joiners): the threads one execution can use (S).
  std::int64_t threads_per_execution = 1;
  std::int64_t work_items = 0;  // over all levels, one execution
  bool carries_items = false;   // an internal channel keeps items between executions
  std::uint64_t bytes_per_execution() const {
    return static_cast<std::uint64_t>(ws_items + db_items) * 4;
  }
};

// Liveness, levels and the static allocation of one partition's channels.
PartitionLayout layout_partition(const Graph& g, const Schedule& s, std::vector<NodeId> nodes);

// Section 6.3's parameters for one partition on a target.
struct KernelPlan {
  int parallel_executions = 0;  // P; 0 when one execution does not fit
  int compute_threads = 0;      // C, a multiple of the warp size
  int memory_threads = 0;       // M, a multiple of the warp size
  int group_size = 0;           // C + M
  std::uint64_t local_bytes = 0;
};
KernelPlan plan_kernel(const PartitionLayout& layout, const CodegenTarget& target);

// Splits a partition's nodes (in the schedule's order) into consecutive
// pieces, each free of channels that carry items between executions and
// each fitting the target with P >= 1 in its exact layout and within the
// 64 KiB of constant data a kernel may have (filter constants and the loops'
// tables: a partition of many different filters can outgrow it). Consecutive
// pieces of a convex set in a topological order are convex and feed each
// other only forward. Throws harness::UsageError when one operator alone does
// not fit.
// `size_cuts`, when given, counts the cuts made because the layout or the
// constants did not fit (the others are at channels that carry items).
std::vector<std::vector<NodeId>> split_for_codegen(const Graph& g, const Schedule& s,
                                                   std::vector<NodeId> nodes,
                                                   const CodegenTarget& target,
                                                   int* size_cuts = nullptr);

// One loop of a level step: the operators of the level that run the same
// work (kind, work function, rates, firings per execution) are instances of
// one loop over (instance, execution slot, item); what differs between them
// (the WS offsets of their ports, their constants) is read from constant
// tables indexed by the instance. Operators that differ get loops of their own.
struct LevelLoop {
  int level = 0;
  std::vector<NodeId> instances;  // in the schedule's order
};

struct GeneratedKernel {
  std::string kernel_name;
  std::vector<std::string> files;  // embedded files to put before `code`
  std::string code;                // the generated part
  PartitionLayout layout;
  KernelPlan plan;
  std::vector<LevelLoop> loops;  // level by level, in the order of the code
};

// Kernel `kernel_name(GLOBAL const T* in, GLOBAL T* out, u32 executions,
// LOCAL_DYNAMIC_PARAM(T, lm))`, launched with plan.group_size work-items per
// group, any number of groups, and plan.local_bytes of local memory. `in`
// holds, channel after channel (layout.inputs order), the window of
// `executions` executions (executions x steady + initial items); `out` the
// outputs, channel after channel (layout.outputs order), executions x steady
// items each. Throws harness::UsageError when the partition does not fit or
// carries items between executions.
GeneratedKernel generate_kernel(const Graph& g, const Schedule& s, const std::vector<NodeId>& nodes,
                                const CodegenTarget& target, const std::string& kernel_name);

}  // namespace harness::streamgraph
