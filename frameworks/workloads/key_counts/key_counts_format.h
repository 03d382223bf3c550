// key-counts' input (datasets/keys_u64.h): a 16-byte header, "keys-u64" then
// u64 N (little-endian), then N little-endian u64 keys, any value (2^64 - 1
// too). An empty file (0 bytes) is an input without keys. The answer: for
// every distinct key, the number of times it occurs (a group-by count, GPU
// hash tables' standard benchmark: cuCollections' static_map inserting
// distinct keys, insert_or_apply over Zipf-skewed ones).
#pragma once

#include <cstddef>
#include <cstdint>

#include "datasets/keys_u64.h"

namespace harness::workloads::key_counts {

inline constexpr const char* kApp = "key-counts";
inline constexpr std::size_t kHeaderBytes = datasets::kKeysU64HeaderBytes;
static_assert(kHeaderBytes == 16);

// The keys, read in place: they start 16 bytes into the input, so they are
// aligned when the input is.
struct KeyArray {
  const std::uint64_t* keys;
  std::uint64_t count;
};

// check_keys, then the keys. std::logic_error when the input is not 8-byte
// aligned (the harness' input buffers are).
KeyArray read_keys(const std::uint8_t* data, std::size_t size);

// RunError with a one-line cause: an input shorter than its header, another
// header, N over 2^32 - 1, N not matching the input's size (naming both).
void check_keys(const std::uint8_t* data, std::size_t size);

}  // namespace harness::workloads::key_counts
