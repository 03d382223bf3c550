// PairStore: pairs kept in order with their key bytes (empty keys and keys
// with zero bytes included) and turned into the harness's key/value list.
#include <gtest/gtest.h>

#include <cstring>

#include "frameworks/mapreduce/cpu/pair_store.h"

namespace harness::cpu {
namespace {

TEST(PairStore, KeepsKeysAndValuesInOrder) {
  PairStore<std::uint32_t> store;
  store.reserve(2, 8);
  std::memcpy(store.add(3, 7), "abc", 3);
  store.add(0, 9);
  std::memcpy(store.add(5, 1), "d\0e\tf", 5);
  apps::KeyValueList out;
  store.append_to(out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(store.size(), 3u);
  EXPECT_EQ(out[0].first, "abc");
  EXPECT_EQ(out[1].first, "");
  EXPECT_EQ(out[2].first, std::string("d\0e\tf", 5));
  std::uint32_t v;
  std::memcpy(&v, out[1].second.data(), 4);
  EXPECT_EQ(v, 9u);
}

}  // namespace
}  // namespace harness::cpu
