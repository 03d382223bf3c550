// An open-addressing (linear probing) hash table from byte-string keys to
// values, instead of node-based std::unordered_map<std::string>: one slot
// array, short keys stored in the slot itself (PackedKey), so a lookup that
// hits touches one cache line and calls no memcmp; long keys' bytes live in
// one arena. The slot of a key is known from its hash alone, so callers can
// prefetch it well before the lookup (word count's fast path does).
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "frameworks/mapreduce/cpu/packed_key.h"
#include "frameworks/mapreduce/cpu/prefetch_batch.h"

namespace harness::cpu {

template <class Value>
class FlatTable {
 public:
  struct Entry {
    std::uint64_t hash = 0;
    std::uint64_t w0 = 0, w1 = 0;  // a short key's bytes; a long key's arena offset in w0
    std::uint32_t len = kEmpty;    // kEmpty marks a free slot
    Value value{};
  };
  static constexpr std::uint32_t kEmpty = 0xffffffffu;
  using value_type = Value;

  explicit FlatTable(std::size_t capacity = 64) { resize(round_up(capacity)); }

  // The value of `key`, default-constructed when absent; `inserted` says which.
  // References stay valid until the next insertion.
  Value& upsert(const PackedKey& key, bool& inserted) {
    for (;;) {
      for (std::size_t i = key.hash >> shift_;; i = (i + 1) & mask_) {
        Entry& e = slots_[i];
        if (matches(e, key)) {
          inserted = false;
          return e.value;
        }
        if (e.len == kEmpty) {
          if (size_ >= limit_) break;  // full: grow, then probe again
          store(e, key);
          ++size_;
          inserted = true;
          return e.value;
        }
      }
      resize(slots_.size() * 2);
    }
  }

  // Starts loading the slot where a lookup of `hash` begins.
  void prefetch(std::uint64_t hash) const { __builtin_prefetch(&slots_[hash >> shift_]); }

  // Whether the slots are few enough to stay in a core's cache, where
  // prefetching them gains nothing.
  bool cache_resident() const { return slots_.size() * sizeof(Entry) <= kCacheResidentBytes; }
  static constexpr std::size_t kCacheResidentBytes = std::size_t{256} << 10;

  // Room for `n` keys without growing.
  void reserve(std::size_t n) {
    if (n > limit_) resize(round_up(n));
  }

  std::size_t size() const { return size_; }
  std::size_t key_bytes() const { return key_bytes_; }  // of all keys together

  // Adds every entry of `from` to this table; fn(value here, value there,
  // inserted) combines the values. `from` is read in slot order while the
  // slots here are random: they are prefetched in batches.
  template <class Fn>
  void merge(FlatTable& from, Fn&& fn) {
    PrefetchBatch<Entry*, 16> batch;
    auto insert = [&](Entry* e) {
      bool inserted = false;
      Value& into = upsert(from.packed(*e), inserted);
      fn(into, e->value, inserted);
    };
    for (Entry& e : from.slots_) {
      if (e.len == kEmpty) continue;
      prefetch(e.hash);
      batch.next() = &e;
      if (batch.commit()) batch.drain(insert);
    }
    batch.drain(insert);
  }

  // The bytes of an entry's key: a short key is copied to `buf`.
  std::string_view key(const Entry& e, char (&buf)[PackedKey::kInlineBytes]) const {
    if (e.len > PackedKey::kInlineBytes) return {arena_.data() + e.w0, e.len};
    std::memcpy(buf, &e.w0, 8);
    std::memcpy(buf + 8, &e.w1, 8);
    return {buf, e.len};
  }

  // An entry's key as a lookup key for another table (merging); a long key
  // points into this table's arena.
  PackedKey packed(const Entry& e) const {
    PackedKey k;
    k.w0 = e.w0;
    k.w1 = e.w1;
    k.hash = e.hash;
    k.len = e.len;
    if (!k.is_inline()) k.bytes = arena_.data() + e.w0;
    return k;
  }

  // Calls fn(entry) for every occupied slot.
  template <class Fn>
  void for_each(Fn&& fn) {
    for (Entry& e : slots_) {
      if (e.len != kEmpty) fn(e);
    }
  }

  // The partition (of `parts`) of a key: from the hash's low bits, which do
  // not pick the slot, so a partition's keys still spread over a whole table.
  static unsigned partition(std::uint64_t hash, unsigned parts) {
    return static_cast<unsigned>(((hash & 0xffffffffULL) * parts) >> 32);
  }

 private:
  // At most half the slots are used: short probe sequences, mostly in one line.
  static std::size_t round_up(std::size_t keys) {
    std::size_t slots = 16;
    while (slots / 2 < keys) slots *= 2;
    return slots;
  }

  bool matches(const Entry& e, const PackedKey& key) const {
    if (e.hash != key.hash || e.len != key.len) return false;
    if (key.is_inline()) return e.w0 == key.w0 && e.w1 == key.w1;
    return std::memcmp(arena_.data() + e.w0, key.bytes, key.len) == 0;
  }

  void store(Entry& e, const PackedKey& key) {
    e.hash = key.hash;
    e.len = key.len;
    key_bytes_ += key.len;
    if (key.is_inline()) {
      e.w0 = key.w0;
      e.w1 = key.w1;
    } else {
      e.w0 = arena_.size();
      arena_.insert(arena_.end(), key.bytes, key.bytes + key.len);
    }
  }

  void resize(std::size_t slots) {
    std::vector<Entry> old(slots);
    old.swap(slots_);
    mask_ = slots - 1;
    shift_ = 64;
    for (std::size_t s = slots; s > 1; s >>= 1) --shift_;
    limit_ = slots / 2;
    for (Entry& e : old) {
      if (e.len == kEmpty) continue;
      std::size_t i = e.hash >> shift_;
      while (slots_[i].len != kEmpty) i = (i + 1) & mask_;
      slots_[i] = std::move(e);
    }
  }

  std::vector<Entry> slots_;
  std::vector<char> arena_;
  std::size_t size_ = 0, limit_ = 0, mask_ = 0, key_bytes_ = 0;
  unsigned shift_ = 64;
};

}  // namespace harness::cpu
