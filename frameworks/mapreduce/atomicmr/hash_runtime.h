// atomicmr/hash: MapCG-style MapReduce (seed S0 ref [5]): map inserts every
// pair into a global hash table built with atomics (global_hash_table.h), so
// grouping needs no sort; reduce runs per distinct key over its value list
// and reserves its output with global atomics.
#pragma once

#include "frameworks/mapreduce/common/mapreduce_runtime.h"

namespace harness::atomicmr {

struct HashOptions {
  std::uint32_t groups = 0;  // work-groups for map and reduce; 0 = 16 per compute unit
  std::uint32_t group_size = 128;
  bool coalesced = true;                  // thread t takes records t, t+T, ...
  std::uint32_t hash_mask = 0xffffffffu;  // hash bits kept (tests: few, so keys collide)
  std::uint32_t slots = 0;                // the table's first size; 0 = from the input
  bool grow = true;                       // a full table grows and map runs again; else RunError
};

ParamDecls hash_params();
HashOptions hash_options_from(const Params& params);
std::unique_ptr<mapreduce::Runtime> make_hash_runtime(backend::Device& device,
                                                      const HashOptions& options);

}  // namespace harness::atomicmr
