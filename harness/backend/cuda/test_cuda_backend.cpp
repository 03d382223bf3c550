// Tests of the CUDA backend that pass with and without a GPU: with none they
// check that the backend degrades to "no device" with a reason; with one they
// check what can be checked without nvcc-compiled kernels.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "harness/backend/cuda/cuda_backend.h"
#include "harness/core/errors.h"

// test_cuda_kernels.cu (nvcc).
const harness::backend::CudaKernelTable& harness_test_cuda_kernels();

namespace harness::backend::cuda {
namespace {

TEST(CudaBackend, ListDevicesGivesDevicesOrAReason) {
  std::string why = "unchanged";
  const std::vector<DeviceInfo> devices = list_devices(&why);
  if (devices.empty()) {
    EXPECT_FALSE(why.empty());
    EXPECT_NE(why, "unchanged");
    EXPECT_EQ(why.rfind("CUDA: ", 0), 0u) << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  } else {
    EXPECT_TRUE(why.empty()) << why;
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const DeviceInfo& d = devices[i];
      EXPECT_EQ(d.kind, Kind::cuda);
      EXPECT_FALSE(d.name.empty());
      EXPECT_GT(d.global_memory_bytes, 0u);
      EXPECT_GT(d.compute_units, 0);
      EXPECT_EQ(d.warp_size, 32);
      EXPECT_FALSE(d.compute_capability.empty());
      EXPECT_EQ(d.platform, "CUDA");
    }
  }
}

TEST(CudaBackend, ListDevicesWithoutReasonPointer) { EXPECT_NO_THROW((void)list_devices(nullptr)); }

TEST(CudaBackend, OpenMissingDeviceThrowsNoDevice) {
  EXPECT_THROW((void)open_device(99), NoDevice);
  EXPECT_THROW((void)open_device(-1), NoDevice);
  try {
    (void)open_device(99);
  } catch (const NoDevice& e) {
    EXPECT_NE(std::string(e.what()).find("no CUDA device 99"), std::string::npos) << e.what();
  }
}

// The rest needs a device; without one it is skipped.
class CudaDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (list_devices(&why).empty()) GTEST_SKIP() << why;
    device_ = open_device(0);
  }
  std::unique_ptr<Device> device_;
};

TEST_F(CudaDeviceTest, CopiesRoundTrip) {
  Queue& q = device_->queue();
  std::vector<std::uint32_t> in(1000);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint32_t>(i * 7 + 1);
  const std::size_t bytes = in.size() * sizeof(std::uint32_t);
  Buffer a = device_->allocate(bytes);
  Buffer b = device_->allocate(bytes);
  q.write(a, 0, in.data(), bytes);
  q.fill_zero(b, 0, bytes);
  q.copy(b, 16, a, 0, bytes - 16);
  std::vector<std::uint32_t> out(in.size(), 0xffffffffu);
  q.read(out.data(), b, 0, bytes);
  q.finish();
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(out[i], 0u);
  for (std::size_t i = 4; i < out.size(); ++i) ASSERT_EQ(out[i], in[i - 4]) << i;
}

TEST_F(CudaDeviceTest, OutOfRangeCopyIsRefused) {
  Buffer a = device_->allocate(64);
  std::vector<char> host(128);
  EXPECT_THROW(device_->queue().write(a, 0, host.data(), 65), RunError);
  EXPECT_THROW(device_->queue().read(host.data(), a, 60, 8), RunError);
  EXPECT_THROW(device_->queue().fill_zero(a, 1, 64), RunError);
}

TEST_F(CudaDeviceTest, ZeroByteAllocationHasAHandle) {
  Buffer a = device_->allocate(0);
  EXPECT_TRUE(a.valid());
  EXPECT_EQ(a.size(), 0u);
}

TEST_F(CudaDeviceTest, HugeAllocationThrowsOutOfMemory) {
  const std::size_t too_much = static_cast<std::size_t>(device_->info().global_memory_bytes) * 4;
  try {
    Buffer b = device_->allocate(too_much);
    FAIL() << "allocated " << too_much << " bytes";
  } catch (const DeviceOutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find("out of device memory"), std::string::npos) << e.what();
  }
  // The device is still usable afterwards.
  Buffer small = device_->allocate(1024);
  device_->queue().fill_zero(small, 0, 1024);
  device_->queue().finish();
}

TEST_F(CudaDeviceTest, PinnedAndPlainHostMemory) {
  HostBuffer pinned = device_->allocate_host(4096, true);
  HostBuffer plain = device_->allocate_host(4096, false);
  ASSERT_NE(pinned.data(), nullptr);
  ASSERT_NE(plain.data(), nullptr);
  EXPECT_EQ(pinned.size(), 4096u);
}

TEST_F(CudaDeviceTest, ProgramWithoutCudaBuildIsABuildError) {
  ProgramSource source;
  source.name = "test/no-cuda";
  EXPECT_THROW((void)device_->build(source), KernelBuildError);
}

