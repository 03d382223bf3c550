// ChunkQueue: every item handed out exactly once across threads.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "frameworks/mapreduce/cpu/chunk_queue.h"

namespace harness::cpu {
namespace {

TEST(ChunkQueue, HandsOutEveryItemOnceAcrossThreads) {
  for (std::size_t count :
       {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{12345}}) {
    ChunkQueue queue(count, ChunkQueue::chunk_for(count, 4, 1));
    std::vector<std::atomic<int>> taken(count);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&] {
        std::size_t begin, end;
        while (queue.next(begin, end)) {
          EXPECT_LT(begin, end);
          for (std::size_t i = begin; i < end; ++i) ++taken[i];
        }
      });
    }
    for (auto& t : threads) t.join();
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(taken[i].load(), 1) << i;
  }
}

TEST(ChunkQueue, ChunksAreAtLeastTheMinimum) {
  EXPECT_EQ(ChunkQueue::chunk_for(100, 2, 64), 64u);
  EXPECT_EQ(ChunkQueue::chunk_for(0, 2, 1), 1u);
  EXPECT_EQ(ChunkQueue::chunk_for(1280, 2, 1), 10u);  // 64 chunks per thread
}

}  // namespace
}  // namespace harness::cpu
