// What thrust/default's .cu files share: the CUDA error check, launch sizes,
// the stream behind the harness queue's handle and the thrust policy. CUDA only.
#pragma once

#include <cuda_runtime.h>
#include <thrust/execution_policy.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "frameworks/mapreduce/thrust/thrust_temp.h"

namespace harness::thrustmr::cuda {

inline constexpr unsigned kBlock = 256;

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    throw std::runtime_error(std::string("thrust: ") + what + ": " + cudaGetErrorString(e));
  }
}

// Blocks of kBlock threads covering n threads (n > 0).
inline unsigned blocks(std::uint64_t n) { return static_cast<unsigned>((n + kBlock - 1) / kBlock); }

inline cudaStream_t as_stream(const Exec& exec) { return static_cast<cudaStream_t>(exec.stream); }

// The execution policy of every thrust call: on the queue's stream, its
// temporary storage from the run's cache.
inline auto on_queue(const Exec& exec) { return thrust::cuda::par(*exec.temp).on(as_stream(exec)); }

// FNV-1a 64, the key hash of every byte-key app, and the mask keeping its
// low `bits` bits (1..64).
inline constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
inline constexpr std::uint64_t kFnvPrime = 1099511628211ull;
inline std::uint64_t hash_mask(unsigned bits) {
  return bits >= 64 ? ~0ull : (std::uint64_t{1} << bits) - 1;
}
// One byte into an FNV-1a 64 hash (start from kFnvOffset): every key hash of
// thrust/default, so that word count's walk and hash_keys agree.
__device__ inline std::uint64_t fnv1a_step(std::uint64_t h, std::uint8_t byte) {
  return (h ^ byte) * kFnvPrime;
}

// The thread's global index.
__device__ inline std::uint64_t thread_index() {
  return std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
}

}  // namespace harness::thrustmr::cuda
