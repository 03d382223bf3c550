// The stateful ends of every benchmark. The source pushes item k of a
// deterministic stream (a counter-based hash of seed and k, so a reference
// can recompute any input item without running the graph). The sink pops one
// item per firing and keeps it; when its report is read, every block of the
// items kept is compared with the block its reference returns, asked for
// blocks 0, 1, 2, ... in order.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/filter.h"

namespace harness::streamgraph {

// Input item k of stream `seed`: uniform in [-1, 1) or a uniform 32-bit word.
float input_f32(std::uint64_t seed, std::uint64_t k);
std::uint32_t input_u32(std::uint64_t seed, std::uint64_t k);

// Pushes one item per firing: input_f32/input_u32(seed, 0), (seed, 1), ...
FilterSpec source_f32(std::uint64_t seed);
FilterSpec source_u32(std::uint64_t seed);

// |got - expected| <= abs + rel * |expected|; both 0 for exact equality.
struct Tolerance {
  double abs = 0;
  double rel = 0;
};

// Pops one item per firing; every block_items items are compared with
// reference(block index) when the report is read. The report is shared with
// the returned filter.
FilterSpec checking_sink_f32(std::size_t block_items,
                             std::function<std::vector<double>(std::uint64_t block)> reference,
                             Tolerance tolerance, std::shared_ptr<SinkReport> report);
FilterSpec checking_sink_u32(
    std::size_t block_items,
    std::function<std::vector<std::uint32_t>(std::uint64_t block)> reference,
    std::shared_ptr<SinkReport> report);

}  // namespace harness::streamgraph
