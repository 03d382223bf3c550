#include "frameworks/bigkernel/records.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>

#include "harness/core/cuts.h"
#include "harness/core/errors.h"

namespace harness::bigkernel {

RecordTable RecordTable::fixed(std::uint64_t record_bytes, std::uint64_t size) {
  if (record_bytes == 0) throw RunError("bigkernel: a record of 0 bytes");
  RecordTable t;
  t.record_bytes_ = record_bytes;
  t.count_ = size / record_bytes;
  return t;
}

RecordTable RecordTable::variable(backend::Device& device,
                                  const std::vector<std::uint64_t>& entries, std::uint32_t words) {
  if (words == 0 || entries.size() < words || entries.size() % words != 0) {
    throw RunError("bigkernel: a record table of " + std::to_string(entries.size()) +
                   " words is no whole number of entries of " + std::to_string(words) +
                   " words with the end's entry");
  }
  RecordTable t;
  t.words_ = words;
  t.count_ = entries.size() / words - 1;
  for (std::uint64_t r = 0; r < t.count_; ++r) {
    if (entries[(r + 1) * words] < entries[r * words]) {
      throw RunError("bigkernel: record " + std::to_string(r + 1) + " starts before record " +
                     std::to_string(r));
    }
  }
  t.table_ = std::make_shared<blocks::PinnedArray<std::uint64_t>>(device);
  t.table_->resize(entries.size());
  std::memcpy(t.table_->data(), entries.data(), entries.size() * 8);
  return t;
}

std::uint64_t RecordTable::max_bytes(std::uint64_t n) const {
  if (!words_) return n * record_bytes_;
  n = std::min(n, count_);
  std::uint64_t most = 0;
  for (std::uint64_t first = 0; first + n <= count_; ++first)
    most = std::max(most, bytes(first, n));
  return most;
}

std::vector<std::uint64_t> line_piece_starts(const std::uint8_t* data, std::size_t size,
                                             std::uint64_t piece_bytes) {
  if (piece_bytes == 0) throw UsageError("bigkernel: pieces of 0 bytes");
  const std::uint64_t parts = (size + piece_bytes - 1) / piece_bytes;
  if (parts > std::numeric_limits<unsigned>::max()) {
    throw UsageError("bigkernel: " + std::to_string(parts) + " pieces of " +
                     std::to_string(piece_bytes) + " B are too many; take larger pieces");
  }
  std::vector<std::uint64_t> starts;
  if (size == 0) {
    starts.push_back(0);
    return starts;
  }
  const std::vector<std::size_t> cuts = line_cuts(data, size, static_cast<unsigned>(parts));
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    if (cuts[i + 1] > cuts[i]) starts.push_back(cuts[i]);
  }
  starts.push_back(size);
  return starts;
}

}  // namespace harness::bigkernel
