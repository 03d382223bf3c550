// The thesis' SePo hash table (chapter 6): a GPU hash table of chained
// entries in pages of a heap, which grows past GPU memory by postponing the
// inserts it has no page for, copying the heap to host memory and running
// again over the postponed records (README.md says what is done and next).
#pragma once

#include <cstdint>
#include <functional>
#include <span>

namespace harness::hashtable {

// Registers hashtable/combining.
void register_family();

// Byte layout shared with kernels/sepo_table.clh.
inline constexpr std::uint32_t kPageHeaderBytes = 8;
inline constexpr std::uint32_t kEntryHeaderBytes = 16;

// One entry as the host sees it through its CPU pointers.
struct HostEntry {
  const std::uint32_t* key;  // ceil(key_bytes / 4) words
  std::uint32_t key_bytes;
  const std::uint32_t* value;  // ceil(value_bytes / 4) words
  std::uint32_t value_bytes;
};

// Walks every bucket's chain from its CPU head through the entries' CPU next
// pointers (host arena addresses), calling `visit` for each entry; returns the
// entries visited.
std::uint64_t walk_host_table(std::span<const std::uint64_t> cpu_heads,
                              const std::function<void(const HostEntry&)>& visit);

}  // namespace harness::hashtable
