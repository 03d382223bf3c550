// Word count's fast path pieces against plain byte-at-a-time versions: the
// letter mask, the word scanner (runs cut at arbitrary begin/end, across
// 64-byte blocks, at the input's end), the chunk cuts and the whole map.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "frameworks/mapreduce/cpu/flat_table.h"
#include "frameworks/mapreduce/cpu/word_count_map.h"

namespace harness::cpu {
namespace {

// Text with letters of both cases, digits, punctuation, UTF-8 bytes and
// words from 1 to 40 letters.
std::string random_text(std::size_t size, unsigned seed) {
  std::mt19937 rng(seed);
  const std::string others = " \n\t.,;0129@[`{\xc3\xa9\x80\xff";
  std::string s;
  while (s.size() < size) {
    const std::size_t len = rng() % 4 == 0 ? 1 + rng() % 40 : 1 + rng() % 8;
    for (std::size_t i = 0; i < len; ++i) {
      const char c = static_cast<char>('a' + rng() % 26);
      s += rng() % 5 == 0 ? static_cast<char>(c - 32) : c;
    }
    for (std::size_t i = 1 + rng() % 3; i > 0; --i) s += others[rng() % others.size()];
  }
  s.resize(size);
  return s;
}

std::vector<std::pair<std::size_t, std::uint32_t>> words_bytewise(const std::string& s,
                                                                  std::size_t begin,
                                                                  std::size_t end) {
  std::vector<std::pair<std::size_t, std::uint32_t>> words;
  for (std::size_t i = begin; i < end;) {
    if (!is_ascii_letter(static_cast<std::uint8_t>(s[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < end && is_ascii_letter(static_cast<std::uint8_t>(s[j]))) ++j;
    words.emplace_back(i, static_cast<std::uint32_t>(j - i));
    i = j;
  }
  return words;
}

const std::uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

TEST(WordScanner, LettersAreExactlyAsciiLetters) {
  for (unsigned c = 0; c < 256; ++c) {
    const bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    EXPECT_EQ(is_ascii_letter(static_cast<std::uint8_t>(c)), letter) << c;
    std::uint8_t block[64];
    for (unsigned i = 0; i < 64; ++i) block[i] = static_cast<std::uint8_t>(i % 2 ? c : 'q');
    const std::uint64_t odd = letter ? ~std::uint64_t{0} : 0x5555555555555555ULL;
    EXPECT_EQ(letter_mask(block), odd) << c;
    EXPECT_EQ(letter_mask_portable(block), odd) << c;
  }
}

TEST(WordScanner, FindsTheSameWordsAsAByteLoop) {
  for (unsigned seed = 0; seed < 20; ++seed) {
    const std::string s = random_text(100 + seed * 97, seed);
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 20; ++trial) {
      std::size_t begin = rng() % s.size(), end = rng() % (s.size() + 1);
      if (begin > end) std::swap(begin, end);
      std::vector<std::pair<std::size_t, std::uint32_t>> got;
      for_each_word(bytes(s), s.size(), begin, end,
                    [&](std::size_t start, std::uint32_t len) { got.emplace_back(start, len); });
      EXPECT_EQ(got, words_bytewise(s, begin, end)) << seed << " [" << begin << ", " << end << ")";
    }
  }
}

TEST(WordScanner, RunsAcrossBlocksAndToTheInputsEnd) {
  const std::string s = std::string(63, '.') + std::string(130, 'W') + "." + std::string(70, 'x');
  std::vector<std::pair<std::size_t, std::uint32_t>> got;
  for_each_word(bytes(s), s.size(), 0, s.size(),
                [&](std::size_t start, std::uint32_t len) { got.emplace_back(start, len); });
  const std::vector<std::pair<std::size_t, std::uint32_t>> expected = {{63, 130}, {194, 70}};
  EXPECT_EQ(got, expected);
}

TEST(WordCountMap, CutsOnlyBetweenWords) {
  const std::string s = "ab cdef  g";
  EXPECT_EQ(WordCountMap::cut(bytes(s), s.size(), 0), 0u);
  EXPECT_EQ(WordCountMap::cut(bytes(s), s.size(), 1), 2u);
  EXPECT_EQ(WordCountMap::cut(bytes(s), s.size(), 2), 2u);
  EXPECT_EQ(WordCountMap::cut(bytes(s), s.size(), 4), 7u);
  EXPECT_EQ(WordCountMap::cut(bytes(s), s.size(), 8), 8u);
  EXPECT_EQ(WordCountMap::cut(bytes(s), s.size(), 10), 10u);
}

TEST(WordCountMap, PacksLowerCasedWordsLikeTheGenericKeys) {
  const std::string s = "HeLLo sixteenLETTERSx";
  EXPECT_EQ(WordCountMap::short_key(bytes(s), s.size(), 0, 5), pack_key("hello", 5).w0);
  EXPECT_EQ(WordCountMap::short_key(bytes(s), s.size(), 17, 4), pack_key("ersx", 4).w0);
  PackedKey key;
  WordCountMap::pack_lower(bytes(s), s.size(), 6, 15, key);  // at the input's end: no over-read
  const PackedKey expected = pack_key("sixteenlettersx", 15);
  EXPECT_EQ(key.w0, expected.w0);
  EXPECT_EQ(key.w1, expected.w1);
  EXPECT_EQ(key.hash, expected.hash);
}

// The whole map, with any number of partitions and chunks, against a count
// of the byte loop's words (short words go through the ShortKeyTable, longer
// ones straight to the partitions).
TEST(WordCountMap, CountsLikeAByteLoopInAnyChunks) {
  const std::string s = random_text(300000, 7);
  std::map<std::string, std::uint32_t> expected;
  for (const auto& [start, len] : words_bytewise(s, 0, s.size())) {
    std::string w = s.substr(start, len);
    for (char& c : w) c = static_cast<char>(c | 0x20);
    ++expected[w];
  }
  for (unsigned parts : {1u, 3u}) {
    for (std::size_t chunk : {std::size_t{1000}, std::size_t{65536}, s.size()}) {
      std::vector<FlatTable<std::uint32_t>> tables(parts);
      std::size_t next = 0;
      auto chunks = [&](std::size_t& begin, std::size_t& end) {
        if (next >= s.size()) return false;
        begin = WordCountMap::cut(bytes(s), s.size(), next);
        next = std::min(next + chunk, s.size());
        end = WordCountMap::cut(bytes(s), s.size(), next);
        return true;
      };
      const std::uint64_t words =
          WordCountMap::map(bytes(s), s.size(), chunks, tables,
                            [](std::uint32_t& into, std::uint32_t& from, bool inserted) {
                              into = inserted ? from : into + from;
                            });
      std::map<std::string, std::uint32_t> got;
      std::uint64_t total = 0;
      for (unsigned p = 0; p < parts; ++p) {
        tables[p].for_each([&](FlatTable<std::uint32_t>::Entry& e) {
          EXPECT_EQ(FlatTable<std::uint32_t>::partition(e.hash, parts), p);
          char buf[PackedKey::kInlineBytes];
          got[std::string(tables[p].key(e, buf))] += e.value;
          total += e.value;
        });
      }
      EXPECT_EQ(got, expected) << parts << " parts, chunks of " << chunk;
      EXPECT_EQ(words, total);
    }
  }
}

}  // namespace
}  // namespace harness::cpu
