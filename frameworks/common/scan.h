// Device-wide exclusive prefix sum (frameworks/common/kernels/scan.cl).
#pragma once

#include <memory>

#include "frameworks/common/buffer_pool.h"

namespace harness::mapreduce {

class Scan {
 public:
  explicit Scan(BufferPool& pool);
  // In-place exclusive scan of data[0, n); returns the total (reads it back,
  // which waits for the queue: callers need it to size their outputs).
  std::uint64_t exclusive(backend::Buffer& data, std::uint32_t n);

 private:
  std::uint32_t scan_level(backend::Buffer& data, std::uint32_t n, int level);
  BufferPool& pool_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel tiles_, add_;
};

}  // namespace harness::mapreduce
