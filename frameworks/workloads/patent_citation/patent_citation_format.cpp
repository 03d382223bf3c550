#include "frameworks/workloads/patent_citation/patent_citation_format.h"

#include <fmt/format.h>

#include <string>

#include "harness/core/errors.h"

namespace harness::workloads::patent_citation {
namespace {

[[noreturn]] void malformed(std::size_t record, const std::string& what) {
  throw RunError(fmt::format("patent-citation: record {} at byte {}: {}", record,
                             record * kRecordBytes, what));
}

std::string shown(std::uint8_t c) {
  return c >= 0x20 && c < 0x7f ? fmt::format("'{}'", static_cast<char>(c))
                               : fmt::format("0x{:02x}", c);
}

void check_number(const std::uint8_t* record, std::size_t index, std::size_t at,
                  const char* which) {
  for (std::size_t i = at; i < at + kIdDigits; ++i) {
    if (record[i] < '0' || record[i] > '9')
      malformed(index, fmt::format("byte {} is {}, not a digit of the {} patent's number",
                                   index * kRecordBytes + i, shown(record[i]), which));
  }
}

void check_byte(const std::uint8_t* record, std::size_t index, std::size_t at, std::uint8_t want,
                const char* name) {
  if (record[at] != want)
    malformed(index, fmt::format("byte {} is {}, expected {}", index * kRecordBytes + at,
                                 shown(record[at]), name));
}

}  // namespace

void check_records(const std::uint8_t* data, std::size_t size) {
  const std::size_t records = size / kRecordBytes;
  for (std::size_t r = 0; r < records; ++r) {
    const std::uint8_t* record = data + r * kRecordBytes;
    check_number(record, r, kCitingAt, "citing");
    check_byte(record, r, kCommaAt, ',', "','");
    check_number(record, r, kCitedAt, "cited");
    check_byte(record, r, kNewlineAt, '\n', "'\\n'");
  }
  if (size % kRecordBytes != 0)
    malformed(records, fmt::format("cut short: {} bytes are not a whole number of {}-byte records",
                                   size, kRecordBytes));
}

}  // namespace harness::workloads::patent_citation
