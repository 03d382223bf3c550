// The walk of the MAP_GROUP apps whose answer is each key's list of 32-bit
// ids (patent-citation, geo-location), under basic (an entry per record) or
// multi-valued (a key entry with its value list; one per iteration that
// inserted the key). Each worker walks a range of buckets and leaves what the
// CPU-MT baseline's grouping leaves (frameworks/workloads/group_by_key.h's
// GroupedOutput): its keys, each key's offset into its values, and the
// values, one partition a worker. The answer's table (keys as text, counts,
// sorted ids) is made by finish(), untimed, for both alike.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "frameworks/hashtable/sepo_app.h"
#include "frameworks/workloads/group_by_key.h"
#include "harness/core/parallel.h"
#include "harness/core/per_worker.h"

namespace harness::hashtable {

// key_of(const HostEntry&) -> KeyOps::Key (the answer's key, its text() the
// entry's key bytes); each value's first word is its id.
template <class KeyOps, class KeyOf>
std::unique_ptr<workloads::Output> collect_id_lists(std::span<const std::uint64_t> heads,
                                                    Organization org, std::uint64_t& entries,
                                                    const KeyOps& ops, KeyOf key_of) {
  using Grouped = workloads::group_by_key::GroupedOutput<KeyOps>;
  struct Part {
    std::vector<typename KeyOps::Key> keys;
    std::vector<std::uint64_t> offsets{0};
    std::vector<std::uint32_t> values;
  };
  const unsigned workers = workers_for(heads.size(), 0, 16384);
  PerWorker<Part> parts(workers);
  entries = walk_buckets_parallel(
      heads, workers,
      [&](unsigned w, std::span<const HostEntry> chain) {
        Part& part = parts[w];
        for_each_key(chain, [&](std::span<const HostEntry* const> same_key) {
          part.keys.push_back(key_of(*same_key[0]));
          for (const HostEntry* e : same_key)
            for_each_value(*e, [&](const std::uint32_t* v) { part.values.push_back(v[0]); });
          part.offsets.push_back(part.values.size());
        });
      },
      org);
  auto out = std::make_unique<Grouped>(ops, workers);
  parallel_for(workers, [&](unsigned w) {
    Part& part = parts[w];
    typename Grouped::Partition& p = out->partition(w);
    p.keys = std::move(part.keys);
    p.offsets = std::move(part.offsets);
    p.values.reset(new std::uint32_t[part.values.size()]);  // uninitialized: all copied
    std::copy(part.values.begin(), part.values.end(), p.values.get());
  });
  return out;
}

}  // namespace harness::hashtable
