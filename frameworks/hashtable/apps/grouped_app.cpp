#include "frameworks/hashtable/apps/grouped_app.h"

#include <utility>
#include <vector>

#include "harness/core/parallel.h"
#include "harness/core/per_worker.h"

namespace harness::hashtable {

std::unique_ptr<workloads::Output> GroupedApp::collect(std::span<const std::uint64_t> heads,
                                                       Organization org,
                                                       std::uint64_t& entries) const {
  const unsigned workers = workers_for(heads.size(), 0, 16384);
  PerWorker<workloads::TableOutput> tables(workers, table(org));
  entries = walk_buckets_parallel(
      heads, workers,
      [this, org, &tables](unsigned w, std::span<const HostEntry> chain) {
        thread_local std::vector<const std::uint32_t*> values;
        for_each_key(chain, [&](std::span<const HostEntry* const> same_key) {
          values.clear();
          for (const HostEntry* e : same_key)
            for_each_value(*e, [](const std::uint32_t* v) { values.push_back(v); });
          add_row(tables[w], key_bytes(*same_key[0]), values, org);
        });
      },
      org);
  return answer(workloads::TableOutput::concatenate(tables.take()), org);
}

std::unique_ptr<workloads::Output> GroupedApp::answer(workloads::TableOutput table,
                                                      Organization) const {
  return std::make_unique<workloads::TableOutput>(std::move(table));
}

}  // namespace harness::hashtable
