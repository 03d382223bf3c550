// The MAP_GROUP grouping shared by Patent Citation, Geo Location and Inverted
// Index: the key table, partitions, the parallel grouping and its output
// against a plain map, values mapped past 32 bits; the parallel counting of
// Word Count and Page View Count; keys that are bytes of the input.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "frameworks/workloads/group_by_key.h"

namespace harness::workloads::group_by_key {
namespace {

// Keys that are numbers, with or without thread-local tables.
template <bool kTable>
struct Numbers {
  using Key = std::uint64_t;
  static constexpr bool kThreadLocalTable = kTable;
  std::uint64_t hash(Key k) const { return mix64(k); }
  bool equal(Key a, Key b) const { return a == b; }
  std::string_view text(const Key& k) const { return {reinterpret_cast<const char*>(&k), 8}; }
};

using NumberKeys = Numbers<true>;

std::string key_text(std::uint64_t k) { return std::string(reinterpret_cast<const char*>(&k), 8); }

TEST(GroupByKey, KeyTableNumbersKeysInFirstAppearanceAndCountsThroughGrowth) {
  const NumberKeys ops;
  KeyTable<NumberKeys> table(ops, 1);
  std::uint32_t groups = 0;
  const auto new_group = [&] { return groups++; };
  for (std::uint64_t k = 0; k < 10000; ++k)
    EXPECT_EQ(table.add(k * 3, ops.hash(k * 3), 1, new_group), k);
  for (std::uint64_t k = 0; k < 10000; k += 2)
    EXPECT_EQ(table.add(k * 3, ops.hash(k * 3), 5, new_group), k);
  EXPECT_EQ(table.keys(), 10000u);
  EXPECT_EQ(groups, 10000u);
  std::size_t seen = 0;
  table.for_each([&](std::uint64_t key, std::uint32_t group, std::uint32_t count) {
    ASSERT_EQ(key, group * 3u);
    ASSERT_EQ(count, group % 2 ? 1u : 6u) << group;
    ++seen;
  });
  EXPECT_EQ(seen, 10000u);
}

TEST(GroupByKey, PartitionsCoverEveryHash) {
  for (unsigned partitions : {1u, 4u, 12u, 64u}) {
    EXPECT_EQ(partition_of(0, partitions), 0u);
    EXPECT_EQ(partition_of(~std::uint64_t{0}, partitions), partitions - 1);
    std::set<unsigned> seen;
    for (std::uint64_t k = 0; k < 1000; ++k) seen.insert(partition_of(mix64(k), partitions));
    EXPECT_EQ(seen.size(), partitions);
  }
  EXPECT_EQ(partitions_for(1, 1000), 4u);
  EXPECT_EQ(partitions_for(16, 1000), 64u);
  EXPECT_EQ(partitions_for(16, 100 * kRecordsPerPartition), 100u);
  EXPECT_EQ(partitions_for(2, std::size_t{1} << 40), kMaxPartitions);
}

TEST(GroupByKey, HashOfBytesSeesLengthAndEveryByte) {
  const auto h = [](std::string_view s) {
    return hash_bytes(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  };
  EXPECT_NE(h(std::string_view("a\0", 2)), h("a"));
  EXPECT_NE(h("Paris, Ile-de-France, France"), h("Paris, Ile-de-France, Francf"));
  EXPECT_NE(h("abcdefgh"), h("abcdefgi"));
  EXPECT_EQ(h("same text"), h(std::string("same text")));
}

// 20000 records: key i*i % 997 (repeats and a skewed spread), value i,
// threads taking every threads-th record.
template <class Keys>
void expect_grouping_equals_a_plain_map() {
  std::map<std::string, std::vector<std::int64_t>> plain;
  for (std::uint32_t i = 0; i < 20000; ++i) plain[key_text(i * i % 997)].push_back(i);
  const TableOutput expected = table_of_groups(plain);
  for (unsigned threads : {1u, 2u, 3u, 7u, 16u}) {
    auto out =
        group_in_parallel(Keys{}, threads, 20000, [&](unsigned t, ThreadGroups<Keys>& groups) {
          for (std::uint32_t i = t; i < 20000; i += threads)
            groups.add(std::uint64_t{i} * i % 997, i);
        });
    EXPECT_EQ(out->items(), expected.rows());
    out->finish();
    EXPECT_EQ(out->compare_with(expected, {}), "") << threads << " threads";
    std::ostringstream a, b;
    out->dump(a);
    expected.dump(b);
    EXPECT_EQ(a.str(), b.str());
  }
}

TEST(GroupByKey, ParallelGroupingEqualsAPlainMapOnEveryThreadCount) {
  expect_grouping_equals_a_plain_map<Numbers<true>>();
  expect_grouping_equals_a_plain_map<Numbers<false>>();
}

TEST(GroupByKey, BlockListKeepsItsItemsInOrderAcrossBlocks) {
  BlockList<std::uint32_t> list;
  EXPECT_EQ(list.size(), 0u);
  for (std::uint32_t i = 0; i < 100000; ++i) list.push(i * 3);
  EXPECT_EQ(list.size(), 100000u);
  std::uint32_t expected = 0;
  list.for_each([&](std::uint32_t v) {
    ASSERT_EQ(v, expected * 3);
    ++expected;
  });
  EXPECT_EQ(expected, 100000u);
}

TEST(GroupByKey, SameBytesComparesEveryByte) {
  const std::string a = "Paris, Ile-de-France, France", b = "Paris, Ile-de-France, Francf";
  const auto* x = reinterpret_cast<const std::uint8_t*>(a.data());
  const auto* y = reinterpret_cast<const std::uint8_t*>(b.data());
  EXPECT_TRUE(same_bytes(x, y, a.size() - 1));
  EXPECT_FALSE(same_bytes(x, y, a.size()));
  for (std::size_t n = 0; n <= a.size(); ++n) EXPECT_TRUE(same_bytes(x, x, n));
  EXPECT_FALSE(same_bytes(x + 1, y, 3));
}

TEST(GroupByKey, ComparisonNamesAKeyWithOtherIds) {
  std::map<std::string, std::vector<std::int64_t>> plain = {{key_text('k'), {1, 2}},
                                                            {key_text('m'), {3}}};
  const TableOutput expected = table_of_groups(plain);
  auto out =
      group_in_parallel(NumberKeys{}, 2, 2, [&](unsigned t, ThreadGroups<NumberKeys>& groups) {
        if (t == 0) groups.add(std::uint64_t{'k'}, 1);
        if (t == 1) groups.add(std::uint64_t{'k'}, 5);
      });
  out->finish();
  const std::string why = out->compare_with(expected, {});
  EXPECT_NE(why.find("other ids"), std::string::npos) << why;
  EXPECT_NE(why.find("missing key"), std::string::npos) << why;
}

// Numbers whose records' values are mapped past 32 bits in the answer (as
// inverted-index maps page numbers to byte offsets).
struct MappedNumbers : Numbers<true> {
  std::int64_t value(std::uint32_t v) const {
    return (std::int64_t{1} << 40) + 3 * std::int64_t{v};
  }
};

TEST(GroupByKey, KeyOpsMayMapTheValuesPast32Bits) {
  std::map<std::string, std::vector<std::int64_t>> plain;
  for (std::uint32_t i = 0; i < 5000; ++i)
    plain[key_text(i % 37)].push_back((std::int64_t{1} << 40) + 3 * std::int64_t{i});
  const TableOutput expected = table_of_groups(plain);
  for (unsigned threads : {1u, 3u, 16u}) {
    auto out = group_in_parallel(MappedNumbers{}, threads, 5000,
                                 [&](unsigned t, ThreadGroups<MappedNumbers>& groups) {
                                   for (std::uint32_t i = t; i < 5000; i += threads)
                                     groups.add(i % 37, i);
                                 });
    out->finish();
    EXPECT_EQ(out->compare_with(expected, {}), "") << threads << " threads";
  }
}

TEST(GroupByKey, CountsInParallelEqualAPlainMapOnEveryThreadCount) {
  std::map<std::string, std::int64_t> plain;
  for (std::uint32_t i = 0; i < 20000; ++i) ++plain[key_text(std::uint64_t{i} * i % 997)];
  const TableOutput expected = table_of_counts(plain);
  EXPECT_EQ(expected.rows(), plain.size());
  for (unsigned threads : {1u, 2u, 3u, 7u, 16u}) {
    auto out =
        count_in_parallel(NumberKeys{}, threads, [&](unsigned t, KeyCounts<NumberKeys>& counts) {
          for (std::uint32_t i = t; i < 20000; i += threads) counts.add(std::uint64_t{i} * i % 997);
        });
    out->finish();
    EXPECT_EQ(out->compare_with(expected, {}), "") << threads << " threads";
    std::ostringstream a, b;
    out->dump(a);
    expected.dump(b);
    EXPECT_EQ(a.str(), b.str());
  }
}

TEST(GroupByKey, InputBytesKeysAreTheBytesWhereTheyLie) {
  const std::string text = "Paris Rome Paris paris";
  const auto* at = reinterpret_cast<const std::uint8_t*>(text.data());
  const InputBytesKeys ops;
  const auto first = InputBytesKeys::key(at, at + 5), again = InputBytesKeys::key(at + 11, at + 16);
  const auto lower = InputBytesKeys::key(at + 17, at + 22), empty = InputBytesKeys::key(at, at);
  EXPECT_TRUE(ops.equal(first, again));
  EXPECT_EQ(ops.hash(first), ops.hash(again));
  EXPECT_FALSE(ops.equal(first, lower));
  EXPECT_FALSE(ops.equal(first, InputBytesKeys::key(at, at + 4)));
  EXPECT_TRUE(ops.equal(empty, InputBytesKeys::key(at + 6, at + 6)));
  EXPECT_EQ(ops.text(again), "Paris");
  EXPECT_EQ(ops.text(empty), "");
}

}  // namespace
}  // namespace harness::workloads::group_by_key
