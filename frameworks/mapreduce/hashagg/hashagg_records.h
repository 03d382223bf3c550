// hashagg's records path: the apps whose input must be split into records on
// the host (every app but word count). How each app runs is its design
// (README "Apps"): a count per key in the global hash table (reduce counts
// its values), or pairs kept per work-group and grouped by a radix sort of
// their keys' table entries (reduce apps, map-only apps whose keys repeat),
// or pairs written out as they are (map-only apps with distinct keys).
#pragma once

#include <memory>
#include <string>

#include "frameworks/mapreduce/hashagg/hashagg_runtime.h"

namespace harness::hashagg {

enum class Design {
  bytes,    // word count's path: the input cut anywhere, u32 sums (hashagg_runtime.cpp)
  add,      // records; each pair adds to its key's u32 sum (APP_REDUCE_COUNTS_VALUES)
  grouped,  // records; pairs keyed by table entry, radix-sorted by entry, then reduce
  pairs,    // records; map-only pairs with their key bytes, no grouping
};

Design design_of(const apps::MapReduceApp& app);
const char* design_name(Design design);

// The runtime of the records designs (add, grouped, pairs).
std::unique_ptr<mapreduce::Runtime> make_records_runtime(backend::Device& device,
                                                         const Options& options);

}  // namespace harness::hashagg
