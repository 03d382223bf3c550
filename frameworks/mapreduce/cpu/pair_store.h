// Output pairs as the CPU runtime collects them while timed: the key bytes of
// all pairs in one arena, the pairs as (offset, length, value), no allocation
// per pair. The harness's list of strings is built from them after the clock
// has stopped (append_to), as every runtime's output is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frameworks/mapreduce/apps/mapreduce_app.h"

namespace harness::cpu {

template <class Value>
class PairStore {
 public:
  void reserve(std::size_t pairs, std::size_t key_bytes) {
    pairs_.reserve(pairs);
    keys_.reserve(key_bytes);
  }

  // Appends a pair with a `len`-byte key; returns where the caller writes the key.
  char* add(std::uint32_t len, const Value& value) {
    const std::size_t off = keys_.size();
    keys_.resize(off + len);
    pairs_.push_back(Pair{off, len, value});
    return keys_.data() + off;
  }

  std::size_t size() const { return pairs_.size(); }

  // Appends every pair to `out`, the value as its raw bytes.
  void append_to(apps::KeyValueList& out) const {
    for (const Pair& p : pairs_) {
      out.emplace_back(std::string(keys_.data() + p.key_off, p.key_len),
                       std::string(reinterpret_cast<const char*>(&p.value), sizeof(Value)));
    }
  }

 private:
  struct Pair {
    std::size_t key_off;
    std::uint32_t key_len;
    Value value;
  };
  std::vector<char> keys_;
  std::vector<Pair> pairs_;
};

}  // namespace harness::cpu
