// Device-to-host copies of many byte ranges of one device buffer (the SePo
// heap's pages) into pageable host memory (the iterations' arenas) at the
// pinned copy rate: the ranges are read a chunk at a time into one of two
// pinned staging buffers while the host's cores copy the previous chunk out
// of the other. A copy straight into pageable memory runs at the driver's
// pageable rate (about 10 GB/s on an H100 host against 50 for pinned), and
// one copy per range pays a call each.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/backend/backend.h"

namespace harness::hashtable {

class StagedCopy {
 public:
  // A range of the device buffer and where its bytes go.
  struct Range {
    std::uint64_t offset = 0;  // in the device buffer
    std::uint64_t bytes = 0;
    std::uint8_t* to = nullptr;  // host memory of `bytes`
  };

  StagedCopy() = default;
  // Two pinned staging buffers of `chunk_bytes` each (allocated once: pinning
  // is slow).
  StagedCopy(backend::Device& device, std::uint64_t chunk_bytes);

  // Copies every range (ascending offsets, not overlapping) of `src` and
  // returns when all are in place. Bytes between ranges of one chunk are read
  // too (the chunk is one copy) but go nowhere.
  void copy(backend::Queue& q, const backend::Buffer& src, const std::vector<Range>& ranges);
  // Each staging buffer's bytes (0 before the buffers are allocated).
  std::uint64_t chunk_bytes() const { return chunk_bytes_; }

 private:
  // A chunk: one device read of [begin, end), the ranges [first, last) of
  // the call in it (the first and last possibly cut by the chunk's ends).
  struct Chunk {
    std::uint64_t begin = 0, end = 0;
    std::size_t first = 0, last = 0;
  };

  std::uint64_t chunk_bytes_ = 0;
  std::array<backend::HostBuffer, 2> staging_;
};

}  // namespace harness::hashtable
