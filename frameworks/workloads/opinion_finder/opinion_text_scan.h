// What the fast implementation sees of a tweet in one pass over its 146-byte
// text field, 16 bytes at a time with SSE2 (x86-64's baseline; a byte loop
// elsewhere): a bit per byte for its ASCII letters, and for each keyword a
// bit per byte where the keyword's first two letters start (any case). A
// word is then found by counting trailing zeros, and a keyword can only be
// where a word starts at such a bit: no branch per byte or per word.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "frameworks/workloads/opinion_finder/opinion_format.h"

namespace harness::workloads::opinion {

// A bit per byte of the text field (192 bits >= kTextBytes).
class TextBits {
 public:
  static constexpr std::size_t kWords = 3;
  static constexpr std::size_t kNone = kWords * 64;

  // The first set bit at or after `from`, or kNone.
  std::size_t next_set(std::size_t from) const { return next(from, 0); }
  // The first clear bit at or after `from`, or kNone.
  std::size_t next_clear(std::size_t from) const { return next(from, ~std::uint64_t{0}); }
  // The bits set whose lower neighbour is clear: where runs of set bits start.
  TextBits run_starts() const {
    TextBits s;
    for (std::size_t w = 0; w < kWords; ++w) {
      const std::uint64_t below = bits_[w] << 1 | (w > 0 ? bits_[w - 1] >> 63 : 0);
      s.bits_[w] = bits_[w] & ~below;
    }
    return s;
  }
  // The bits set whose upper neighbour is clear: where runs of set bits end.
  TextBits run_ends() const {
    TextBits e;
    for (std::size_t w = 0; w < kWords; ++w) {
      const std::uint64_t above = bits_[w] >> 1 | (w + 1 < kWords ? bits_[w + 1] << 63 : 0);
      e.bits_[w] = bits_[w] & ~above;
    }
    return e;
  }
  // Calls fn(bit) for each set bit, ascending.
  template <typename Fn>
  void for_each_set(Fn&& fn) const {
    for (std::size_t w = 0; w < kWords; ++w) {
      for (std::uint64_t b = bits_[w]; b != 0; b &= b - 1)
        fn(w * 64 + static_cast<std::size_t>(std::countr_zero(b)));
    }
  }
  TextBits operator&(const TextBits& o) const {
    TextBits r;
    for (std::size_t w = 0; w < kWords; ++w) r.bits_[w] = bits_[w] & o.bits_[w];
    return r;
  }
  void set(std::size_t bit) { bits_[bit / 64] |= std::uint64_t{1} << (bit % 64); }
  void set_word(std::size_t word, std::uint64_t bits) { bits_[word] = bits; }
  void clear_from(std::size_t bit) {
    for (std::size_t w = bit / 64; w < kWords; ++w)
      bits_[w] &= w == bit / 64 ? (std::uint64_t{1} << (bit % 64)) - 1 : 0;
  }
  bool operator==(const TextBits&) const = default;

 private:
  // The first bit at or after `from` of the bits XOR `flip`.
  std::size_t next(std::size_t from, std::uint64_t flip) const {
    std::size_t w = from / 64;
    if (w >= kWords) return kNone;
    std::uint64_t bits = (bits_[w] ^ flip) & (~std::uint64_t{0} << (from % 64));
    while (bits == 0) {
      if (++w == kWords) return kNone;
      bits = bits_[w] ^ flip;
    }
    return w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
  }

  std::uint64_t bits_[kWords] = {0, 0, 0};
};

// A keyword's first two letters, lower-case (second 0: a one-letter keyword).
struct KeywordPrefix {
  char first = 0, second = 0;
};

// The fast path reads 16-byte blocks covering the text field, and one byte
// more for a block's second letters: 161 bytes of the 200-byte record.
inline constexpr std::size_t kScanBlocks = (kTextBytes + 15) / 16;
static_assert(kScanBlocks * 16 + 1 <= kRecordBytes && kScanBlocks * 16 <= TextBits::kNone);

// The letters of text[0, kTextBytes), and in prefix_bits[k] the positions
// in it where prefixes[k] starts (its second letter may be the byte after
// the field). prefix_bits.size() == prefixes.size().
inline TextBits scan_text_bytes(const std::uint8_t* text, std::span<const KeywordPrefix> prefixes,
                                std::span<TextBits> prefix_bits) {
  TextBits letters;
  for (std::size_t i = 0; i < kTextBytes; ++i) {
    if (is_letter(text[i])) letters.set(i);
  }
  for (std::size_t k = 0; k < prefixes.size(); ++k) {
    prefix_bits[k] = TextBits();
    for (std::size_t i = 0; i < kTextBytes; ++i) {
      const KeywordPrefix& p = prefixes[k];
      if (lower(text[i]) == p.first && (p.second == 0 || lower(text[i + 1]) == p.second))
        prefix_bits[k].set(i);
    }
  }
  return letters;
}

#if defined(__SSE2__)
// The bits of 16 bytes at a time: bits_of(block) gives block's 16 bits; each
// 64-bit word is assembled in a register.
template <typename BlockBits>
TextBits gather_blocks(BlockBits bits_of) {
  TextBits t;
  for (std::size_t block = 0; block < kScanBlocks; block += 4) {
    std::uint64_t word = 0;
    for (std::size_t j = 0; j < 4 && block + j < kScanBlocks; ++j)
      word |= std::uint64_t{bits_of(block + j)} << (16 * j);
    t.set_word(block / 4, word);
  }
  t.clear_from(kTextBytes);
  return t;
}

inline TextBits scan_text_sse2(const std::uint8_t* text, std::span<const KeywordPrefix> prefixes,
                               std::span<TextBits> prefix_bits) {
  // c | 0x20 maps both cases of a letter to 'a'..'z' and no other byte there;
  // adding 128 - 'a' moves 'a'..'z' to -128..-103 as signed bytes, the only
  // values below -102.
  const __m128i kCase = _mm_set1_epi8(0x20);
  auto lowered = [&](std::size_t at) {
    return _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(text + at)), kCase);
  };
  const TextBits letters = gather_blocks([&](std::size_t block) {
    const __m128i kShift = _mm_set1_epi8(static_cast<char>(128 - 'a'));
    const __m128i kBelow = _mm_set1_epi8(static_cast<char>(-128 + 26));
    const __m128i shifted = _mm_add_epi8(lowered(16 * block), kShift);
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmplt_epi8(shifted, kBelow)));
  });
  for (std::size_t k = 0; k < prefixes.size(); ++k) {
    const __m128i first = _mm_set1_epi8(prefixes[k].first);
    // A one-letter keyword's second letter matches any byte.
    const __m128i second = _mm_set1_epi8(prefixes[k].second);
    const __m128i any = prefixes[k].second ? _mm_setzero_si128() : _mm_set1_epi8(-1);
    prefix_bits[k] = gather_blocks([&](std::size_t block) {
      const __m128i at_first = _mm_cmpeq_epi8(lowered(16 * block), first);
      const __m128i at_second = _mm_or_si128(_mm_cmpeq_epi8(lowered(16 * block + 1), second), any);
      return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_and_si128(at_first, at_second)));
    });
  }
  return letters;
}
#endif

inline TextBits scan_text(const std::uint8_t* text, std::span<const KeywordPrefix> prefixes,
                          std::span<TextBits> prefix_bits) {
#if defined(__SSE2__)
  return scan_text_sse2(text, prefixes, prefix_bits);
#else
  return scan_text_bytes(text, prefixes, prefix_bits);
#endif
}

}  // namespace harness::workloads::opinion
