// Kernels for test_cuda_backend.cpp, compiled by nvcc into a CudaKernelTable
// the way framework programs are.
#include <cstdint>

#include "harness/backend/cuda_kernel_table.h"

namespace {

__global__ void add_u32(std::uint32_t* data, std::uint32_t n, std::uint32_t value) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += value;
}

// Mixed argument widths: u64 and double next to a pointer and a u32.
__global__ void scale_f64(double* data, std::uint64_t n, double factor, std::uint32_t unused) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor + static_cast<double>(unused);
}

__global__ void no_args() {}

}  // namespace

const harness::backend::CudaKernelTable& harness_test_cuda_kernels() {
  static const harness::backend::CudaKernel kernels[] = {
      {"add_u32", reinterpret_cast<const void*>(&add_u32)},
      {"scale_f64", reinterpret_cast<const void*>(&scale_f64)},
      {"no_args", reinterpret_cast<const void*>(&no_args)},
  };
  static const harness::backend::CudaKernelTable table{kernels, sizeof kernels / sizeof *kernels};
  return table;
}
