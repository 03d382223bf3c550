// An open-addressing hash table from byte-string keys to values, with the key
// bytes in one arena: the CPU runtime keeps one per (thread, partition), small
// enough to stay in cache, instead of node-based std::unordered_map<string>.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace harness::cpu {

// A fast 64-bit hash of a short byte string (8 bytes at a time, multiply-xorshift).
inline std::uint64_t hash_bytes(const char* p, std::size_t n) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  if (n) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
  }
  h ^= h >> 32;
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 29);
}

template <class Value>
class FlatTable {
 public:
  struct Entry {
    std::uint64_t hash = 0;
    std::uint32_t key_off = 0;
    std::uint32_t key_len = 0;  // kEmpty marks a free slot
    Value value{};
  };
  static constexpr std::uint32_t kEmpty = 0xffffffffu;

  FlatTable() { slots_.assign(16, Entry{0, 0, kEmpty, Value{}}); }

  // The value of `key`, inserted as Value{} when absent; `inserted` says which.
  Value& find_or_insert(std::string_view key, std::uint64_t hash, bool& inserted) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      Entry& e = slots_[i];
      if (e.key_len == kEmpty) {
        e.hash = hash;
        e.key_off = static_cast<std::uint32_t>(arena_.size());
        e.key_len = static_cast<std::uint32_t>(key.size());
        arena_.insert(arena_.end(), key.begin(), key.end());
        ++size_;
        inserted = true;
        return e.value;
      }
      if (e.hash == hash && e.key_len == key.size() &&
          std::memcmp(arena_.data() + e.key_off, key.data(), key.size()) == 0) {
        inserted = false;
        return e.value;
      }
    }
  }

  std::size_t size() const { return size_; }
  std::string_view key(const Entry& e) const { return {arena_.data() + e.key_off, e.key_len}; }
  // Calls fn(key, hash, value&) for every entry.
  template <class Fn>
  void for_each(Fn&& fn) {
    for (Entry& e : slots_) {
      if (e.key_len != kEmpty) fn(key(e), e.hash, e.value);
    }
  }

 private:
  void grow() {
    std::vector<Entry> old(slots_.size() * 2, Entry{0, 0, kEmpty, Value{}});
    old.swap(slots_);
    std::size_t mask = slots_.size() - 1;
    for (Entry& e : old) {
      if (e.key_len == kEmpty) continue;
      std::size_t i = e.hash & mask;
      while (slots_[i].key_len != kEmpty) i = (i + 1) & mask;
      slots_[i] = std::move(e);
    }
  }

  std::vector<Entry> slots_;
  std::vector<char> arena_;
  std::size_t size_ = 0;
};

}  // namespace harness::cpu
