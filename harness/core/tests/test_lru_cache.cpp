// LruCache: a hit does not make the value again, the least recently used is
// the one evicted, and a value handed out outlives its eviction.
#include <gtest/gtest.h>

#include <string>

#include "harness/core/lru_cache.h"

namespace harness {
namespace {

TEST(LruCache, MakesOnceEvictsTheLeastRecentlyUsedAndKeepsHandedOutValues) {
  LruCache<std::string, int> cache(2);
  int made = 0;
  auto get = [&](const std::string& key, int value) {
    return cache.get_or_make(key, [&] {
      ++made;
      return std::make_shared<const int>(value);
    });
  };
  const auto a = get("a", 1);
  EXPECT_EQ(*get("b", 2), 2);
  EXPECT_EQ(*get("a", 99), 1);  // a hit: the value made first
  EXPECT_EQ(made, 2);
  EXPECT_EQ(*get("c", 3), 3);  // evicts b, used less recently than a
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(*get("a", 99), 1);
  EXPECT_EQ(made, 3);
  EXPECT_EQ(*get("b", 4), 4);  // made again
  EXPECT_EQ(made, 4);
  EXPECT_EQ(*get("c", 99), 99);  // evicted by b (a was used after c)
  EXPECT_EQ(*a, 1);              // a value handed out stays valid
}

TEST(LruCache, CapacityZeroKeepsOne) {
  LruCache<int, int> cache(0);
  int made = 0;
  auto make = [&] {
    ++made;
    return std::make_shared<const int>(7);
  };
  cache.get_or_make(1, make);
  cache.get_or_make(1, make);
  EXPECT_EQ(made, 1);
}

}  // namespace
}  // namespace harness
