// The host side of the global hash table (kernels/global_hash_table.clh): its
// device buffers, their sizing, and what a build used. The kernels that build
// and read the table are the user's (atomicmr/hash's map and reduce); this
// class owns the layout and the grow policy, so another runtime (a table that
// outgrows GPU memory, the MapCG stand-in of thesis table 6.2) reuses it.
#pragma once

#include <string>

#include "frameworks/blocks/buffer_pool.h"

namespace harness::blocks {

struct HashTableCapacity {
  std::uint32_t slots = 0;  // a power of two, at least twice the entries
  std::uint32_t entries = 0;
  std::uint32_t key_bytes = 0;
  std::uint32_t nodes = 0;  // values
  // grown() returning the same capacity means the table cannot grow.
  bool operator==(const HashTableCapacity&) const = default;
};

// What one build of the table asked for, from its counters: the allocators
// count past their capacity, so these are the totals a rebuild needs.
struct HashTableUsage {
  std::uint32_t entries = 0;  // created (distinct keys, and a few that lost a race)
  std::uint32_t key_bytes = 0;
  std::uint32_t nodes = 0;
  bool full = false;  // an insert probed every slot without finding its key or a free one
};

class GlobalHashTable {
 public:
  // Buffers come from `pool` under names starting with `name`.
  GlobalHashTable(BufferPool& pool, std::string name);

  // Buffers for `capacity` (slots raised to a power of two at least twice the
  // entries), emptied: slots and counters zeroed on the device queue.
  void reset(HashTableCapacity capacity);
  const HashTableCapacity& capacity() const { return capacity_; }

  // The kernels' arguments (ght_table in global_hash_table.clh).
  backend::Buffer& slots() { return *slots_; }
  std::uint32_t slot_mask() const { return capacity_.slots - 1; }
  backend::Buffer& entries() { return *entries_; }
  backend::Buffer& keys() { return *keys_; }
  backend::Buffer& node_next() { return *node_next_; }
  backend::Buffer& node_entry() { return *node_entry_; }
  backend::Buffer& counters() { return *counters_; }

  // Reads the counters back (waits for the queue). A counter that passed
  // 2^32 is a RunError naming the 32-bit limit.
  HashTableUsage usage();
  bool fits(const HashTableUsage& used) const;
  // The capacity a rebuild needs: the allocators' totals; twice the slots
  // when an insert found the table full.
  HashTableCapacity grown(const HashTableUsage& used) const;
  // grown(used), or a RunError naming `who` when the table cannot grow.
  HashTableCapacity grown_or_throw(const HashTableUsage& used, const std::string& who) const;
  // Device bytes of a table of `capacity` (values excluded: their type is the user's).
  static std::uint64_t bytes(const HashTableCapacity& capacity);

 private:
  BufferPool& pool_;
  std::string name_;
  HashTableCapacity capacity_;
  backend::Buffer *slots_ = nullptr, *entries_ = nullptr, *keys_ = nullptr, *node_next_ = nullptr,
                  *node_entry_ = nullptr, *counters_ = nullptr;
};

}  // namespace harness::blocks
