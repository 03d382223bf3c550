// PrefetchBatch: items filled in place, full after N, drained in order.
#include <gtest/gtest.h>

#include <vector>

#include "frameworks/mapreduce/cpu/prefetch_batch.h"

namespace harness::cpu {
namespace {

TEST(PrefetchBatch, FillsInPlaceAndDrainsInOrder) {
  PrefetchBatch<int, 3> batch;
  std::vector<int> drained;
  auto take = [&](int& v) { drained.push_back(v); };
  for (int i = 0; i < 7; ++i) {
    batch.next() = i;
    if (batch.commit()) {
      EXPECT_EQ(i % 3, 2);
      batch.drain(take);
    }
  }
  batch.next() = 99;  // filled but not committed: not drained
  batch.drain(take);
  EXPECT_EQ(drained, (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
  batch.drain(take);
  EXPECT_EQ(drained.size(), 7u);
}

}  // namespace
}  // namespace harness::cpu
