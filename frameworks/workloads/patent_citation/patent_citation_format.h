// Patent Citation's input: fixed-length text records, one citation each, as
// in the NBER patent citation file with both numbers zero-padded:
//   CITING,CITED\n     e.g. "03858241,00956203\n"
// 18 bytes: the citing patent's number (8 decimal digits), ',', the cited
// patent's number (8 digits), '\n'.
#pragma once

#include <cstddef>
#include <cstdint>

namespace harness::workloads::patent_citation {

inline constexpr std::size_t kRecordBytes = 18;
inline constexpr std::size_t kIdDigits = 8;
inline constexpr std::size_t kCitingAt = 0;    // offset of the citing number in a record
inline constexpr std::size_t kCommaAt = 8;     // ','
inline constexpr std::size_t kCitedAt = 9;     // offset of the cited number
inline constexpr std::size_t kNewlineAt = 17;  // '\n'
inline constexpr std::uint32_t kMaxId = 99'999'999;

// The value of the kIdDigits decimal digits at `digits` (checked beforehand).
inline std::uint32_t id_value(const std::uint8_t* digits) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < kIdDigits; ++i) v = v * 10 + (digits[i] - '0');
  return v;
}

// Throws RunError naming the first malformed record (its index and byte
// offset): a size that is not a whole number of records (the last one cut
// short), a byte of a number that is not a digit, a missing ',' or '\n'.
void check_records(const std::uint8_t* data, std::size_t size);

}  // namespace harness::workloads::patent_citation
