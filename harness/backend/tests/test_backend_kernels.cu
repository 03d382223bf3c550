// The kernels of backend_test_kernels.cl compiled by nvcc into a
// CudaKernelTable, the way cmake/HarnessCudaPrograms.cmake builds framework
// programs (two kernels here view the dynamic local memory as different types).
#include "harness/backend/cuda_kernel_table.h"
#include "harness/dialect/dialect.h"

namespace harness_backend_test_kernels {
#include "harness/backend/tests/backend_test_kernels.cl"
}  // namespace harness_backend_test_kernels

const harness::backend::CudaKernelTable& harness_backend_test_cuda_kernels() {
  namespace k = harness_backend_test_kernels;
  static const harness::backend::CudaKernel kernels[] = {
      {"add_u32", reinterpret_cast<const void*>(&k::add_u32)},
      {"add_to_u32", reinterpret_cast<const void*>(&k::add_to_u32)},
      {"spin_write_u32", reinterpret_cast<const void*>(&k::spin_write_u32)},
      {"group_sum_u32", reinterpret_cast<const void*>(&k::group_sum_u32)},
      {"group_max_u64", reinterpret_cast<const void*>(&k::group_max_u64)},
      {"fill_local_u32", reinterpret_cast<const void*>(&k::fill_local_u32)},
      {"copy_image_f32", reinterpret_cast<const void*>(&k::copy_image_f32)},
  };
  static const harness::backend::CudaKernelTable table{kernels, sizeof kernels / sizeof *kernels};
  return table;
}
