#include "frameworks/hashtable/paging_bound.h"

#include <algorithm>
#include <vector>

#include "harness/core/errors.h"

namespace harness::hashtable {

PagingCounts simulate_lru(std::span<const std::uint64_t> trace, std::uint64_t page_bytes,
                          std::uint64_t capacity_pages) {
  if (page_bytes == 0 || capacity_pages == 0)
    throw UsageError("paging bound: page bytes and capacity must be positive");
  PagingCounts c;
  c.accesses = trace.size();
  std::uint64_t top = 0;
  for (const std::uint64_t e : trace) top = std::max(top, e >> 2);
  const std::uint64_t pages = trace.empty() ? 0 : top / page_bytes + 1;
  // The LRU list: prev/next page ids (kNone ends), most recent at head.
  constexpr std::uint64_t kNone = ~std::uint64_t{0};
  std::vector<std::uint64_t> prev(pages, kNone), next(pages, kNone);
  // 0 never touched, 1 resident clean, 2 resident dirty, 3 evicted.
  std::vector<std::uint8_t> state(pages, 0);
  std::uint64_t head = kNone, tail = kNone, resident = 0;
  const auto unlink = [&](std::uint64_t p) {
    (prev[p] != kNone ? next[prev[p]] : head) = next[p];
    (next[p] != kNone ? prev[next[p]] : tail) = prev[p];
  };
  const auto push_front = [&](std::uint64_t p) {
    prev[p] = kNone;
    next[p] = head;
    (head != kNone ? prev[head] : tail) = p;
    head = p;
  };
  for (const std::uint64_t e : trace) {
    const std::uint64_t p = (e >> 2) / page_bytes;
    const bool write = (e & 1u) != 0;
    if (state[p] == 1 || state[p] == 2) {
      if (head != p) {
        unlink(p);
        push_front(p);
      }
    } else {
      ++c.faults;
      if (state[p] == 0)
        ++c.cold_faults;
      else
        ++c.page_ins;
      if (resident == capacity_pages) {
        const std::uint64_t victim = tail;
        unlink(victim);
        ++c.evictions;
        if (state[victim] == 2) ++c.page_outs;
        state[victim] = 3;
        --resident;
      }
      push_front(p);
      state[p] = 1;
      ++resident;
    }
    if (write) state[p] = 2;
  }
  return c;
}

double paging_time_ms(const PagingCounts& c, std::uint64_t page_bytes, std::uint64_t input_bytes,
                      double h2d_gbs, double d2h_gbs) {
  if (h2d_gbs <= 0 || d2h_gbs <= 0) return 0;
  const double in = static_cast<double>(c.page_ins * page_bytes + input_bytes);
  const double out = static_cast<double>(c.page_outs * page_bytes);
  return in / (h2d_gbs * 1e6) + out / (d2h_gbs * 1e6);
}

}  // namespace harness::hashtable
