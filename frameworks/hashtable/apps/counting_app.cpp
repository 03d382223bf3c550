#include "frameworks/hashtable/apps/counting_app.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "harness/core/parallel.h"
#include "harness/core/per_worker.h"

namespace harness::hashtable {

std::unique_ptr<workloads::Output> CountingApp::collect(std::span<const std::uint64_t> heads,
                                                        Organization org,
                                                        std::uint64_t& entries) const {
  struct Count {
    std::string_view key;
    std::int64_t count;
  };
  const unsigned workers = workers_for(heads.size(), 0, 16384);
  PerWorker<workloads::TableOutput> rows(workers, 1u, 0u, false);
  entries = walk_buckets_parallel(
      heads, workers,
      [&rows](unsigned w, std::span<const HostEntry> chain) {
        thread_local std::vector<Count> keys;
        keys.clear();
        for (const HostEntry& e : chain) keys.push_back({key_bytes(e), e.value[0]});
        if (keys.size() > 1)
          std::sort(keys.begin(), keys.end(),
                    [](const Count& a, const Count& b) { return a.key < b.key; });
        for (std::size_t i = 0; i < keys.size();) {
          std::int64_t n[1] = {0};
          std::size_t j = i;
          for (; j < keys.size() && keys[j].key == keys[i].key; ++j) n[0] += keys[j].count;
          rows[w].add(keys[i].key, n);
          i = j;
        }
      },
      org);
  return std::make_unique<workloads::TableOutput>(workloads::TableOutput::concatenate(rows.take()));
}

}  // namespace harness::hashtable