TEST_F(CudaDeviceTest, MissingKernelNamesTheProgram) {
  static const CudaKernelTable empty_table;
  ProgramSource source;
  source.name = "test/empty";
  source.cuda = &empty_table;
  auto program = device_->build(source);
  try {
    (void)program->kernel("nope");
    FAIL();
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("'nope' not found in program 'test/empty'"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(CudaDeviceTest, SpansAreTimedInOrder) {
  Queue& q = device_->queue();
  Buffer a = device_->allocate(1 << 20);
  q.begin_span("first");
  q.fill_zero(a, 0, 1 << 20);
  q.end_span();
  EXPECT_THROW(q.end_span(), RunError);
  q.begin_span("second");
  EXPECT_THROW(q.begin_span("nested"), RunError);
  q.fill_zero(a, 0, 1 << 20);
  q.end_span();
  const std::vector<TimedSpan> spans = q.take_spans();
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].name, "first");
  EXPECT_EQ(spans[1].name, "second");
  EXPECT_GE(spans[0].milliseconds, 0.0);
  EXPECT_TRUE(q.take_spans().empty());
}

class CudaKernelTest : public CudaDeviceTest {
 protected:
  void SetUp() override {
    setenv("HARNESS_CHECK_KERNEL_ARGS", "1", 1);  // argument checks are opt-in
    CudaDeviceTest::SetUp();
    if (IsSkipped()) return;
    source_.name = "test/kernels";
    source_.cuda = &harness_test_cuda_kernels();
    program_ = device_->build(source_);
  }
  ProgramSource source_;
  std::shared_ptr<Program> program_;
};

TEST_F(CudaKernelTest, BuildIsCachedAndLogsResources) {
  EXPECT_EQ(device_->build(source_), program_);
  EXPECT_NE(program_->build_log().find("add_u32: "), std::string::npos) << program_->build_log();
}

TEST_F(CudaKernelTest, LaunchRunsTheKernel) {
  Queue& q = device_->queue();
  const std::uint32_t n = 100000;
  std::vector<std::uint32_t> host(n);
  for (std::uint32_t i = 0; i < n; ++i) host[i] = i;
  Buffer data = device_->allocate(n * sizeof(std::uint32_t));
  q.write(data, 0, host.data(), n * sizeof(std::uint32_t));
  Kernel add = program_->kernel("add_u32");
  q.begin_span("add");
  q.launch(add, LaunchShape{(n + 255) / 256, 256}, data, n, std::uint32_t{5});
  q.launch(add, LaunchShape{(n + 127) / 128, 128}, data, n, std::uint32_t{2});
  q.end_span();
  q.read(host.data(), data, 0, n * sizeof(std::uint32_t));
  const std::vector<TimedSpan> spans = q.take_spans();
  for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(host[i], i + 7) << i;
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_GT(spans[0].milliseconds, 0.0);
}

TEST_F(CudaKernelTest, MixedScalarWidths) {
  Queue& q = device_->queue();
  std::vector<double> host{1.0, 2.0, 3.0};
  Buffer data = device_->allocate(host.size() * sizeof(double));
  q.write(data, 0, host.data(), host.size() * sizeof(double));
  q.launch(program_->kernel("scale_f64"), LaunchShape{1, 32}, data, std::uint64_t{3}, 2.5,
           std::uint32_t{1});
  q.launch(program_->kernel("no_args"), LaunchShape{1, 1});
  q.read(host.data(), data, 0, host.size() * sizeof(double));
  q.finish();
  EXPECT_EQ(host[0], 3.5);
  EXPECT_EQ(host[1], 6.0);
  EXPECT_EQ(host[2], 8.5);
}

TEST_F(CudaKernelTest, BadLaunchesAreRefused) {
  Queue& q = device_->queue();
  Buffer data = device_->allocate(1024);
  Kernel add = program_->kernel("add_u32");
  // Wrong argument count and width are caught on the host.
  EXPECT_THROW(q.launch(add, LaunchShape{1, 32}, data, std::uint32_t{1}), RunError);
  EXPECT_THROW(q.launch(add, LaunchShape{1, 32}, data, std::uint64_t{1}, std::uint32_t{1}),
               RunError);
  // Shapes.
  EXPECT_THROW(q.launch(add, LaunchShape{0, 32}, data, std::uint32_t{1}, std::uint32_t{1}),
               RunError);
  EXPECT_THROW(q.launch(add, LaunchShape{1, 0}, data, std::uint32_t{1}, std::uint32_t{1}),
               RunError);
  EXPECT_THROW(q.launch(add, LaunchShape{1, 4096}, data, std::uint32_t{1}, std::uint32_t{1}),
               RunError);
  EXPECT_THROW(
      q.launch(add, LaunchShape{0x80000000u, 32}, data, std::uint32_t{1}, std::uint32_t{1}),
      RunError);
  // The queue still works afterwards.
  q.launch(add, LaunchShape{1, 256}, data, std::uint32_t{256}, std::uint32_t{1});
  q.finish();
}

}  // namespace
}  // namespace harness::backend::cuda
