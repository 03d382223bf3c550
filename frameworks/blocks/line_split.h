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

  // The same starts as u64 into `starts` (the hash table family's record
  // index), which holds `capacity` of them: lines + 1 with the end. With
  // skip_empty a line that is empty ("\n", "\r\n", a last "\r") is no
  // record. Returns the lines found; when more than capacity - 1, nothing is
  // written (the caller's count of records was wrong). A wait for the queue.
  std::uint32_t split_wide(const backend::Buffer& input, std::uint32_t size, bool skip_empty,
                           backend::Buffer& starts, std::uint64_t capacity);
  // Device bytes a split of `size` bytes takes from the pool (the segments'
  // counts and the scan's sums, a bound), beside the starts.
  static std::uint64_t pool_bytes(std::uint64_t size);

 private:
  // Counts each segment's lines and scans the counts; returns the lines.
  std::uint32_t count(const backend::Buffer& input, std::uint32_t size, bool skip_empty,
                      backend::Buffer& counts);

  BufferPool& pool_;
  Scan scan_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel count_, write_;
  backend::Buffer* starts_ = nullptr;
};

}  // namespace harness::blocks
