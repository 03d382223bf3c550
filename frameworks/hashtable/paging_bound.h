// The demand-paging lower bound of thesis table 6.3: the table's access
// trace (kernels/sepo_table.clh, HT_TRACE) replayed against an LRU page
// cache of a GPU memory holding `capacity` pages, counting the pages that
// would cross the link: a page touched again after its eviction is paged in
// (page_bytes host to device), a page written since it came in is paged out
// when evicted (page_bytes device to host). A page's first touch creates it
// on the GPU (zero-filled, nothing to copy): a cold fault, no transfer.
// README.md, "The paging bound".
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace harness::hashtable {

// A trace entry: (byte offset << 2) | kind, kind bit 0 = a write (the kernels'
// HT_TRACE_READ 0, HT_TRACE_WRITE 1, HT_TRACE_COMMIT 3).
constexpr std::uint64_t trace_entry(std::uint64_t offset, bool write) {
  return (offset << 2) | (write ? 1u : 0u);
}

struct PagingCounts {
  std::uint64_t accesses = 0;
  std::uint64_t faults = 0;       // accesses to a page not resident (cold included)
  std::uint64_t cold_faults = 0;  // first touches: created on the GPU, no transfer
  std::uint64_t page_ins = 0;     // faults on a page evicted before: page_bytes in
  std::uint64_t page_outs = 0;    // evictions of a page written since it came in
  std::uint64_t evictions = 0;    // every eviction, clean or dirty
};

// Exact LRU over the pages of the trace's offsets (O(1) an access: an
// intrusive list over page ids). capacity_pages >= 1.
PagingCounts simulate_lru(std::span<const std::uint64_t> trace, std::uint64_t page_bytes,
                          std::uint64_t capacity_pages);

// The lower bound's time in ms: bytes paged in at h2d_gbs, bytes paged out at
// d2h_gbs, and the input's own copy in once at h2d_gbs (GB/s = 1e9 B/s).
double paging_time_ms(const PagingCounts& c, std::uint64_t page_bytes, std::uint64_t input_bytes,
                      double h2d_gbs, double d2h_gbs);

}  // namespace harness::hashtable
