// Mars (seed S1): a GPU MapReduce runtime with two-pass output (count, prefix
// sum, emit) for map and reduce and grouping by a bitonic sort of the index.
// With Options::reserve it is also AtomicMR (seed S0): no count pass, output
// space reserved with global atomics (frameworks/mapreduce/atomicmr/README.md).
#pragma once

#include "frameworks/mapreduce/common/mapreduce_runtime.h"

namespace harness::mars {

// How map and reduce find where their output goes.
enum class Reserve {
  counted,        // Mars: count pass + prefix sums, no atomics
  atomic_thread,  // AtomicMR: every emit reserves its place with global atomics
  atomic_warp,  // AtomicMR: one atomic per warp and round (APP_MAP_EMITS_ONE apps); reduce per emit
};

struct Options {
  bool hash_keys = true;      // compare 32-bit key hashes first in the sort
  bool coalesced = true;      // thread t takes records t, t+T, ... (else a contiguous chunk)
  bool sort = true;           // false: Mars' noSort, for map-only apps (output unsorted)
  bool vector_loads = false;  // built-in vector loads: keys read a 4-byte word at a time
  bool radix = false;         // group by a radix sort of 64-bit key hashes, not the bitonic sort
  std::uint32_t radix_hash2_mask = 0xffffffffu;  // bits of the second hash kept (tests: 0)
  std::uint32_t groups = 0;  // work-groups for map and reduce; 0 = 16 per compute unit
  std::uint32_t group_size = 128;
  Reserve reserve = Reserve::counted;
  std::uint32_t warp =
      0;  // atomic_warp: lanes per reservation; 0 = the device's warp (32 if unknown)
};

// Mars' knobs declared with mars/default's values (other runtimes that embed
// Mars, such as co-processing, take them too).
ParamDecls params();
// AtomicMR's two knobs beside Mars' ("reserve": counted | atomic_thread |
// atomic_warp; "warp").
ParamDecls atomic_params();
// Options from checked params (check_params against params() and
// atomic_params()); "reserve" and "warp" absent are counted and 0.
Options options_from(const Params& params);
std::unique_ptr<mapreduce::Runtime> make_runtime(backend::Device& device, const Options& options);
void register_variants();

}  // namespace harness::mars
