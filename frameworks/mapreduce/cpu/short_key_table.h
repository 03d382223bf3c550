// A hash table for keys of 1 to 8 bytes, none of them zero: word count's
// lower-cased words of up to 8 letters, 94% of the words of text-zipf. Such a
// key, zero padded, is its own 64-bit integer, so a slot is the key and its
// value (16 bytes for a count, half a FlatTable slot) and a lookup is one
// multiply and one compare. Half the memory for the same keys keeps twice as
// many of them in cache: word count's map takes about a third less time.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace harness::cpu {

template <class Value>
class ShortKeyTable {
 public:
  explicit ShortKeyTable(std::size_t capacity = 1024) {
    resize(std::bit_ceil(capacity < 16 ? std::size_t{16} : capacity));
  }

  // The value of `key` (non-zero), default-constructed when absent; `inserted`
  // says which. References stay valid until the next insertion.
  Value& upsert(std::uint64_t key, bool& inserted) {
    for (;;) {
      for (std::size_t i = slot_of(key);; i = (i + 1) & mask_) {
        Slot& s = slots_[i];
        if (s.key == key) {
          inserted = false;
          return s.value;
        }
        if (s.key == 0) {
          if (size_ >= slots_.size() / 2) break;  // at most half full: grow, probe again
          s.key = key;
          ++size_;
          inserted = true;
          return s.value;
        }
      }
      resize(slots_.size() * 2);
    }
  }

  void prefetch(std::uint64_t key) const { __builtin_prefetch(&slots_[slot_of(key)]); }

  std::size_t size() const { return size_; }

  // Calls fn(key, length in bytes, value&) for every key.
  template <class Fn>
  void for_each(Fn&& fn) {
    for (Slot& s : slots_) {
      if (s.key) fn(s.key, length(s.key), s.value);
    }
  }

  // The number of bytes of a key before its zero padding.
  static std::uint32_t length(std::uint64_t key) {
    if constexpr (std::endian::native == std::endian::little) {
      return static_cast<std::uint32_t>(8 - std::countl_zero(key) / 8);
    } else {
      return static_cast<std::uint32_t>(8 - std::countr_zero(key) / 8);
    }
  }

 private:
  struct Slot {
    std::uint64_t key = 0;  // 0: free
    Value value{};
  };

  // Fibonacci hashing: the top bits of the key times 2^64 / golden ratio.
  std::size_t slot_of(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ULL) >> shift_);
  }

  void resize(std::size_t slots) {
    std::vector<Slot> old(slots);
    old.swap(slots_);
    mask_ = slots - 1;
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(slots));
    for (const Slot& s : old) {
      if (s.key == 0) continue;
      std::size_t i = slot_of(s.key);
      while (slots_[i].key) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0, mask_ = 0;
  unsigned shift_ = 64;
};

}  // namespace harness::cpu
