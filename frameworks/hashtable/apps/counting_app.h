// The walk of the apps whose answer counts each key (word-count,
// page-view-count: the combining organization, the sum as its callback): a
// key's entries (one per SePo iteration that inserted it) share its bucket's
// chain, so each worker walks a range of buckets, adds up each key's counts
// and appends its rows, distinct keys, into the workload's table (one integer
// column, sorted by finish(), untimed).
#pragma once

#include <memory>
#include <span>

#include "frameworks/hashtable/sepo_app.h"

namespace harness::hashtable {

class CountingApp : public SepoApp {
 public:
  std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> heads, Organization org,
                                             std::uint64_t& entries) const override;
};

}  // namespace harness::hashtable
