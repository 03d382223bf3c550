// Finds word count's words (maximal runs of ASCII letters) 64 bytes at a
// time: a SIMD compare turns 64 bytes into a bit mask of letters, and every
// bit that differs from the bit before it is a word start or a word end, found
// with one count-trailing-zeros each instead of a branch per byte.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace harness::cpu {

inline bool is_ascii_letter(std::uint8_t c) {
  return static_cast<std::uint8_t>((c | 0x20) - 'a') < 26;  // c | 0x20 folds A-Z onto a-z
}

// Bit i set when p[i] is an ASCII letter, i < 64: one byte at a time.
inline std::uint64_t letter_mask_portable(const std::uint8_t* p) {
  std::uint64_t m = 0;
  for (unsigned i = 0; i < 64; ++i) m |= std::uint64_t{is_ascii_letter(p[i])} << i;
  return m;
}

// The same mask, 16 bytes per instruction where SSE2 is there (every x86-64).
inline std::uint64_t letter_mask(const std::uint8_t* p) {
#if defined(__SSE2__)
  const __m128i fold = _mm_set1_epi8(0x20), below = _mm_set1_epi8('a' - 1),
                above = _mm_set1_epi8('z' + 1);
  std::uint64_t m = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const __m128i v =
        _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i)), fold);
    // Signed compares: bytes >= 0x80 are negative, so never letters.
    const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(v, below), _mm_cmpgt_epi8(above, v));
    m |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(letter))} << (16 * i);
  }
  return m;
#else
  return letter_mask_portable(p);
#endif
}

// Calls fn(start, length) for every maximal run of letters in data[begin,
// end), in order; data holds `size` >= end bytes. Bytes outside [begin, end)
// count as non-letters, so a run is cut at begin and end.
template <class Fn>
void for_each_word(const std::uint8_t* data, std::size_t size, std::size_t begin, std::size_t end,
                   Fn&& fn) {
  bool in_word = false;  // whether the byte before the current block is a letter
  std::size_t start = 0;
  for (std::size_t base = begin; base < end; base += 64) {
    std::uint64_t letters;
    if (base + 64 <= size) {
      letters = letter_mask(data + base);
    } else {  // the input's last bytes: do not read past them
      std::uint8_t last[64] = {};
      std::memcpy(last, data + base, size - base);
      letters = letter_mask(last);
    }
    if (end - base < 64) letters &= (std::uint64_t{1} << (end - base)) - 1;
    std::uint64_t edges = letters ^ ((letters << 1) | std::uint64_t{in_word});
    while (edges) {
      const std::size_t pos = base + static_cast<std::size_t>(std::countr_zero(edges));
      edges &= edges - 1;
      if (in_word) fn(start, static_cast<std::uint32_t>(pos - start));
      start = pos;
      in_word = !in_word;
    }
  }
  if (in_word) fn(start, static_cast<std::uint32_t>(end - start));
}

}  // namespace harness::cpu
