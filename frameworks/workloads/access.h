// Measures which bytes of a mapped input a kernel touches (table 4.1's
// "mapped data access proportion"): an app's access walk marks every byte
// range its kernel reads or writes, then share() counts the distinct bytes.
// A byte read twice counts once, as a prefetcher would move it once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "frameworks/workloads/workload.h"

namespace harness::workloads {

class AccessMap {
 public:
  explicit AccessMap(std::size_t bytes) : read_(bytes), written_(bytes) {}
  void read(std::size_t offset, std::size_t length) { mark(read_, offset, length); }
  void write(std::size_t offset, std::size_t length) { mark(written_, offset, length); }
  AccessShare share(std::uint64_t records) const {
    AccessShare s;
    s.records = records;
    s.input_bytes = read_.size();
    for (bool b : read_) s.read_bytes += b;
    for (bool b : written_) s.written_bytes += b;
    return s;
  }

 private:
  static void mark(std::vector<bool>& bits, std::size_t offset, std::size_t length) {
    for (std::size_t i = offset; i < offset + length && i < bits.size(); ++i) bits[i] = true;
  }
  std::vector<bool> read_, written_;
};

// The access of a kernel that reads every byte of its input (to find each
// line's end, say) and writes none, a record being a line, a last line
// without '\n' included (Word Count, Page View Count, Inverted Index).
inline AccessShare every_byte_read_by_lines(const std::uint8_t* data, std::size_t size) {
  std::uint64_t lines = 0;
  for (std::size_t i = 0; i < size; ++i) lines += data[i] == '\n';
  if (size && data[size - 1] != '\n') ++lines;
  AccessMap map(size);
  map.read(0, size);
  return map.share(lines);
}

}  // namespace harness::workloads
