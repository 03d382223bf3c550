// Dense ids on the device: the ids in [0, n) that a list of keys uses,
// numbered densely in id order, the keys renumbered and the used items
// compacted. A runtime that groups pairs by global-hash-table entry sorts
// and copies only the entries its pairs name: an insert that loses the race
// to publish a key leaves an entry no pair names (the no-spin insert of
// kernels/global_hash_table.clh; k-means left 118-133 K of them for 16 keys,
// which widened its sort to 17 bits and filled its copy back). Kernels:
// frameworks/blocks/kernels/dense_ids.cl.
#pragma once

#include <cstdint>
#include <memory>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/scan.h"

namespace harness::blocks {

class DenseIds {
 public:
  explicit DenseIds(BufferPool& pool);
  // Numbers the ids in [0, n) that keys[0, count) name (each key < n); returns
  // how many there are (a wait for the queue).
  std::uint32_t number(const backend::Buffer& keys, std::uint32_t count, std::uint32_t n);
  // keys[i] = its dense id, for the keys given to the last number().
  void renumber(backend::Buffer& keys, std::uint32_t count);
  // out[dense id] = items[id] for each used id of the last number(); an item
  // is `words` u32 (out holds used x words of them).
  void compact(const backend::Buffer& items, std::uint32_t words, backend::Buffer& out);

 private:
  BufferPool& pool_;
  Scan scan_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel mark_, renumber_, compact_;
  backend::Buffer* ids_ = nullptr;  // n + 1: used ids below each id, then the total
  std::uint32_t n_ = 0;
};

}  // namespace harness::blocks
