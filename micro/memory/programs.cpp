// The family's two programs. The CUDA builds come from
// cmake/HarnessCudaPrograms.cmake (micro/CMakeLists.txt adds them to
// harness_micro itself, so the tables are looked up here rather than through
// frameworks' cuda_program()).
#include "harness/backend/backend.h"
#include "micro/memory/internal.h"

#if defined(HARNESS_HAVE_CUDA)
const harness::backend::CudaKernelTable& harness_cuda_table_micro_memory();
const harness::backend::CudaKernelTable& harness_cuda_table_micro_memory_cuda();
#endif

namespace harness::memory {

backend::ProgramSource portable_program() {
  backend::ProgramSource src;
  src.name = "micro/memory";
  src.opencl_files = {"micro/memory/kernels/global_read.cl", "micro/memory/kernels/copy.cl",
                      "micro/memory/kernels/shared_read.cl", "micro/memory/kernels/atomics.cl",
                      "micro/memory/kernels/scan.cl"};
#if defined(HARNESS_HAVE_CUDA)
  src.cuda = &harness_cuda_table_micro_memory();
#endif
  return src;
}

backend::ProgramSource cuda_only_program() {
  backend::ProgramSource src;
  src.name = "micro/memory-cuda";
#if defined(HARNESS_HAVE_CUDA)
  src.cuda = &harness_cuda_table_micro_memory_cuda();
#endif
  return src;
}

}  // namespace harness::memory
