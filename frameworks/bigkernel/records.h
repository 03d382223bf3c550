// The mapped input's records as the family cuts it into rounds (chunks of
// whole records, one thread a record): fixed-length records (K-means,
// netflix, opinion-finder, dna-assembly: record r is bytes [r x B, (r + 1) x
// B)) or variable-length ones (wc, mastercard, mastercard-indexed), given by
// a table of u64 words, `words` a record, word 0 the record's first byte,
// ascending, and one entry more whose word 0 is the end of the last record.
// A variable-length record is bytes [word 0 of r, word 0 of r + 1).
//
// The table is not mapped data: it lives in the host's pinned memory, and
// each round's slice of it (its records' entries and the one after them)
// goes to the device with the round (kernels/bigkernel.clh: BK_RECORD), so
// a kernel finds its record's bytes (and the record's other words: the
// index of mastercard-indexed) without reading mapped data, and the count of
// its reads may depend on the record. Rounds are whole records, so a record
// never straddles two rounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "frameworks/blocks/pinned_array.h"
#include "harness/backend/backend.h"

namespace harness::bigkernel {

class RecordTable {
 public:
  // size / record_bytes records of record_bytes (a shorter tail is no record).
  static RecordTable fixed(std::uint64_t record_bytes, std::uint64_t size);
  // Variable-length records: `entries` holds (records + 1) x words words as
  // above (word 0 ascending); copied into pinned memory of `device`.
  static RecordTable variable(backend::Device& device, const std::vector<std::uint64_t>& entries,
                              std::uint32_t words);

  std::uint64_t count() const { return count_; }
  bool variable() const { return words_ > 0; }
  // u64 words a record in the device's slice (0: fixed-length, no slice).
  std::uint32_t words() const { return words_; }
  // The first byte of record r, r <= count() (count(): the end of the last).
  std::uint64_t begin(std::uint64_t r) const {
    return words_ ? (*table_)[r * words_] : r * record_bytes_;
  }
  // Bytes of records [first, first + n).
  std::uint64_t bytes(std::uint64_t first, std::uint64_t n) const {
    return begin(first + n) - begin(first);
  }
  // The most bytes any n consecutive records take (n x B when fixed).
  std::uint64_t max_bytes(std::uint64_t n) const;
  // Bytes of the table's slice a round of n records sends ((n + 1) entries).
  std::uint64_t slice_bytes(std::uint64_t n) const { return words_ ? (n + 1) * words_ * 8 : 0; }
  // Where the slice of records [first, ...) starts in host_buffer().
  std::uint64_t slice_offset(std::uint64_t first) const { return first * words_ * 8; }
  // The table's pinned memory (variable() only), for Queue::write_async.
  backend::HostBuffer& host_buffer() { return table_->host_buffer(); }
  const std::uint64_t* entries() const { return words_ ? table_->data() : nullptr; }

 private:
  std::uint64_t count_ = 0;
  std::uint64_t record_bytes_ = 0;  // fixed-length
  std::uint32_t words_ = 0;         // variable-length
  std::shared_ptr<blocks::PinnedArray<std::uint64_t>> table_;
};

// The starts of the non-empty pieces of whole lines that the workloads' line
// cuts (harness/core/cuts.h) make of data[0, size) when they aim at pieces of
// `piece_bytes`, then `size`: a variable-length table of one word a record
// (wc's and mastercard's records). A line longer than a piece is one piece;
// an empty input has no piece.
std::vector<std::uint64_t> line_piece_starts(const std::uint8_t* data, std::size_t size,
                                             std::uint64_t piece_bytes);

}  // namespace harness::bigkernel
