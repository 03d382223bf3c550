// What thrust/default's .cu files share: the CUDA error check, launch sizes
// and the stream behind the harness queue's void* handle. CUDA only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace harness::thrustmr::cuda {

inline constexpr unsigned kBlock = 256;

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    throw std::runtime_error(std::string("thrust: ") + what + ": " + cudaGetErrorString(e));
  }
}

// Blocks of kBlock threads covering n threads (n > 0).
inline unsigned blocks(std::uint64_t n) { return static_cast<unsigned>((n + kBlock - 1) / kBlock); }

inline cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }

// The thread's global index.
__device__ inline std::uint64_t thread_index() {
  return std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
}

}  // namespace harness::thrustmr::cuda
