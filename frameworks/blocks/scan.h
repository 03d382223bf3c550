// Device-wide exclusive prefix sum (frameworks/blocks/kernels/scan.cl).
#pragma once

#include <memory>

#include "frameworks/blocks/buffer_pool.h"

namespace harness::blocks {

class Scan {
 public:
  explicit Scan(BufferPool& pool);
  // Returned by exclusive() when the total does not fit 32 bits.
  static constexpr std::uint64_t kOverflow = std::uint64_t{1} << 32;
  // In-place exclusive scan of data[0, n); returns the total, or kOverflow
  // when the total is 2^32 or more (the scanned values then wrapped). The
  // total is read back (a wait for the queue: callers need it to size their
  // outputs) before the passes that add the tile offsets, which are still
  // enqueued on return: later work on the same queue sees the finished scan,
  // a host clock must finish the queue first.
  std::uint64_t exclusive(backend::Buffer& data, std::uint32_t n);

 private:
  std::uint32_t scan_level(backend::Buffer& data, std::uint32_t n, int level);
  BufferPool& pool_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel tiles_, add_;
  std::uint32_t overflow_ = 0;
};

}  // namespace harness::blocks
