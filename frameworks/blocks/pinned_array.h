// A grow-only array of trivially copyable T in the device's pinned host
// memory, where a runtime lands what it copies back from the device: a read
// into pageable memory runs at a quarter of the pinned rate on an H100 (13.5
// against 55 GB/s), and a runtime keeps the array from run to run, so only the
// first run pays for pinning. Pageable where the backend cannot pin that much
// (HostBuffer's rule). resize() keeps the memory when the array shrinks and
// drops the contents when it grows: callers fill it from the device.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "harness/backend/backend.h"

namespace harness::blocks {

template <class T>
class PinnedArray {
  static_assert(std::is_trivially_copyable_v<T>, "copied from the device byte for byte");

 public:
  explicit PinnedArray(backend::Device& device) : device_(&device) {}

  void resize(std::size_t n) {
    if (n > capacity()) {
      memory_ = backend::HostBuffer();  // the old memory goes before the new is pinned
      memory_ = device_->allocate_host(std::max(n, 2 * capacity()) * sizeof(T),
                                       backend::HostMemory::pinned);
    }
    size_ = n;
  }
  void clear() { size_ = 0; }

  T* data() { return static_cast<T*>(memory_.data()); }
  const T* data() const { return static_cast<const T*>(memory_.data()); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  // Which memory the array has now (pinned, or pageable as a fallback).
  backend::HostMemory kind() const { return memory_.kind(); }
  // The memory itself, for Queue::read_async / write_async (byte offsets).
  backend::HostBuffer& host_buffer() { return memory_; }

 private:
  std::size_t capacity() const { return memory_.size() / sizeof(T); }

  backend::Device* device_;
  backend::HostBuffer memory_;
  std::size_t size_ = 0;
};

}  // namespace harness::blocks
