// Where hashagg's copy_out lands on the host, shared by the byte path
// (hashagg_runtime.cpp) and the records path (hashagg_records.cpp). A runtime
// keeps one from run to run, as it keeps its device buffers: a fresh vector's
// first touch costs a page fault per 4 KiB (after the runner's malloc_trim),
// host time that was most of copy_out on PoCL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frameworks/apps/mapreduce_app.h"
#include "harness/dialect/dialect.h"
// GhtEntry: the global table's entry layout, shared with the kernels.
#include "frameworks/atomicmr/kernels/global_hash_table_types.clh"

namespace harness::hashagg {

struct HostOutput {
  std::vector<GhtEntry> entries;  // the global table's entries
  std::vector<char> keys;         // their key bytes (or the pairs' keys, map-only)
  std::vector<char> vals;         // reduce's outputs per entry, or the pairs' values
  std::vector<std::uint32_t> counts, key_refs, key_lens;
  // Empties every vector (their memory stays for the next run).
  void clear();
};

// Appends to `out` one (key, reduce output) per table entry [0, entries) whose
// reduce emitted, and returns how many. RunError naming `who` and the app when
// a reduce emitted more than one output (hashagg keeps one per key).
std::uint64_t append_reduced(const HostOutput& h, std::uint32_t entries, std::uint32_t out_size,
                             const std::string& who, const std::string& app,
                             apps::KeyValueList& out);

}  // namespace harness::hashagg
