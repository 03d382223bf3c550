// ShortKeyTable: keys of 1 to 8 non-zero bytes as integers, through growth,
// with their lengths recovered, against a std::map.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <string>

#include "frameworks/mapreduce/cpu/packed_key.h"
#include "frameworks/mapreduce/cpu/short_key_table.h"

namespace harness::cpu {
namespace {

std::uint64_t key_of(const std::string& s) {
  return pack_key(s.data(), static_cast<std::uint32_t>(s.size())).w0;
}

TEST(ShortKeyTable, CountsKeysOfEveryLengthThroughGrowth) {
  ShortKeyTable<std::uint32_t> table(1);
  std::map<std::string, std::uint32_t> expected;
  std::mt19937 rng(3);
  for (int i = 0; i < 200000; ++i) {
    std::string k(1 + rng() % 8, 'a');
    for (char& c : k) c = static_cast<char>(1 + rng() % (i % 2 ? 3 : 255));  // no zero byte
    bool inserted = false;
    std::uint32_t& v = table.upsert(key_of(k), inserted);
    EXPECT_EQ(inserted, expected.count(k) == 0);
    v = inserted ? 1 : v + 1;
    ++expected[k];
  }
  EXPECT_EQ(table.size(), expected.size());
  std::map<std::string, std::uint32_t> got;
  table.for_each([&](std::uint64_t key, std::uint32_t len, std::uint32_t& value) {
    char bytes[8];
    std::memcpy(bytes, &key, 8);
    got[std::string(bytes, len)] = value;
  });
  EXPECT_EQ(got, expected);
}

TEST(ShortKeyTable, LengthIsTheBytesBeforeThePadding) {
  EXPECT_EQ(ShortKeyTable<int>::length(key_of("a")), 1u);
  EXPECT_EQ(ShortKeyTable<int>::length(key_of("abcd")), 4u);
  EXPECT_EQ(ShortKeyTable<int>::length(key_of("abcdefgh")), 8u);
}

}  // namespace
}  // namespace harness::cpu
