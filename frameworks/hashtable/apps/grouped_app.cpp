#include "frameworks/hashtable/apps/grouped_app.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "harness/core/parallel.h"
#include "harness/core/per_worker.h"

namespace harness::hashtable {
namespace {

std::string_view key_of(const HostEntry& e) {
  return std::string_view(reinterpret_cast<const char*>(e.key), e.key_bytes);
}

}  // namespace

std::unique_ptr<workloads::Output> GroupedApp::collect(std::span<const std::uint64_t> heads,
                                                       Organization org,
                                                       std::uint64_t& entries) const {
  const unsigned workers = workers_for(heads.size(), 0, 16384);
  PerWorker<workloads::TableOutput> tables(workers, table(org));
  entries = walk_buckets_parallel(
      heads, workers,
      [this, org, &tables](unsigned w, std::span<const HostEntry> chain) {
        thread_local std::vector<const HostEntry*> order;  // kept: a chain is short
        thread_local std::vector<const std::uint32_t*> values;
        order.clear();
        for (const HostEntry& e : chain) {
          if (e.count != 0) order.push_back(&e);  // 0: a key entry whose values were postponed
        }
        std::stable_sort(order.begin(), order.end(), [](const HostEntry* a, const HostEntry* b) {
          return key_of(*a) < key_of(*b);
        });
        for (std::size_t i = 0; i < order.size();) {
          const std::string_view key = key_of(*order[i]);
          values.clear();
          for (; i < order.size() && key_of(*order[i]) == key; ++i)
            for_each_value(*order[i], [](const std::uint32_t* v) { values.push_back(v); });
          add_row(tables[w], key, values, org);
        }
      },
      org);
  return answer(workloads::TableOutput::concatenate(tables.take()), org);
}

std::unique_ptr<workloads::Output> GroupedApp::answer(workloads::TableOutput table,
                                                      Organization) const {
  return std::make_unique<workloads::TableOutput>(std::move(table));
}

}  // namespace harness::hashtable
