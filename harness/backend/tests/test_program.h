// The backend tests' kernels (backend_test_kernels.cl) as a Program of a
// device: OpenCL builds the file at run time, CUDA takes the nvcc-built table
// (test_backend_kernels.cu).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "harness/backend/backend.h"

#ifdef HARNESS_HAVE_CUDA
const harness::backend::CudaKernelTable& harness_backend_test_cuda_kernels();
#endif

namespace harness::testing {

// From $HARNESS_SOURCE_DIR (set by CTest; a copy of the tree elsewhere) or the
// source folder this binary was configured in.
inline std::string test_source_dir() {
  const char* env = std::getenv("HARNESS_SOURCE_DIR");
  return env && *env ? env : HARNESS_SOURCE_DIR;
}

inline std::shared_ptr<backend::Program> backend_test_program(backend::Device& device) {
  backend::ProgramSource source;
  source.name = "test/backend-features";
  source.opencl_files = {"harness/dialect/dialect.h"};
  std::ifstream in(test_source_dir() + "/harness/backend/tests/backend_test_kernels.cl");
  std::ostringstream text;
  text << in.rdbuf();
  source.opencl_text = text.str();
#ifdef HARNESS_HAVE_CUDA
  source.cuda = &harness_backend_test_cuda_kernels();
#endif
  if (device.info().kind == backend::Kind::opencl) {
    EXPECT_NE(source.opencl_text.find("group_sum_u32"), std::string::npos)
        << "kernel source not found under " << test_source_dir();
  }
  return device.build(source);
}

}  // namespace harness::testing
