// Where hashagg's copy_out lands on the host, shared by the byte path
// (hashagg_runtime.cpp) and the records path (hashagg_records.cpp): arrays of
// pinned host memory (copies back at the pinned rate), which a runtime keeps
// from run to run, as it keeps its device buffers (a fresh array's first
// touch costs a page fault per 4 KiB, host time that was most of copy_out on
// PoCL; pinning costs more still).
#pragma once

#include <cstdint>
#include <string>

#include "frameworks/blocks/pinned_array.h"
#include "frameworks/mapreduce/apps/mapreduce_app.h"
#include "harness/dialect/dialect.h"
// GhtEntry: the global table's entry layout, shared with the kernels.
#include "frameworks/blocks/kernels/global_hash_table_types.clh"

namespace harness::hashagg {

struct HostOutput {
  explicit HostOutput(backend::Device& device)
      : entries(device),
        keys(device),
        vals(device),
        counts(device),
        key_refs(device),
        key_lens(device) {}
  blocks::PinnedArray<GhtEntry> entries;  // the global table's entries
  blocks::PinnedArray<char> keys;         // their key bytes (or the pairs' keys, map-only)
  blocks::PinnedArray<char> vals;         // reduce's outputs per entry, or the pairs' values
  blocks::PinnedArray<std::uint32_t> counts, key_refs, key_lens;
  // Empties every array (their memory stays for the next run).
  void clear();
  // The ceiling copy_out's rate is held against: d2h_pinned when every array
  // holding data is pinned, else d2h_pageable.
  std::string d2h_ceiling() const;
};

// Appends to `out` one (key, reduce output) per table entry [0, entries) whose
// reduce emitted, and returns how many. RunError naming `who` and the app when
// a reduce emitted more than one output (hashagg keeps one per key).
std::uint64_t append_reduced(const HostOutput& h, std::uint32_t entries, std::uint32_t out_size,
                             const std::string& who, const std::string& app,
                             apps::KeyValueList& out);

}  // namespace harness::hashagg
