// thrust/default's cache of temporary device blocks (thrust_temp.h).
#include <cuda_runtime.h>

#include <new>

#include "frameworks/mapreduce/thrust/thrust_temp.h"

namespace harness::thrustmr::cuda {

TempCache::~TempCache() {
  release_kept();
  for (auto& [block, bytes] : lent_) cudaFree(block);
}

char* TempCache::allocate(std::ptrdiff_t bytes) {
  const auto want = static_cast<std::size_t>(bytes > 0 ? bytes : 1);
  if (keep_) {
    // The smallest kept block that holds `want`, if it is not more than twice
    // as large (a sort's buffers must not pin a block the size of the input
    // for a scan's few bytes).
    auto it = kept_.lower_bound(want);
    if (it != kept_.end() && it->first <= 2 * want) {
      char* block = it->second;
      lent_.emplace(block, it->first);
      kept_.erase(it);
      return block;
    }
  }
  void* block = nullptr;
  cudaError_t e = cudaMalloc(&block, want);
  if (e == cudaErrorMemoryAllocation && !kept_.empty()) {
    cudaGetLastError();  // clear it, give the kept blocks back, try once more
    release_kept();
    e = cudaMalloc(&block, want);
  }
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw std::bad_alloc();
  }
  ++device_allocations_;
  lent_.emplace(static_cast<char*>(block), want);
  return static_cast<char*>(block);
}

void TempCache::deallocate(char* block, std::size_t) {
  const auto it = lent_.find(block);
  if (it == lent_.end()) return;
  if (keep_) {
    kept_.emplace(it->second, block);
  } else {
    cudaFree(block);
  }
  lent_.erase(it);
}

void TempCache::release_kept() {
  for (auto& [bytes, block] : kept_) cudaFree(block);
  kept_.clear();
}

}  // namespace harness::thrustmr::cuda
