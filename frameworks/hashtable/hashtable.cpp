#include "frameworks/hashtable/hashtable.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/hashtable/mapcg_point.h"
#include "frameworks/hashtable/open_addressing_point.h"
#include "frameworks/hashtable/sepo_point.h"
#include "harness/core/errors.h"
#include "harness/core/parallel.h"
#include "harness/core/registry.h"

namespace harness::hashtable {

const char* organization_name(Organization org) {
  switch (org) {
    case Organization::basic:
      return "basic";
    case Organization::multi_valued:
      return "multi-valued";
    case Organization::combining:
      return "combining";
  }
  return "?";
}

std::string variant_name(Organization org, Heap heap) {
  const char* suffix =
      heap == Heap::pinned ? "-pinned" : (heap == Heap::paging_bound ? "-paging-bound" : "");
  return std::string(organization_name(org)) + suffix;
}

std::uint32_t entry_bytes(Organization org, std::uint32_t key_bytes, std::uint32_t value_bytes) {
  const std::uint32_t key = 4 * ((key_bytes + 3) / 4), value = 4 * ((value_bytes + 3) / 4);
  const auto align = [](std::uint32_t b) { return (b + 7) & ~7u; };
  if (org == Organization::multi_valued)
    return std::max(align(kMvKeyHeaderBytes + key), align(kMvValueHeaderBytes + value));
  return align(kEntryHeaderBytes + key + value);
}

namespace {

// Buckets walked ahead of their heads' prefetch (walk_buckets_parallel).
constexpr std::size_t kPrefetchBuckets = 16;

// The entry at CPU address `p` as the host sees it; `next` its chain's next.
HostEntry host_entry(std::uint64_t p, bool multi, std::uint64_t& next) {
  const auto* e = reinterpret_cast<const std::uint32_t*>(static_cast<std::uintptr_t>(p));
  std::memcpy(&next, e, sizeof next);
  const std::uint32_t key_bytes = e[3] & 0xffff, value_bytes = e[3] >> 16;
  if (multi) {
    std::uint64_t values;
    std::memcpy(&values, e + 4, sizeof values);
    return HostEntry{e + 8, key_bytes, nullptr, value_bytes, values, e[7]};
  }
  return HostEntry{e + 4, key_bytes, e + 4 + (key_bytes + 3) / 4, value_bytes};
}

}  // namespace

std::uint64_t walk_buckets_parallel(
    std::span<const std::uint64_t> cpu_heads, unsigned workers,
    const std::function<void(unsigned, std::span<const HostEntry>)>& visit, Organization org) {
  workers = std::max(1u, workers);
  const bool multi = org == Organization::multi_valued;
  std::vector<std::uint64_t> entries(workers, 0);  // written once a worker is done
  const std::size_t n = cpu_heads.size();
  parallel_for(workers, [&](unsigned w) {
    std::vector<HostEntry> chain;
    std::uint64_t visited = 0;
    const std::size_t end = n * (w + 1) / workers;
    for (std::size_t b = n * w / workers; b < end; ++b) {
      // The head entries of the buckets a few ahead, fetched while this one
      // is walked: the chains are short and their entries lie anywhere in the
      // arenas, so each head would otherwise be a cache (and TLB) miss.
      if (b + kPrefetchBuckets < end) {
        if (const std::uint64_t ahead = cpu_heads[b + kPrefetchBuckets]) {
          const auto* e = reinterpret_cast<const char*>(static_cast<std::uintptr_t>(ahead));
          __builtin_prefetch(e);
          __builtin_prefetch(e + 64);
        }
      }
      chain.clear();
      for (std::uint64_t p = cpu_heads[b]; p != 0;) chain.push_back(host_entry(p, multi, p));
      if (chain.empty()) continue;
      visited += chain.size();
      visit(w, chain);
    }
    entries[w] = visited;
  });
  std::uint64_t total = 0;
  for (std::uint64_t e : entries) total += e;
  return total;
}

const std::vector<std::string>& combining_apps() {
  static const std::vector<std::string> apps = {"netflix",    "dna-assembly",    "kv-pairs",
                                                "word-count", "page-view-count", "key-counts"};
  return apps;
}

const std::vector<std::string>& grouping_apps() {
  static const std::vector<std::string> apps = {"patent-citation", "geo-location", "kv-pairs"};
  return apps;
}

namespace {

void register_organization(Organization org, Heap heap, std::vector<std::string> apps,
                           std::string description) {
  VariantInfo v;
  v.framework = "hashtable";
  v.name = variant_name(org, heap);
  v.description = std::move(description);
  v.backends = {backend::Kind::opencl, backend::Kind::cuda};
  v.apps = std::move(apps);
  v.params = {
      pow2_param("buckets", 0, 64, std::uint64_t{1} << 24, "buckets of the table",
                 "a power of two near a quarter of the records, at least 1024"),
      pow2_param("bucket_group", 64, 1, std::uint64_t{1} << 20,
                 "buckets per bucket group (each group allocates from its own page)"),
      pow2_param("page_bytes", 4096, 64, std::uint64_t{1} << 24, "bytes of a heap page"),
  };
  if (org != Organization::basic)
    v.params.push_back(unsigned_param(
        "lock_free", 1, 0, 1,
        "1: keys already in the table are found and updated without the bucket lock (an atomic "
        "combine, a value pushed by one exchange); 0: the thesis' locking as written (a hot key "
        "serializes on its bucket lock or its value head's CAS loop)"));
  if (heap == Heap::device)
    v.params.push_back(unsigned_param(
        "pack", 1, 0, 1,
        "1: each iteration's table is packed on the GPU before it goes to host memory (each "
        "bucket's chain laid out whole, bucket after bucket, its CPU pointers rewritten; "
        "kernels/sepo_pack.clh), copied into pinned host memory, and walked in memory order; "
        "0: the heap's used pages copied as they are (the thesis, section 6.3.3). Multi-valued "
        "packs a table of one iteration, each key's values laid out after it, when no value list "
        "is longer than 4096 (one work-item walks each list; counter longest_list)"));
  // A pinned heap holds the whole table: no postponement, so no halt policy.
  if (org == Organization::basic && heap == Heap::device) {
    v.params.push_back(unsigned_param(
        "halt_percent", 50, 1, 100,
        "halt an iteration once this percentage of the bucket groups postponed an insert"));
    v.params.push_back(unsigned_param(
        "halt_waves", 8, 1, 1024,
        "launches per iteration over consecutive slices of its records; a slice that starts "
        "after the halt is left whole (the halt does not depend on how many work-items the GPU "
        "runs at once)"));
  }
  v.make = [org, heap](const PointContext& ctx) { return make_sepo_point(org, heap, ctx); };
  if (heap == Heap::pinned) {
    // NVIDIA's OpenCL: no zero-copy buffers (its mapped memory is a device
    // copy migrated whole), so the heap cannot live in host memory there.
    v.skip = [](const PointContext& ctx) -> std::string {
      if (!ctx.device) return "";
      try {
        backend::require_zero_copy(ctx.device->info());
      } catch (const RunError& e) {
        return std::string("the heap cannot live in pinned host memory: ") + e.what();
      }
      return "";
    };
  }
  if (heap == Heap::paging_bound) v.skip = paging_bound_skip;
  Registry::instance().add_variant(std::move(v));
}

// MapCG's grouping on the family's apps (thesis table 6.2's baseline;
// mapcg_point.h).
void register_mapcg() {
  VariantInfo v;
  v.framework = "hashtable";
  v.name = "mapcg";
  v.description =
      "MapCG's grouping, the baseline of thesis table 6.2, on the SePo table's apps: one global "
      "hash table in GPU memory built with atomics (open addressing, entries published by CAS, "
      "every value its own node pushed on its key's list; frameworks/blocks/global_hash_table.h), "
      "the records' pairs from the apps' own kernels; combining apps reduce each key's list on "
      "the GPU with the app's combine. A full table grows and the insert runs again; it cannot "
      "exceed GPU memory (the budget): a table that does not fit fails the point";
  v.backends = {backend::Kind::opencl, backend::Kind::cuda};
  v.apps = combining_apps();
  for (const std::string& app : grouping_apps())
    if (std::find(v.apps.begin(), v.apps.end(), app) == v.apps.end()) v.apps.push_back(app);
  v.params = {
      pow2_param("slots", 0, 16, std::uint64_t{1} << 31, "the first table's slots",
                 "a power of two at least twice its entries"),
      unsigned_param("entries", 0, 0, 0xFFFF'FFFEull,
                     "the first table's entries (0: one per record, so it never grows; fewer: it "
                     "grows to what the insert asked for and runs again)"),
  };
  v.make = [](const PointContext& ctx) { return make_mapcg_point(ctx); };
  Registry::instance().add_variant(std::move(v));
}

}  // namespace

void register_family() {
  const std::string common =
      "chained entries in pages of a GPU heap, bucket groups with their own page; inserts with "
      "no page left are postponed, the heap copied to host memory and the postponed records run "
      "again";
  const std::string pinned =
      "The SePo hash table's heap in mapped pinned host memory (thesis section 6.6.4, figure "
      "6.11): its pages, sized for the whole table, written by the kernels in place over the "
      "link, so one iteration inserts every record and no heap is copied; bucket arrays, locks "
      "and page metadata in GPU memory; the table walked on the CPU where it was built. ";
  register_organization(
      Organization::basic, Heap::device, grouping_apps(),
      "The thesis' SePo hash table, basic organization: every pair its own entry, pushed at "
      "the bucket head by CAS (lock-free), an iteration halted once halt_percent of the bucket "
      "groups postpone; " +
          common + "; equal keys grouped by the host's walk");
  register_organization(
      Organization::multi_valued, Heap::device, grouping_apps(),
      "The thesis' SePo hash table, multi-valued organization: a key entry per key with its "
      "list of values, keys and values on separate pages, a new key added under its bucket lock, "
      "a value pushed lock-free (lock_free: a key already present found without the lock); " +
          common + "; key pages holding a key still waiting for values stay on the GPU");
  register_organization(
      Organization::combining, Heap::device, combining_apps(),
      "The thesis' SePo hash table, combining organization: a key's values combined by the "
      "app's callback under the bucket lock (lock_free: by its atomic form without the lock, "
      "once the key is present); " +
          common);
  register_organization(Organization::basic, Heap::pinned, {"patent-citation", "geo-location"},
                        pinned + "Basic organization (entries pushed by CAS)");
  register_organization(Organization::multi_valued, Heap::pinned,
                        {"patent-citation", "geo-location"},
                        pinned + "Multi-valued organization (key entries with value lists)");
  register_organization(Organization::combining, Heap::pinned,
                        {"netflix", "dna-assembly", "word-count", "page-view-count"},
                        pinned + "Combining organization (the app's callback on a duplicate key)");
  register_organization(
      Organization::combining, Heap::paging_bound, {"netflix"},
      "The demand-paging lower bound of thesis table 6.3: the combining table built whole in GPU "
      "memory (one iteration, outside the GPU memory budget) by an insert that records every "
      "access to the bucket array and the heap; the trace is replayed against an LRU page cache "
      "for page sizes 4 KiB, 128 KiB, 1 MiB and a GPU memory of 1/1, 1/1.25, 1/1.5, 1/2, 1/3 of "
      "the table, counting pages in and dirty pages out, timed at the pinned copy rates measured "
      "by the point (counters paging_*)");
  register_mapcg();
  register_open_addressing();
}

}  // namespace harness::hashtable
