// hashagg: a modern hash-aggregation MapReduce (not a paper's system; the
// reference point beside them, frameworks/mapreduce/hashagg/README.md). Map combines each
// pair where it lands: a work-group's local table for short keys, else the
// global hash table with atomic adds; reduce sees one value per key. The
// input is streamed in chunks cut where the app allows (no record split)
// over several queues, so copies overlap map (`pipelined`), or copied whole
// first (`resident`, which times the device work apart from the copy).
#pragma once

#include "frameworks/mapreduce/common/mapreduce_runtime.h"

namespace harness::hashagg {

struct Options {
  bool pipelined = true;  // chunks over `lanes` queues; false: one copy, then map
  std::uint32_t chunk_kib =
      65536;                       // pipelined: KiB per chunk (cut forward to where the app allows)
  std::uint32_t lanes = 3;         // pipelined: queues, each copying then mapping its chunks
  std::uint32_t groups = 0;        // map's work-groups; 0 = 6 per compute unit (runs path), else 4
  std::uint32_t group_size = 256;  // power of two, 32..1024
  std::uint32_t segment = 16;      // bytes of input per work-item and tile
  bool local = true;               // pre-aggregate short keys in local memory
  bool runs = true;  // apps whose keys are separator runs: find them data-parallel, not app_map
  // Records path, resident: records longer than this many bytes are listed
  // and mapped in a second pass (a round waits for its longest record); 0: never.
  std::uint32_t long_record = 256;
  std::uint32_t hash_mask = 0xffffffffu;  // global table's hash bits (tests: few, to collide)
};

Options options_from(const Params& params);
// Map's work-groups: options.groups, or `per_unit` per compute unit when it is 0.
std::uint32_t map_groups(const Options& options, const backend::DeviceInfo& info, int per_unit);

// The app's hashagg program (both paths build the same one). Where the runs
// path applies (word count), with a budget of 40 registers a work-item: six
// work-groups of 256 on a compute unit (its occupancy, map_groups) need at
// most 42; nvcc gives the runs map 40, NVIDIA's OpenCL gave it 48 (five
// work-groups) and its map took 25% longer than CUDA's. The other apps take
// none: under 40, k-means' pairs map (54 registers by nvcc) spills, and it
// ran 5.0 ms against 3.2 on NVIDIA OpenCL at 68932cd, where every program
// had the budget.
backend::ProgramSource program_source(const apps::MapReduceApp& app);
ParamDecls params();
std::unique_ptr<mapreduce::Runtime> make_runtime(backend::Device& device, const Options& options);
void register_variants();

}  // namespace harness::hashagg
