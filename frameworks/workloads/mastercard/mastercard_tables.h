// The CPU-MT affinity's hash tables: open addressing with linear probing,
// doubling at half full, each used by one thread at a time (no locks), with
// no allocation per entry.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "harness/core/mix64.h"

namespace harness::workloads::mastercard {

using harness::mix64;  // harness/core/mix64.h

// Whether a[0, n) == b[0, n) (n <= 32, a merchant id): word by word, inline.
inline bool same_bytes(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x, y;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return false;
  }
  for (; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// A set of 64-bit keys (card values, or (customer, merchant) pairs; never
// ~0). A key's slot identifies it until an insert grows the set.
class KeySet {
 public:
  static constexpr std::size_t kAbsent = ~std::size_t{0};

  // Room for `expected` keys before the first growth.
  explicit KeySet(std::size_t expected = 0) {
    std::size_t slots = kMinSlots;
    while (slots < 2 * expected) slots *= 2;
    keys_.assign(slots, kEmpty);
    mask_ = slots - 1;
  }

  // Whether the key was new.
  bool insert(std::uint64_t key) {
    if (2 * (size_ + 1) > keys_.size()) grow();
    for (std::size_t i = mix64(key) & mask_;; i = (i + 1) & mask_) {
      if (keys_[i] == key) return false;
      if (keys_[i] == kEmpty) {
        keys_[i] = key;
        ++size_;
        return true;
      }
    }
  }
  // The key's slot, or kAbsent.
  std::size_t find(std::uint64_t key) const {
    for (std::size_t i = mix64(key) & mask_;; i = (i + 1) & mask_) {
      if (keys_[i] == key) return i;
      if (keys_[i] == kEmpty) return kAbsent;
    }
  }
  std::size_t size() const { return size_; }
  std::size_t slots() const { return keys_.size(); }
  // fn(key) for every key, in slot order.
  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (std::uint64_t k : keys_) {
      if (k != kEmpty) fn(k);
    }
  }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  static constexpr std::size_t kMinSlots = 256;
  void grow() {
    std::vector<std::uint64_t> old(keys_.size() * 2, kEmpty);
    old.swap(keys_);
    mask_ = keys_.size() - 1;
    for (std::uint64_t k : old) {
      if (k == kEmpty) continue;
      std::size_t i = mix64(k) & mask_;
      while (keys_[i] != kEmpty) i = (i + 1) & mask_;
      keys_[i] = k;
    }
  }
  std::vector<std::uint64_t> keys_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

// The first min(n, 8) bytes of `bytes` as a word, zero-padded.
inline std::uint64_t head_word(const std::uint8_t* bytes, std::size_t n) {
  std::uint64_t word = 0;
  if (n >= 8) {
    std::memcpy(&word, bytes, 8);
  } else {
    for (std::size_t i = 0; i < n; ++i) word |= std::uint64_t{bytes[i]} << (8 * i);
  }
  return word;
}

// Merchant ids (1-32 bytes, copied in) numbered by insertion. A slot holds
// an id's first 8 bytes, so an id of up to 8 bytes (the generator's) is found
// without touching anything else.
class MerchantTable {
 public:
  static constexpr std::size_t kMaxId = 32;
  struct Merchant {
    std::uint8_t id[kMaxId];
    std::uint32_t length;
  };
  // An id to look up, with its hash computed once.
  struct Key {
    const std::uint8_t* id;
    std::uint32_t length;  // <= kMaxId
    std::uint64_t head;    // the first 8 bytes
    std::uint64_t hash;
  };

  static Key key(const std::uint8_t* id, std::uint32_t length) {
    const std::uint64_t head = head_word(id, length);
    std::uint64_t h = mix64(head ^ (std::uint64_t{length} << 56));
    for (std::uint32_t i = 8; i < length; i += 8) h = mix64(h ^ head_word(id + i, length - i));
    return {id, length, head, h};
  }

  MerchantTable() : slots_(kInitialSlots, Slot{0, 0, kNone}), mask_(kInitialSlots - 1) {}

  // The key's number, the id added when new.
  std::uint32_t insert(const Key& k) {
    if (2 * (merchants_.size() + 1) > slots_.size()) grow();
    for (std::size_t i = k.hash & mask_;; i = (i + 1) & mask_) {
      const Slot s = slots_[i];
      if (s.number == kNone) {
        slots_[i] = {k.head, k.length, static_cast<std::uint32_t>(merchants_.size())};
        Merchant& m = merchants_.emplace_back();
        std::memcpy(m.id, k.id, k.length);
        m.length = k.length;
        return slots_[i].number;
      }
      if (s.head == k.head && s.length == k.length &&
          (k.length <= 8 || same_bytes(merchants_[s.number].id + 8, k.id + 8, k.length - 8)))
        return s.number;
    }
  }
  const std::vector<Merchant>& merchants() const { return merchants_; }

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  static constexpr std::size_t kInitialSlots = 1024;
  struct Slot {
    std::uint64_t head;
    std::uint32_t length;
    std::uint32_t number;
  };
  void grow() {
    std::vector<Slot> old(slots_.size() * 2, Slot{0, 0, kNone});
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.number == kNone) continue;
      std::size_t i = key(merchants_[s.number].id, s.length).hash & mask_;
      while (slots_[i].number != kNone) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }
  std::vector<Slot> slots_;
  std::size_t mask_;
  std::vector<Merchant> merchants_;
};

}  // namespace harness::workloads::mastercard
