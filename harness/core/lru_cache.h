// A small least-recently-used cache. The CPU references of a reproduction are
// kept in one: its experiments run the same inputs through many variants,
// backends and experiments (S-L1's figures each run the same eight apps at the
// same size), and a reference of a large input takes seconds to compute, so
// keeping the last few beats computing one again for every variant.
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <utility>

namespace harness {

// How many CPU references the families keep (frameworks/workloads,
// frameworks/mapreduce): S-L1's eight apps, or a figure's apps on two backends.
constexpr std::size_t kCachedReferences = 8;

template <typename Key, typename Value>
class LruCache {
 public:
  explicit LruCache(std::size_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}

  // The value of `key`, made by make() (a std::shared_ptr<const Value>) when
  // absent, which evicts the least recently used beyond the capacity. A value
  // handed out stays valid while its holder keeps it, evicted or not.
  template <typename Make>
  std::shared_ptr<const Value> get_or_make(const Key& key, Make&& make) {
    auto it = index_.find(key);
    if (it != index_.end()) {
      order_.splice(order_.begin(), order_, it->second);  // now the most recent
      return it->second->second;
    }
    std::shared_ptr<const Value> value = make();
    order_.emplace_front(key, value);
    index_.emplace(key, order_.begin());
    while (order_.size() > capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
    return value;
  }

  std::size_t size() const { return order_.size(); }

 private:
  using Entry = std::pair<Key, std::shared_ptr<const Value>>;
  std::size_t capacity_;
  std::list<Entry> order_;  // most recently used first
  std::map<Key, typename std::list<Entry>::iterator> index_;
};

}  // namespace harness
