// Mars (seed S1): a GPU MapReduce runtime with two-pass output (count, prefix
// sum, emit) for map and reduce and grouping by a bitonic sort of the index.
#pragma once

#include "frameworks/common/mapreduce_runtime.h"

namespace harness::mars {

struct Options {
  bool hash_keys = true;      // compare 32-bit key hashes first in the sort
  bool coalesced = true;      // thread t takes records t, t+T, ... (else a contiguous chunk)
  bool sort = true;           // false: Mars' noSort, for map-only apps (output unsorted)
  bool vector_loads = false;  // built-in vector loads: keys read a 4-byte word at a time
  bool radix = false;         // group by a radix sort of 64-bit key hashes, not the bitonic sort
  std::uint32_t radix_hash2_mask = 0xffffffffu;  // bits of the second hash kept (tests: 0)
  std::uint32_t groups = 0;  // work-groups for map and reduce; 0 = 16 per compute unit
  std::uint32_t group_size = 128;
};

// Mars' knobs with mars/default's values (other runtimes that embed Mars,
// such as co-processing, take them too).
Params default_params();
Options options_from(const Params& params);
std::unique_ptr<mapreduce::Runtime> make_runtime(backend::Device& device, const Options& options);
void register_variants();

}  // namespace harness::mars
