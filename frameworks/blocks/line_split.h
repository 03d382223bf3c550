// Line records found on the device: the starts of the lines of an input
// already in device memory, as apps::split_lines finds them on the host (each
// line up to and including its '\n'; the last may lack one), so a runtime need
// not split records on the host (frameworks/blocks/kernels/line_split.cl).
#pragma once

#include <cstdint>
#include <memory>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/scan.h"

namespace harness::blocks {

class LineSplit {
 public:
  explicit LineSplit(BufferPool& pool);
  // Writes the starts of the lines of input[0, size) into the pool buffer
  // named `name`, then `size`: lines + 1 u32 (the record offsets the MapReduce
  // kernels take). Returns the number of lines (a wait for the device queue:
  // the count sizes the buffer); the write is still enqueued on return.
  std::uint32_t split(const backend::Buffer& input, std::uint32_t size, const std::string& name);
  // The offsets buffer of the last split.
  backend::Buffer& starts() { return *starts_; }

 private:
  BufferPool& pool_;
  Scan scan_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel count_, write_;
  backend::Buffer* starts_ = nullptr;
};

}  // namespace harness::blocks
