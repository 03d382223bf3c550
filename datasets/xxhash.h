// Streaming XXH64 (xxHash, 64-bit), written from the public algorithm
// description (github.com/Cyan4973/xxHash, doc/xxhash_spec.md). Produces the
// same value as the reference XXH64() for any split of the input.
#pragma once

#include <cstddef>
#include <cstdint>

namespace harness::datasets {

class Xxh64Stream {
 public:
  explicit Xxh64Stream(std::uint64_t seed = 0);
  void update(const void* data, std::size_t size);
  std::uint64_t digest() const;

 private:
  std::uint64_t seed_;
  std::uint64_t acc_[4];
  std::uint64_t total_ = 0;
  unsigned char buffer_[32] = {};
  std::size_t buffered_ = 0;
};

}  // namespace harness::datasets
