// Fixed-length text records (Opinion Finder's tweets, DNA Assembly's
// fragments): an input is a whole number of records of the same length, each
// a text line whose last byte is its only '\n'. The checks name the first bad
// record by its index and byte offsets, so a user can find it in the file.
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "harness/core/errors.h"

namespace harness::workloads {

// "<workload>: record <i> (bytes <first>-<last>), byte <offset>: <what>".
[[noreturn]] inline void throw_record_error(const std::string& workload, std::size_t record,
                                            std::size_t record_bytes, std::size_t offset,
                                            const std::string& what) {
  const std::size_t first = record * record_bytes;
  throw RunError(fmt::format("{}: record {} (bytes {}-{}), byte {}: {}", workload, record, first,
                             first + record_bytes - 1, offset, what));
}

// Throws RunError when `size` is not a whole number of records, naming the
// cut record.
inline void check_whole_records(const std::string& workload, std::size_t size,
                                std::size_t record_bytes) {
  if (size % record_bytes == 0) return;
  const std::size_t record = size / record_bytes;
  throw_record_error(workload, record, record_bytes, size,
                     fmt::format("the input ends after {} of the record's {} bytes (records are "
                                 "{} bytes: {} bytes are not a whole number of records)",
                                 size % record_bytes, record_bytes, record_bytes, size));
}

// Throws RunError for the first record that does not end in '\n' or holds a
// '\n' before its end, and for a size that is not a whole number of records.
inline void check_fixed_lines(const std::string& workload, const std::uint8_t* data,
                              std::size_t size, std::size_t record_bytes) {
  check_whole_records(workload, size, record_bytes);
  for (std::size_t r = 0, at = 0; at < size; ++r, at += record_bytes) {
    const void* early = std::memchr(data + at, '\n', record_bytes - 1);
    if (early) {
      const auto offset = static_cast<std::size_t>(static_cast<const std::uint8_t*>(early) - data);
      throw_record_error(workload, r, record_bytes, offset,
                         fmt::format("a '\\n' {} bytes into the record (a {}-byte record has "
                                     "its only '\\n' as its last byte)",
                                     offset - at, record_bytes));
    }
    const std::size_t last = at + record_bytes - 1;
    if (data[last] != '\n')
      throw_record_error(workload, r, record_bytes, last,
                         fmt::format("the record's last byte is 0x{:02x}, not '\\n'", data[last]));
  }
}

}  // namespace harness::workloads
