// The fast implementation's dictionary: short words (at most 16 letters)
// packed into two 64-bit integers, lower-case letters first and zero bytes
// after, looked up in a small open-addressing table (no strings, one or two
// probes in a table that stays in the L1/L2 cache).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "datasets/sentiment_lexicon.h"
#include "frameworks/workloads/opinion_finder/opinion_format.h"

namespace harness::workloads::opinion {

// A word's letters as bytes in memory order (little-endian loads).
struct PackedWord {
  std::uint64_t lo = 0, hi = 0;
  bool operator==(const PackedWord&) const = default;
};

// The word of `letters` ASCII letters (1 to 16) at `text`, lower-cased.
// Reads 16 bytes at `text`: the caller guarantees they are in the buffer.
inline PackedWord load_word(const std::uint8_t* text, std::size_t letters) {
  std::uint64_t lo, hi;
  std::memcpy(&lo, text, 8);
  std::memcpy(&hi, text + 8, 8);
  auto keep = [](std::size_t bytes) {  // a mask of the first `bytes` (0 to 8) bytes
    return bytes >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * bytes)) - 1;
  };
  const std::uint64_t lo_mask = keep(letters), hi_mask = letters > 8 ? keep(letters - 8) : 0;
  // Every kept byte is a letter: setting bit 5 lower-cases it.
  constexpr std::uint64_t kCase = 0x2020202020202020ULL;
  return {(lo | kCase) & lo_mask, (hi | kCase) & hi_mask};
}

// A word from a dictionary or a keyword: lower-case letters, 1 to 16.
inline PackedWord pack_word(std::string_view word) {
  if (word.empty() || word.size() > kMaxWordLetters)
    throw std::logic_error("pack_word: a word of 1 to 16 letters");
  std::uint8_t bytes[16] = {};
  std::memcpy(bytes, word.data(), word.size());
  return load_word(bytes, word.size());
}

// Bits of a word's classes.
enum WordClass : std::uint8_t {
  kPositive = 1,
  kNegative = 2,
  kAdverb = 4,
};

// Words to their classes, by linear probing in a power-of-two table at most a
// quarter full. A word absent from it has no class (0).
class WordTable {
 public:
  explicit WordTable(std::size_t words) : slots_(std::bit_ceil(4 * words + 4)) {
    mask_ = slots_.size() - 1;
  }
  void add(std::string_view word, std::uint8_t classes) {
    const PackedWord w = pack_word(word);
    for (std::size_t i = hash(w) & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.classes == 0 || s.word == w) {
        s.word = w;
        s.classes |= classes;
        return;
      }
    }
  }
  std::uint8_t classes(const PackedWord& w) const {
    for (std::size_t i = hash(w) & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.classes == 0 || s.word == w) return s.classes;
    }
  }

  // The slots for a GPU kernel's copy of the table, three u64 a slot (the
  // word's lo and hi, its classes; 0 classes: empty), probed the same way:
  // from hash(word) & mask(), linear.
  std::vector<std::uint64_t> flat_slots() const {
    std::vector<std::uint64_t> flat;
    flat.reserve(3 * slots_.size());
    for (const Slot& s : slots_) flat.insert(flat.end(), {s.word.lo, s.word.hi, s.classes});
    return flat;
  }
  std::size_t mask() const { return mask_; }
  static std::size_t hash(const PackedWord& w) {
    return static_cast<std::size_t>((w.lo * 0x9E3779B97F4A7C15ULL ^ w.hi * 0xC2B2AE3D27D4EB4FULL) >>
                                    40);
  }

 private:
  struct Slot {
    PackedWord word;
    std::uint8_t classes = 0;  // 0: an empty slot
  };
  std::vector<Slot> slots_;
  std::size_t mask_;
};

// The three dictionaries (datasets/sentiment_lexicon.h) in one table.
inline WordTable sentiment_dictionary() {
  using datasets::kAdverbs, datasets::kNegativeWords, datasets::kPositiveWords;
  WordTable t(kPositiveWords.size() + kNegativeWords.size() + kAdverbs.size());
  for (std::string_view w : kPositiveWords) t.add(w, kPositive);
  for (std::string_view w : kNegativeWords) t.add(w, kNegative);
  for (std::string_view w : kAdverbs) t.add(w, kAdverb);
  return t;
}

}  // namespace harness::workloads::opinion
