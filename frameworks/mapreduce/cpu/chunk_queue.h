// Dynamic scheduling for the map phase: threads take the next chunk of the
// work when they finish one, instead of one fixed share each, so that a
// thread slowed down (another process on its core, a costly stretch of the
// input) does not leave the others idle at the end of the phase.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>

namespace harness::cpu {

class ChunkQueue {
 public:
  // Chunks of [0, count) of `chunk` items each (the last may be shorter).
  ChunkQueue(std::size_t count, std::size_t chunk)
      : count_(count), chunk_(std::max<std::size_t>(chunk, 1)) {}

  // The next chunk [begin, end); false when all have been taken.
  bool next(std::size_t& begin, std::size_t& end) {
    begin = next_.fetch_add(chunk_, std::memory_order_relaxed);
    if (begin >= count_) return false;
    end = std::min(begin + chunk_, count_);
    return true;
  }

  // Chunks for `threads` threads: about kChunksPerThread each, so the last
  // ones are short next to the phase, but at least `min_chunk` items.
  static std::size_t chunk_for(std::size_t count, unsigned threads, std::size_t min_chunk) {
    const std::size_t chunks = std::size_t{threads} * kChunksPerThread;
    return std::max(min_chunk, (count + chunks - 1) / chunks);
  }
  static constexpr std::size_t kChunksPerThread = 64;

 private:
  std::atomic<std::size_t> next_{0};
  std::size_t count_, chunk_;
};

}  // namespace harness::cpu
