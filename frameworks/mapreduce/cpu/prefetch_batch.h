// Hiding cache misses behind other work: an item (a key to look up) is built
// in place and its memory prefetched at once, then processed when N items
// have gathered, by which time most of their lines have arrived. The lookups
// of N keys that are not in cache then overlap instead of stalling one after
// the other.
#pragma once

namespace harness::cpu {

template <class Item, unsigned N>
class PrefetchBatch {
 public:
  static constexpr unsigned kSize = N;

  // The slot of the next item, to fill in place (no copy through the stack).
  Item& next() { return items_[count_]; }
  // Keeps the item filled in next(); true when the batch is full.
  bool commit() { return ++count_ == N; }
  // Calls fn(item) for every kept item, in order, and empties the batch.
  template <class Fn>
  void drain(Fn&& fn) {
    for (unsigned i = 0; i < count_; ++i) fn(items_[i]);
    count_ = 0;
  }

 private:
  Item items_[N];
  unsigned count_ = 0;
};

}  // namespace harness::cpu
