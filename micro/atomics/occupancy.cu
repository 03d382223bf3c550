// The software atomic's co-residency check on CUDA: how many blocks of a
// kernel one SM holds at once (micro/atomics/internal.h).
#include <cuda_runtime.h>

#include <string>

namespace harness::atomics {

int cuda_blocks_per_sm(const void* function, int group_size, std::size_t local_bytes,
                       std::string* error) {
  if (local_bytes > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(
        function, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(local_bytes));
    if (e != cudaSuccess) {
      *error = cudaGetErrorString(e);
      return -1;
    }
  }
  int blocks = 0;
  const cudaError_t e =
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, function, group_size, local_bytes);
  if (e != cudaSuccess) {
    *error = cudaGetErrorString(e);
    return -1;
  }
  return blocks;
}

}  // namespace harness::atomics
