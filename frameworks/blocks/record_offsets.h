// Record offsets of fixed-size records written on the device: record i of
// `count` starts at first + i * stride, then the end (count + 1 u32, the
// record offsets the MapReduce kernels take), so that a runtime neither
// computes them on the host nor copies them over the link (apps whose records
// have one size, MapReduceApp::record_stride: k-means' points, 64 MB of
// offsets at 256 MiB). Kernel: frameworks/blocks/kernels/record_offsets.cl.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "frameworks/blocks/buffer_pool.h"

namespace harness::blocks {

class RecordOffsets {
 public:
  explicit RecordOffsets(BufferPool& pool);
  // Enqueues the write of the offsets into the pool buffer named `name`
  // (count + 1 u32) and returns that buffer. RunError when the end passes
  // 32 bits.
  backend::Buffer& write(std::uint32_t first, std::uint32_t stride, std::uint32_t count,
                         const std::string& name);

 private:
  BufferPool& pool_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel strided_;
};

}  // namespace harness::blocks
