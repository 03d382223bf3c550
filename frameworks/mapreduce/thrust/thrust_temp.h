// Where thrust/default's algorithms get their temporary storage. Each thrust
// algorithm asks for scratch on every call (the radix sort's second key and
// value buffers and CUB's temporary storage, reduce_by_key's and copy_if's
// tile state); thrust's default allocator answers each ask with cudaMalloc and
// each return with cudaFree, which waits for the whole device. A user who
// times thrust code keeps the blocks instead, as thrust's own example of a
// cached allocator does (examples/cuda/custom_temporary_allocation.cu):
// TempCache hands a returned block to the next ask of the same size or up to
// twice as large, and frees them all at its end. With `keep` off it is the
// default's cudaMalloc and cudaFree per ask (knob temp_cache=0: the earlier
// baseline, to measure what the cache saves). Plain C++ (the .cpp side owns
// it; thrust_temp.cu allocates).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>

namespace harness::thrustmr::cuda {

class TempCache {
 public:
  using value_type = char;  // thrust's allocator interface

  explicit TempCache(bool keep) : keep_(keep) {}
  ~TempCache();
  TempCache(const TempCache&) = delete;
  TempCache& operator=(const TempCache&) = delete;

  // At least `bytes` bytes of device memory. Throws std::bad_alloc when the
  // device has none left, after freeing the blocks kept.
  char* allocate(std::ptrdiff_t bytes);
  void deallocate(char* block, std::size_t bytes);

  // cudaMalloc calls so far (a run that found every block kept adds none).
  std::uint64_t device_allocations() const { return device_allocations_; }

 private:
  void release_kept();

  bool keep_;
  std::multimap<std::size_t, char*> kept_;       // returned blocks by size
  std::unordered_map<char*, std::size_t> lent_;  // blocks in use, their sizes
  std::uint64_t device_allocations_ = 0;
};

// What every thrust/default device function takes: the harness queue's stream
// (a cudaStream_t) and the cache its thrust calls allocate from.
struct Exec {
  void* stream = nullptr;
  TempCache* temp = nullptr;
};

}  // namespace harness::thrustmr::cuda
