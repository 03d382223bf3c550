// Device-wide stable LSD radix sort of (u32 key, u32 value) pairs
// (frameworks/blocks/kernels/radix_sort.cl).
#pragma once

#include <cstdint>
#include <memory>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/scan.h"

namespace harness::blocks {

class RadixSort {
 public:
  explicit RadixSort(BufferPool& pool);

  static constexpr int kDigitBits = 8;          // one pass per 8 key bits
  static constexpr std::uint32_t kTile = 2048;  // pairs per work-group (RS_TILE)
  static constexpr std::uint32_t kGroup = 256;  // work-items per work-group (RS_GROUP)

  // Sorts pairs [0, n) of keys and values (distinct buffers of at least n
  // u32 each) in place, ascending by the low key_bits bits of the key
  // (key & (2^key_bits - 1)), stably: pairs with equal sort keys keep their
  // order. Bits above key_bits are carried, not compared. key_bits is 0-32;
  // 0 (or n < 2) leaves the pairs as they are. One pass per started 8 bits;
  // the passes ping-pong with scratch buffers of the pool ("radix.keys",
  // "radix.values", "radix.counts"), and an odd number of passes ends with a
  // copy back, so the result is always in the caller's buffers. Elements past
  // n are not touched. Enqueued on the device's queue; each pass's Scan reads
  // its total back, so the call waits for the queue up to the last pass's scan.
  // Throws UsageError for key_bits outside 0-32 or buffers smaller than n.
  void sort_pairs(backend::Buffer& keys, backend::Buffer& values, std::uint32_t n,
                  int key_bits = 32);

 private:
  BufferPool& pool_;
  Scan scan_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel upsweep_, scatter_;
};

}  // namespace harness::blocks
