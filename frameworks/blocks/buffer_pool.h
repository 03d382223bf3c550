// Grow-only named device buffers: a runtime asks for "keys" of N bytes on every
// run and reallocates only when N grows, as a real allocator would, so
// repetitions after the first do not time cudaMalloc/clCreateBuffer.
#pragma once

#include <map>
#include <string>

#include "harness/backend/backend.h"

namespace harness::blocks {

class BufferPool {
 public:
  explicit BufferPool(backend::Device& device) : device_(device) {}
  backend::Buffer& get(const std::string& name, std::size_t bytes) {
    backend::Buffer& b = buffers_[name];
    if (!b.valid() || b.size() < bytes) {
      b = backend::Buffer();  // free first: peak memory stays at one copy
      b = device_.allocate(bytes + bytes / 8 + 256);
    }
    return b;
  }
  backend::Device& device() { return device_; }

 private:
  backend::Device& device_;
  std::map<std::string, backend::Buffer> buffers_;
};

}  // namespace harness::blocks
