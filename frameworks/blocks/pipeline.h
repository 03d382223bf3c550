// The chunked copy-then-compute pipeline: pieces of a host input streamed to
// the device over several in-order queues ("lanes"). Piece i is copied into
// lane i mod L's device buffer and computed there by the caller's launch, in
// that lane's order; the lanes run side by side, so one lane's copy overlaps
// another's compute and the copy engine stays busy. hashagg streams its input
// with it; BigKernel's prefetch and the hash table's input replay build on it.
//
// Timing: each lane's copy and compute are spans (Queue::begin_span); run()
// returns their device times summed over the lanes ("busy" time: with L lanes
// overlapping, the sums can exceed the wall time).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/blocks/buffer_pool.h"
#include "harness/backend/backend.h"

namespace harness::blocks {

class CopyComputePipeline {
 public:
  // A piece of the input: bytes [offset, offset + bytes) of the host array.
  struct Piece {
    std::size_t offset = 0;
    std::size_t bytes = 0;
  };
  // Device time summed over the lanes' spans. A compute callback may end its
  // compute span and open one named "copy_out" for its copy back (BigKernel's
  // written fields): those count as copy_out_ms.
  struct Busy {
    double copy_ms = 0;
    double compute_ms = 0;
    double copy_out_ms = 0;
  };
  // Enqueues the computation of piece `index` on `queue`; `buffer` holds the
  // piece's bytes from offset 0 (the lane's buffer, reused by its later pieces
  // only after this computation, by queue order).
  using Compute =
      std::function<void(backend::Queue& queue, backend::Buffer& buffer, std::size_t index)>;

  // Lane buffers come from `pool` under names starting with `name`.
  CopyComputePipeline(backend::Device& device, BufferPool& pool, std::string name);

  // Lanes (queues) from the next run on; created once and kept.
  void set_lanes(std::uint32_t lanes);
  std::uint32_t lanes() const { return static_cast<std::uint32_t>(lanes_.size()); }

  // Copies and computes every piece of `host` (pinned memory for an
  // asynchronous copy), then waits for every lane. `compute_span` names the
  // compute spans. Each lane's buffer is sized for the longest piece.
  Busy run(const std::uint8_t* host, const std::vector<Piece>& pieces, const Compute& compute,
           const std::string& compute_span = "compute");

  // Pieces of about `nominal` bytes of [0, size), each end moved forward to
  // where `cut(at)` allows (the app's record boundary, at >= the nominal end;
  // identity when empty). The last piece ends at `size`.
  static std::vector<Piece> cut(std::size_t size, std::size_t nominal,
                                const std::function<std::size_t(std::size_t)>& cut = {});

 private:
  backend::Device& device_;
  BufferPool& pool_;
  std::string name_;
  std::vector<std::unique_ptr<backend::Queue>> lanes_;
};

}  // namespace harness::blocks
