// DNA Assembly's input and answer (README.md): 100-byte fragment records
// (datasets/dna_fragments.h's layout) whose 36 bases the kernel reads: a
// left edge of 2 bases, the 32-base part it hashes, a right edge of 2 bases.
// The answer has a row per distinct part: how many fragments have it and
// which edges they have (a 16-bit mask per side).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "datasets/dna_fragments.h"
#include "frameworks/workloads/outputs.h"

namespace harness::workloads::dna {

inline constexpr const char* kName = "dna-assembly";
inline constexpr std::size_t kRecordBytes = datasets::kFragmentRecordBytes;  // 100
inline constexpr std::size_t kFragmentAt = datasets::kFragmentBasesAt;       // 11
inline constexpr std::size_t kFragmentBases = datasets::kFragmentBases;      // 36: 36%
inline constexpr std::size_t kEdgeBases = 2;
inline constexpr std::size_t kPartBases = 32;
inline constexpr std::size_t kPartAt = kFragmentAt + kEdgeBases;   // 13
inline constexpr std::size_t kRightEdgeAt = kPartAt + kPartBases;  // 45
static_assert(2 * kEdgeBases + kPartBases == kFragmentBases);

// A C G T -> 0 1 2 3; -1 for any other byte.
inline int base_code(std::uint8_t c) {
  switch (c) {
    case 'A':
      return 0;
    case 'C':
      return 1;
    case 'G':
      return 2;
    case 'T':
      return 3;
    default:
      return -1;
  }
}

// An edge's bit in its side's mask: 4 * code(first base) + code(second base),
// so "AA" is bit 0, "AC" bit 1, ..., "TT" bit 15.
inline unsigned edge_bit(const std::uint8_t* edge) {
  return static_cast<unsigned>(4 * base_code(edge[0]) + base_code(edge[1]));
}

// The answer's shape: rows keyed by the part's 32 bases, integers (count,
// left_mask, right_mask).
std::unique_ptr<TableOutput> parts_table();

// Throws RunError naming the first malformed record: not a whole number of
// records, a record not ending in '\n' or holding one inside
// (fixed_text_records.h), a byte of the 36 bases not one of A C G T.
void check_input(const std::uint8_t* data, std::size_t size);

}  // namespace harness::workloads::dna
