// The fast implementation's table: a 32-base part packed into a 64-bit key
// (2 bits a base), with its count and edge masks, in an open-addressing
// table with linear probing that grows when three quarters full.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "frameworks/workloads/dna_assembly/dna_format.h"

namespace harness::workloads::dna {

static_assert(std::endian::native == std::endian::little, "pack_part reads bytes in order");

// The 2-bit code of an ASCII base: ((c >> 1) ^ (c >> 2)) & 3 maps A C G T
// (0x41 0x43 0x47 0x54) to 0 1 2 3, base_code's codes, with no branch.
inline constexpr std::uint64_t code_bits(std::uint64_t bytes) {
  return ((bytes >> 1) ^ (bytes >> 2)) & 0x0303030303030303ULL;
}

// The 32 bases at `bases`, base i in bits 2i and 2i+1: eight bases per 8-byte
// load, their codes gathered by shifts (SWAR).
inline std::uint64_t pack_part(const std::uint8_t* bases) {
  std::uint64_t key = 0;
  for (int q = 0; q < 4; ++q) {
    std::uint64_t v;
    std::memcpy(&v, bases + 8 * q, 8);
    v = code_bits(v);                           // byte j: code of base j
    v = (v | v >> 6) & 0x000F000F000F000FULL;   // 16-bit lane k: bases 2k, 2k+1
    v = (v | v >> 12) & 0x000000FF000000FFULL;  // 32-bit lane m: bases 4m..4m+3
    v = (v | v >> 24) & 0xFFFFULL;              // bases 0..7
    key |= v << (16 * q);
  }
  return key;
}

// An edge's mask bit (edge_bit's) from its two ASCII bases.
inline std::uint16_t edge_mask(const std::uint8_t* edge) {
  const auto bit = 4 * code_bits(edge[0]) + code_bits(edge[1]);
  return static_cast<std::uint16_t>(1u << bit);
}

inline std::string unpack_part(std::uint64_t key) {
  std::string bases(kPartBases, ' ');
  for (std::size_t i = 0; i < kPartBases; ++i) bases[i] = "ACGT"[(key >> (2 * i)) & 3];
  return bases;
}

// The key with its 32 two-bit bases in reverse order, base 0 highest: as
// integers these order parts as their text does (A < C < G < T, the codes'
// order). Its own inverse.
inline constexpr std::uint64_t part_text_order(std::uint64_t key) {
  key = ((key >> 2) & 0x3333333333333333ULL) | ((key & 0x3333333333333333ULL) << 2);
  key = ((key >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((key & 0x0F0F0F0F0F0F0F0FULL) << 4);
  key = ((key >> 8) & 0x00FF00FF00FF00FFULL) | ((key & 0x00FF00FF00FF00FFULL) << 8);
  key = ((key >> 16) & 0x0000FFFF0000FFFFULL) | ((key & 0x0000FFFF0000FFFFULL) << 16);
  return (key >> 32) | (key << 32);
}

// MurmurHash3's finalizer: every key bit reaches every hash bit.
inline std::uint64_t part_hash(std::uint64_t key) {
  key ^= key >> 33;
  key *= 0xFF51AFD7ED558CCDULL;
  key ^= key >> 33;
  key *= 0xC4CEB9FE1A85EC53ULL;
  return key ^ (key >> 33);
}

struct PartSlot {
  std::uint64_t key = 0;
  std::uint32_t count = 0;  // 0: an empty slot
  std::uint16_t left = 0, right = 0;
};
static_assert(sizeof(PartSlot) == 16);

class PartTable {
 public:
  PartTable() = default;
  // Room for `expected` parts before the first growth.
  explicit PartTable(std::size_t expected) : slots_(expected + expected / 2 + 16) {}

  // Adds `part` (its key's fragments and edges) under hash = part_hash(key).
  void add(const PartSlot& part, std::uint64_t hash) {
    if (4 * (size_ + 1) > 3 * slots_.size()) grow();
    for (std::size_t i = home(hash);; i = i + 1 == slots_.size() ? 0 : i + 1) {
      PartSlot& s = slots_[i];
      if (s.count == 0) {
        s = part;
        ++size_;
        return;
      }
      if (s.key == part.key) {
        s.count += part.count;
        s.left |= part.left;
        s.right |= part.right;
        return;
      }
    }
  }
  // Where the probe for `hash` starts (to prefetch it).
  const PartSlot* home_slot(std::uint64_t hash) const { return slots_.data() + home(hash); }

  std::size_t size() const { return size_; }  // parts held
  std::span<const PartSlot> slots() const { return slots_; }
  void release() { *this = PartTable(); }

 private:
  // The hash's low 32 bits scaled to the capacity (below 2^32 slots).
  std::size_t home(std::uint64_t hash) const {
    return static_cast<std::size_t>(((hash & 0xFFFFFFFFULL) * slots_.size()) >> 32);
  }
  void grow() {
    PartTable bigger(2 * size_);
    for (const PartSlot& s : slots_) {
      if (s.count != 0) bigger.add(s, part_hash(s.key));
    }
    *this = std::move(bigger);
  }

  std::vector<PartSlot> slots_;
  std::size_t size_ = 0;
};

}  // namespace harness::workloads::dna
