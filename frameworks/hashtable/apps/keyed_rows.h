// The walk of the combining apps whose answer is one numeric row per 64-bit
// key (netflix's user pairs, key-counts' keys, dna-assembly's packed parts).
// A key inserted in several SePo iterations has an entry in each, all in its
// bucket's chain: each worker walks a range of buckets, turns a chain's
// entries into rows, sorts them by key (a short chain: looks back over them)
// and adds up each key's rows there (the table's own combine), so its rows
// are distinct keys, appended in walk order (no table to probe), and kept by
// the answer as they are (its finish() sorts them, untimed).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "frameworks/hashtable/sepo_app.h"
#include "harness/core/parallel.h"
#include "harness/core/per_worker.h"

namespace harness::hashtable {

// Chains up to this long find a key's earlier row by looking back over the
// chain's rows (at most 28 compares) instead of sorting them.
inline constexpr std::size_t kShortChain = 8;

// Each worker's rows, one per distinct key of its buckets: row_of(HostEntry)
// -> Row; key_of(Row) -> u64; add(Row& into, const Row& more).
template <class RowOf, class KeyOf, class Add>
auto walk_distinct_rows(std::span<const std::uint64_t> heads, Organization org,
                        std::uint64_t& entries, RowOf row_of, KeyOf key_of, Add add) {
  using Row = decltype(row_of(std::declval<const HostEntry&>()));
  const unsigned workers = workers_for(heads.size(), 0, 16384);
  PerWorker<std::vector<Row>> rows(workers);
  entries = walk_buckets_parallel(
      heads, workers,
      [&](unsigned w, std::span<const HostEntry> chain) {
        std::vector<Row>& out = rows[w];
        if (chain.size() <= kShortChain) {  // most chains: a look back, no sort
          const std::size_t first = out.size();
          for (const HostEntry& e : chain) {
            const Row row = row_of(e);
            std::size_t i = first;
            while (i < out.size() && key_of(out[i]) != key_of(row)) ++i;
            if (i < out.size())
              add(out[i], row);
            else
              out.push_back(row);
          }
          return;
        }
        const auto first = static_cast<std::ptrdiff_t>(out.size());
        for (const HostEntry& e : chain) out.push_back(row_of(e));
        const auto begin = out.begin() + first;
        std::sort(begin, out.end(),
                  [&](const Row& a, const Row& b) { return key_of(a) < key_of(b); });
        auto kept = begin;
        for (auto it = begin + 1; it < out.end(); ++it) {
          if (key_of(*it) == key_of(*kept))
            add(*kept, *it);
          else
            *++kept = *it;
        }
        out.erase(kept + 1, out.end());
      },
      org);
  return rows.take();
}

// Output: add_rows(std::vector<Row>) (keyed_rows_output.h); the rest as
// walk_distinct_rows.
template <class Output, class RowOf, class KeyOf, class Add>
std::unique_ptr<workloads::Output> collect_keyed_rows(std::span<const std::uint64_t> heads,
                                                      Organization org, std::uint64_t& entries,
                                                      RowOf row_of, KeyOf key_of, Add add) {
  auto out = std::make_unique<Output>();
  for (auto& rows : walk_distinct_rows(heads, org, entries, row_of, key_of, add))
    out->add_rows(std::move(rows));
  return out;
}

}  // namespace harness::hashtable
