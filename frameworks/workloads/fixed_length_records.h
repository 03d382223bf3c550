// What the workloads over fixed-length binary records share (kmeans-particles,
// netflix): an input that is a whole number of records or a RunError naming
// the cut one, a malformed record's message (record index and byte offset),
// and little-endian field loads.
#pragma once

#include <fmt/format.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "harness/core/errors.h"

namespace harness::workloads {

// The records' fields are little-endian; loads copy them as they are.
static_assert(std::endian::native == std::endian::little,
              "fixed-length record loads assume a little-endian host");

// A field of type T at `offset` bytes into `record` (any alignment).
template <typename T>
T load_field(const std::uint8_t* record, std::size_t offset) {
  T value;
  std::memcpy(&value, record + offset, sizeof value);
  return value;
}

// RunError "<app>: record <index> (byte offset <offset>): <what>".
[[noreturn]] inline void throw_bad_record(std::string_view app, std::uint64_t index,
                                          std::size_t record_bytes, std::string_view what) {
  throw RunError(
      fmt::format("{}: record {} (byte offset {}): {}", app, index, index * record_bytes, what));
}

// The number of records in `size` bytes; RunError naming the trailing bytes'
// offset when `size` is not a whole number of records.
inline std::uint64_t whole_records(std::string_view app, std::size_t size,
                                   std::size_t record_bytes) {
  const std::size_t left_over = size % record_bytes;
  if (left_over != 0)
    throw RunError(fmt::format(
        "{}: the input ({} bytes) is not a whole number of {}-byte records: the last {} bytes, "
        "from byte offset {}, are a cut record {}",
        app, size, record_bytes, left_over, size - left_over, size / record_bytes));
  return size / record_bytes;
}

}  // namespace harness::workloads
