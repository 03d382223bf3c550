// String match's fast path against a plain search, in chunks cut anywhere
// (matches starting near a chunk's end read past it), overlapping matches and
// matches at the input's last byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "frameworks/mapreduce/cpu/pair_store.h"
#include "frameworks/mapreduce/cpu/string_match_map.h"

namespace harness::cpu {
namespace {

std::vector<std::uint32_t> offsets_by_find(const std::string& text, const std::string& pattern) {
  std::vector<std::uint32_t> out;
  for (std::size_t at = text.find(pattern); at != std::string::npos;
       at = text.find(pattern, at + 1)) {
    out.push_back(static_cast<std::uint32_t>(at));
  }
  return out;
}

std::vector<std::uint32_t> offsets_in_chunks(const std::string& text, const std::string& pattern,
                                             std::size_t chunk) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
  const auto* pat = reinterpret_cast<const std::uint8_t*>(pattern.data());
  PairStore<std::uint32_t> store;
  std::size_t next = 0;
  auto chunks = [&](std::size_t& begin, std::size_t& end) {
    if (next >= text.size()) return false;
    begin = StringMatchMap::cut(data, text.size(), next);
    next = std::min(next + chunk, text.size());
    end = StringMatchMap::cut(data, text.size(), next);
    return true;
  };
  const std::uint64_t found =
      StringMatchMap::map(data, text.size(), chunks, pat, pattern.size(), store);
  apps::KeyValueList pairs;
  store.append_to(pairs);
  EXPECT_EQ(found, pairs.size());
  std::vector<std::uint32_t> out;
  for (const auto& [key, value] : pairs) {
    EXPECT_EQ(key, pattern);
    std::uint32_t v;
    std::memcpy(&v, value.data(), sizeof v);
    out.push_back(v);
  }
  return out;
}

TEST(StringMatchMap, FindsEveryOccurrenceInAnyChunks) {
  std::mt19937 rng(5);
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "ab\n"[rng() % 3];
  text += "aba";
  for (const std::string pattern : {"a", "ab", "aba", "abab", "bbbbbb", "aba\x01"}) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{4096}, text.size()}) {
      EXPECT_EQ(offsets_in_chunks(text, pattern, chunk), offsets_by_find(text, pattern))
          << pattern << " in chunks of " << chunk;
    }
  }
}

TEST(StringMatchMap, PatternLongerThanTheInputMatchesNothing) {
  EXPECT_TRUE(offsets_in_chunks("abc", "abcd", 2).empty());
  EXPECT_EQ(offsets_in_chunks("abc", "abc", 1), (std::vector<std::uint32_t>{0}));
}

}  // namespace
}  // namespace harness::cpu
