// FlatTable and PackedKey: short keys (packed in the slot), long keys (in the
// arena), keys with zero bytes and the empty key, growth, merging one table
// into another through packed(), partitions.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "frameworks/mapreduce/cpu/flat_table.h"

namespace harness::cpu {
namespace {

PackedKey key_of(const std::string& s) {
  return pack_key(s.data(), static_cast<std::uint32_t>(s.size()));
}

// Keys of every length from 0 to 40 (both sides of the 16-byte inline limit),
// some differing only in a trailing zero byte.
std::vector<std::string> awkward_keys() {
  std::vector<std::string> keys;
  for (std::size_t len = 0; len <= 40; ++len) {
    keys.push_back(std::string(len, 'k'));
    if (len == 0) continue;
    keys.push_back(std::string(len, '\0'));
    keys.push_back(std::string(len - 1, 'k') + 'j');
  }
  keys.push_back(std::string("\0\0\0\x03", 4));  // a big-endian cluster id
  keys.push_back(std::string("\0\0\0\x03\0", 5));
  return keys;
}

TEST(PackedKey, ShortKeysAreInlineAndEqualKeysHashEqual) {
  const PackedKey a = key_of("sixteen-bytes!!!"), b = key_of(std::string("sixteen-bytes!!!"));
  EXPECT_TRUE(a.is_inline());
  EXPECT_EQ(a.w0, b.w0);
  EXPECT_EQ(a.w1, b.w1);
  EXPECT_EQ(a.hash, b.hash);
  const std::string long_key(17, 'x');
  const PackedKey l = key_of(long_key);
  EXPECT_FALSE(l.is_inline());
  EXPECT_EQ(l.bytes, long_key.data());
  EXPECT_EQ(l.hash, hash_bytes(long_key.data(), long_key.size()));
  // The length is part of a short key: trailing zero bytes make a different key.
  EXPECT_NE(key_of(std::string("ab\0", 3)).hash, key_of("ab").hash);
}

TEST(FlatTable, CountsEveryKeyThroughGrowth) {
  FlatTable<std::uint32_t> table(1);
  std::map<std::string, std::uint32_t> expected;
  std::vector<std::string> keys = awkward_keys();
  for (int i = 0; i < 5000; ++i) keys.push_back("key-" + std::to_string(i * 7919));
  for (int round = 0; round < 3; ++round) {
    for (const std::string& k : keys) {
      bool inserted = false;
      std::uint32_t& v = table.upsert(key_of(k), inserted);
      EXPECT_EQ(inserted, expected.count(k) == 0) << k.size();
      v = inserted ? 1 : v + 1;
      ++expected[k];
    }
  }
  EXPECT_EQ(table.size(), expected.size());
  std::map<std::string, std::uint32_t> got;
  table.for_each([&](FlatTable<std::uint32_t>::Entry& e) {
    char buf[PackedKey::kInlineBytes];
    got[std::string(table.key(e, buf))] = e.value;
  });
  EXPECT_EQ(got, expected);
}

TEST(FlatTable, MergesAnotherTable) {
  FlatTable<std::uint32_t> a, b;
  const std::vector<std::string> keys = awkward_keys();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    bool inserted = false;
    (i % 2 ? a : b).upsert(key_of(keys[i]), inserted) = 1;
    a.upsert(key_of(keys[i]), inserted) += 10;
  }
  FlatTable<std::uint32_t> merged;
  merged.reserve(a.size());
  merged.merge(a, [](std::uint32_t& into, std::uint32_t& from, bool inserted) {
    into = inserted ? from : into + from;
  });
  // One by one through packed(), as merge() does, into a table that must grow.
  b.for_each([&](FlatTable<std::uint32_t>::Entry& e) {
    bool inserted = false;
    merged.upsert(b.packed(e), inserted) += e.value;
  });
  ASSERT_EQ(merged.size(), keys.size());
  std::size_t key_bytes = 0;
  for (const std::string& k : keys) key_bytes += k.size();
  EXPECT_EQ(merged.key_bytes(), key_bytes);
  for (const std::string& k : keys) {
    bool inserted = false;
    EXPECT_EQ(merged.upsert(key_of(k), inserted), 11u) << k.size();
    EXPECT_FALSE(inserted);
  }
}

TEST(FlatTable, PartitionsCoverEveryPartAndStayInRange) {
  std::vector<int> seen(5);
  for (int i = 0; i < 1000; ++i) {
    const unsigned p = FlatTable<int>::partition(key_of("w" + std::to_string(i)).hash, 5);
    ASSERT_LT(p, 5u);
    ++seen[p];
  }
  for (int n : seen) EXPECT_GT(n, 100);
  EXPECT_EQ(FlatTable<int>::partition(~std::uint64_t{0}, 1), 0u);
}

TEST(FlatTable, KeepsValueListsOfAnyType) {
  FlatTable<std::vector<int>> table;
  for (int i = 0; i < 100; ++i) {
    bool inserted = false;
    table.upsert(key_of(std::string(i % 3 ? 5 : 30, 'a' + static_cast<char>(i % 3))), inserted)
        .push_back(i);
  }
  EXPECT_EQ(table.size(), 3u);
  std::size_t values = 0;
  table.for_each([&](FlatTable<std::vector<int>>::Entry& e) { values += e.value.size(); });
  EXPECT_EQ(values, 100u);
}

}  // namespace
}  // namespace harness::cpu
