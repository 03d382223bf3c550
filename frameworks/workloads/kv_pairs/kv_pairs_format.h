// kv-pairs' input (datasets/kv_pairs.h): a 16-byte header ("kv-pairs", u32
// key bytes K, u32 value bytes V), then fixed-length records of K key bytes
// and V value bytes, K and V multiples of 4 from 4 to 1024. An empty file is
// an input without records.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "datasets/kv_pairs.h"

namespace harness::workloads::kv_pairs {

inline constexpr const char* kName = "kv-pairs";

struct Layout {
  std::uint32_t key_bytes = 0, value_bytes = 0;
  std::uint64_t records = 0;
  std::uint32_t record_bytes() const { return key_bytes + value_bytes; }
  // Record i's key; its value follows the key.
  const std::uint8_t* record(const std::uint8_t* data, std::uint64_t i) const {
    return data + datasets::kKvHeaderBytes + i * record_bytes();
  }
};

// The header's sizes and the records they make. Throws RunError naming what
// is wrong: a file shorter than its header, another header, sizes that are
// not multiples of 4 from 4 to 1024, a last record cut short.
Layout read_layout(const std::uint8_t* data, std::size_t size);

// A little-endian 32-bit word (a value's first word).
inline std::uint32_t load_word(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

// The answer's key: the key's bytes as lower-case hex (byte order is the
// text's order); assign_key_text writes it into `text` (no allocation once
// `text` has the room).
std::string key_text(const std::uint8_t* key, std::size_t bytes);
void assign_key_text(std::string& text, const std::uint8_t* key, std::size_t bytes);

}  // namespace harness::workloads::kv_pairs
