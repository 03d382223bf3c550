// Run-time CUDA compilation (ProgramSource::cuda_text, NVRTC): compiling needs
// no GPU; building and launching through a Device runs where one is present.
#include <gtest/gtest.h>

#include <vector>

#include "harness/backend/backend.h"
#include "harness/backend/cuda/cuda_backend.h"
#include "harness/core/errors.h"

namespace harness::backend {
namespace {

const char* kSource =
    "extern \"C\" __global__ void add_one(float* x, unsigned n) {\n"
    "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] += 1.0f;\n"
    "}\n";

TEST(Nvrtc, CompilesToACubinWithoutAGpu) {
  if (!cuda_runtime_compilation()) GTEST_SKIP() << "built without NVRTC";
  std::string log;
  const std::string cubin = cuda::nvrtc_compile(kSource, "test/add_one", "9.0", {}, &log);
  EXPECT_GT(cubin.size(), 100u);
  EXPECT_EQ(cubin.substr(1, 3), "ELF");
}

TEST(Nvrtc, CompileErrorCarriesTheLog) {
  if (!cuda_runtime_compilation()) GTEST_SKIP() << "built without NVRTC";
  try {
    cuda::nvrtc_compile("extern \"C\" __global__ void k() { undefined_name = 1; }", "test/broken",
                        "9.0", {});
    FAIL() << "compiled";
  } catch (const KernelBuildError& e) {
    EXPECT_NE(e.log().find("undefined_name"), std::string::npos) << e.log();
  }
}

TEST(Nvrtc, BuildsAndLaunchesThroughTheDevice) {
  if (!cuda_runtime_compilation()) GTEST_SKIP() << "built without NVRTC";
  std::string why;
  if (list_devices(Kind::cuda, &why).empty()) GTEST_SKIP() << why;
  auto device = open_device(Kind::cuda, 0);
  ProgramSource src;
  src.name = "test/nvrtc-add-one";
  src.cuda_text = kSource;
  auto program = device->build(src);
  EXPECT_EQ(device->build(src), program);  // cached by name
  std::vector<float> host(1000, 1.0f);
  Buffer buf = device->allocate(host.size() * 4);
  auto& q = device->queue();
  q.write(buf, 0, host.data(), host.size() * 4);
  q.launch(program->kernel("add_one"), LaunchShape::cover(host.size(), 128), buf,
           static_cast<std::uint32_t>(host.size()));
  q.read(host.data(), buf, 0, host.size() * 4);
  q.finish();
  for (float x : host) ASSERT_EQ(x, 2.0f);
  EXPECT_THROW(program->kernel("missing"), RunError);
}

}  // namespace
}  // namespace harness::backend
