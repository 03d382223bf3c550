#include "frameworks/blocks/global_hash_table.h"

#include <algorithm>

#include "harness/core/errors.h"
#include "harness/dialect/dialect.h"
// The table's layout, shared with the kernels.
#include "frameworks/blocks/kernels/global_hash_table_types.clh"

namespace harness::blocks {
namespace {

static_assert(sizeof(GhtEntry) == 16, "the kernels index entries as four u32 fields");

// The most slots: a power of two whose index + 1 still fits a u32 slot.
constexpr std::uint32_t kMaxSlots = std::uint32_t{1} << 31;

std::uint32_t slots_for(std::uint32_t slots, std::uint32_t entries) {
  const std::uint64_t want = std::max<std::uint64_t>({slots, std::uint64_t{entries} * 2, 16});
  if (want > kMaxSlots) {
    throw RunError("atomicmr: a global hash table of " + std::to_string(entries) +
                   " keys needs more than 2^31 slots, the limit of its 32-bit slot indices");
  }
  std::uint32_t p = 1;
  while (p < want) p <<= 1;
  return p;
}

}  // namespace

GlobalHashTable::GlobalHashTable(BufferPool& pool, std::string name)
    : pool_(pool), name_(std::move(name)) {}

void GlobalHashTable::reset(HashTableCapacity capacity) {
  capacity.slots = slots_for(capacity.slots, capacity.entries);
  capacity_ = capacity;
  slots_ = &pool_.get(name_ + ".slots", std::size_t{capacity.slots} * 4);
  entries_ = &pool_.get(name_ + ".entries", std::size_t{capacity.entries} * sizeof(GhtEntry));
  keys_ = &pool_.get(name_ + ".keys", capacity.key_bytes);
  node_next_ = &pool_.get(name_ + ".node_next", std::size_t{capacity.nodes} * 4);
  node_entry_ = &pool_.get(name_ + ".node_entry", std::size_t{capacity.nodes} * 4);
  counters_ = &pool_.get(name_ + ".counters", GHT_COUNTERS * 4);
  auto& q = pool_.device().queue();
  q.fill_zero(*slots_, 0, std::size_t{capacity.slots} * 4);
  q.fill_zero(*counters_, 0, GHT_COUNTERS * 4);
}

HashTableUsage GlobalHashTable::usage() {
  auto& q = pool_.device().queue();
  std::uint32_t c[GHT_COUNTERS] = {};
  q.read(c, *counters_, 0, sizeof(c));
  q.finish();
  if (c[GHT_COUNTER_WRAPPED] != 0) {
    throw RunError(
        "atomicmr: the global hash table's keys or values reach 4 GiB / 2^32 entries, the "
        "limit of its 32-bit offsets");
  }
  HashTableUsage u;
  u.entries = c[GHT_COUNTER_ENTRIES];
  u.key_bytes = c[GHT_COUNTER_KEY_BYTES];
  u.nodes = c[GHT_COUNTER_NODES];
  u.full = c[GHT_COUNTER_FULL] != 0;
  return u;
}

bool GlobalHashTable::fits(const HashTableUsage& used) const {
  return !used.full && used.entries <= capacity_.entries && used.key_bytes <= capacity_.key_bytes &&
         used.nodes <= capacity_.nodes;
}

HashTableCapacity GlobalHashTable::grown(const HashTableUsage& used) const {
  // Entries (and their key bytes) created by inserts that lost a race to the
  // same key vary from build to build: a quarter more leaves room for them.
  auto with_room = [](std::uint32_t n) {
    return static_cast<std::uint32_t>(
        std::min<std::uint64_t>(n + std::uint64_t{n} / 4, 0xfffffffeu));
  };
  HashTableCapacity c = capacity_;
  c.entries = std::max(c.entries, with_room(used.entries));
  c.key_bytes = std::max(c.key_bytes, with_room(used.key_bytes));
  c.nodes = std::max(c.nodes, used.nodes);
  if (used.full) {
    c.slots = c.slots >= kMaxSlots ? c.slots : c.slots * 2;
    c.entries = std::max(c.entries, c.slots / 2);
  }
  return c;
}

HashTableCapacity GlobalHashTable::grown_or_throw(const HashTableUsage& used,
                                                  const std::string& who) const {
  const HashTableCapacity next = grown(used);
  if (next == capacity_) {
    throw RunError(who + ": the global hash table (" + std::to_string(capacity_.slots) +
                   " slots) cannot grow for " + std::to_string(used.entries) + " keys");
  }
  return next;
}

std::uint64_t GlobalHashTable::bytes(const HashTableCapacity& c) {
  return std::uint64_t{c.slots} * 4 + std::uint64_t{c.entries} * sizeof(GhtEntry) + c.key_bytes +
         std::uint64_t{c.nodes} * 8 + GHT_COUNTERS * 4;
}

}  // namespace harness::blocks
