// The thesis' SePo hash table (chapter 6): a GPU hash table of chained
// entries in pages of a heap, which grows past GPU memory by postponing the
// inserts it has no page for, copying the heap to host memory and running
// again over the postponed records (README.md says what is done and next).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace harness::hashtable {

// Registers hashtable/basic, hashtable/multi-valued and hashtable/combining
// (the SePo table), and basic-pinned, multi-valued-pinned and
// combining-pinned (its heap in pinned host memory, figure 6.11),
// combining-paging-bound (table 6.3), mapcg (MapCG's global hash table on
// the same apps, table 6.2's baseline: mapcg_point.h) and open-addressing
// (today's open-addressing design, SePo-capable: open_addressing_point.h).
void register_family();

// The thesis' three bucket organizations (section 6.3.2).
enum class Organization { basic, multi_valued, combining };
const char* organization_name(Organization org);

// The apps each organization runs on the GPU heap, one list for every
// registration (and for MapCG's choice of answer, mapcg_point.h): combining
// apps' kernel files define HT_COMBINE; grouping apps (basic and
// multi-valued) make a key's list of values. kv-pairs is both.
const std::vector<std::string>& combining_apps();
const std::vector<std::string>& grouping_apps();

// Where the table's heap (its pages) lives. device: GPU memory, sized from
// the budget, copied to host memory after every SePo iteration. pinned:
// mapped pinned host memory that the kernels write in place, sized for the
// whole table, so one iteration inserts everything and nothing is copied
// (section 6.6.4, figure 6.11); the bucket arrays, locks and page metadata
// stay in GPU memory either way. paging_bound (thesis table 6.3): GPU memory
// sized for the whole table (one iteration, outside the budget, which is the
// SePo point's), the insert traced (HT_TRACE) and the trace replayed against
// LRU paging (paging_bound.h).
enum class Heap { device, pinned, paging_bound };
// The variant's name: "basic", ..., "basic-pinned", ..., "combining-paging-bound".
std::string variant_name(Organization org, Heap heap);

// Byte layout shared with kernels/sepo_table.clh.
inline constexpr std::uint32_t kPageHeaderBytes = 8;
inline constexpr std::uint32_t kEntryHeaderBytes = 16;   // basic, combining
inline constexpr std::uint32_t kMvKeyHeaderBytes = 32;   // multi-valued key entry
inline constexpr std::uint32_t kMvValueHeaderBytes = 8;  // multi-valued value entry

// The bytes an entry of a pair takes in a page (8-byte aligned): basic and
// combining entries hold key and value; multi-valued key and value entries
// are separate (entry_bytes returns the larger).
std::uint32_t entry_bytes(Organization org, std::uint32_t key_bytes, std::uint32_t value_bytes);

// One entry as the host sees it through its CPU pointers. Basic and
// combining entries hold one value (`value`); a multi-valued key entry holds
// `count` values, linked from `values` (a CPU address; for_each_value).
struct HostEntry {
  const std::uint32_t* key;  // ceil(key_bytes / 4) words
  std::uint32_t key_bytes;
  const std::uint32_t* value;  // ceil(value_bytes / 4) words; null for multi-valued
  std::uint32_t value_bytes;
  std::uint64_t values = 0;  // multi-valued: the newest value entry's CPU address
  std::uint32_t count = 1;   // values of the entry
};

// The final table read on the host: every bucket's chain followed from its
// CPU head through the entries' CPU next pointers (host arena addresses).
// The buckets are cut into `workers` contiguous ranges, each walked on its
// own thread, calling visit(worker, chain) with
// the entries of each non-empty bucket's chain, newest first. Every entry of
// a key lies in its bucket's chain (all iterations' arenas), so an app
// combines a key's entries within one call and no key spans two workers.
// Returns the entries visited; rethrows a visitor's exception.
std::uint64_t walk_buckets_parallel(
    std::span<const std::uint64_t> cpu_heads, unsigned workers,
    const std::function<void(unsigned worker, std::span<const HostEntry> chain)>& visit,
    Organization org);

// An entry's key bytes.
inline std::string_view key_bytes(const HostEntry& e) {
  return std::string_view(reinterpret_cast<const char*>(e.key), e.key_bytes);
}

// Calls fn(same_key) with the entries of each key of a bucket's chain (a
// std::span<const HostEntry* const>: a key's entries of several iterations,
// or under basic of several records, in chain order), keys in byte order.
// A multi-valued key entry whose values were all postponed (count 0) is left
// out.
template <class Fn>
void for_each_key(std::span<const HostEntry> chain, Fn&& fn) {
  thread_local std::vector<const HostEntry*> order;  // kept: a chain is short
  order.clear();
  for (const HostEntry& e : chain)
    if (e.count != 0) order.push_back(&e);
  // An insertion sort (stable): chains are a few entries long, and
  // std::stable_sort allocates its buffer on every call (a malloc and free
  // for each bucket holding two keys).
  for (std::size_t i = 1; i < order.size(); ++i) {
    const HostEntry* e = order[i];
    std::size_t j = i;
    for (; j > 0 && key_bytes(*e) < key_bytes(*order[j - 1]); --j) order[j] = order[j - 1];
    order[j] = e;
  }
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i + 1;
    while (j < order.size() && key_bytes(*order[j]) == key_bytes(*order[i])) ++j;
    fn(std::span<const HostEntry* const>(order.data() + i, j - i));
    i = j;
  }
}

// Calls `fn` with each value's words of a multi-valued entry (newest first),
// or with the one value of a basic or combining entry.
template <class Fn>
void for_each_value(const HostEntry& e, Fn&& fn) {
  if (e.value) {
    fn(e.value);
    return;
  }
  for (std::uint64_t p = e.values; p != 0;) {
    const auto* v = reinterpret_cast<const std::uint32_t*>(static_cast<std::uintptr_t>(p));
    fn(v + 2);
    p = static_cast<std::uint64_t>(v[0]) | static_cast<std::uint64_t>(v[1]) << 32;
  }
}

}  // namespace harness::hashtable
