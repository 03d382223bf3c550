#include "frameworks/mapreduce/hashagg/host_output.h"

#include "harness/core/errors.h"

namespace harness::hashagg {

void HostOutput::clear() {
  entries.clear();
  keys.clear();
  vals.clear();
  counts.clear();
  key_refs.clear();
  key_lens.clear();
}

std::string HostOutput::d2h_ceiling() const {
  const auto pinned = [](const auto& a) {
    return a.empty() || a.kind() == backend::HostMemory::pinned;
  };
  const bool all = pinned(entries) && pinned(keys) && pinned(vals) && pinned(counts) &&
                   pinned(key_refs) && pinned(key_lens);
  return all ? "d2h_pinned" : "d2h_pageable";
}

std::uint64_t append_reduced(const HostOutput& h, std::uint32_t entries, std::uint32_t out_size,
                             const std::string& who, const std::string& app,
                             apps::KeyValueList& out) {
  std::uint64_t emitted = 0;
  for (std::uint32_t e = 0; e < entries; ++e) {
    if (h.counts[e] == 0) continue;
    if (h.counts[e] > 1) {
      throw RunError(who + ": the reduce of '" + app +
                     "' emitted more than one output for a key; hashagg keeps one per key");
    }
    const GhtEntry& en = h.entries[e];
    out.emplace_back(std::string(h.keys.data() + en.key_off, en.key_len),
                     std::string(h.vals.data() + std::size_t{e} * out_size, out_size));
    ++emitted;
  }
  return emitted;
}

}  // namespace harness::hashagg
