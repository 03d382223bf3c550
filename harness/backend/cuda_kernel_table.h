#pragma once
// The kernels of one nvcc-built program, by name. Its own header, free of
// standard-library containers, so that the generated program sources
// (cmake/HarnessCudaPrograms.cmake), one per app and mode, compile quickly:
// including backend.h cost about 2 s of nvcc time per program.
#include <cstddef>

namespace harness::backend {

struct CudaKernel {
  const char* name;
  const void* function;  // the __global__ function
};

struct CudaKernelTable {
  const CudaKernel* kernels = nullptr;
  std::size_t count = 0;

  const CudaKernel* begin() const { return kernels; }
  const CudaKernel* end() const { return kernels + count; }
};

}  // namespace harness::backend
