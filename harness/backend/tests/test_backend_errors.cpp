// Errors the backend layer must turn into clear, typed failures.
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

using BackendErrors = DeviceTest;

TEST_P(BackendErrors, AllocationLargerThanTheDeviceIsOutOfMemory) {
  const std::uint64_t too_much = device_->info().global_memory_bytes * 4 + (std::uint64_t{1} << 40);
  EXPECT_THROW(device_->allocate(static_cast<std::size_t>(too_much)), DeviceOutOfMemory);
}

TEST_P(BackendErrors, OverrunningCopyIsRefused) {
  backend::Buffer b = device_->allocate(64);
  std::vector<char> host(128);
  EXPECT_THROW(device_->queue().write(b, 0, host.data(), 128), RunError);
  EXPECT_THROW(device_->queue().read(host.data(), b, 32, 64), RunError);
}

TEST_P(BackendErrors, MissingKernelNamesIt) {
  backend::ProgramSource src;
  src.name = "test/scan-only";
  src.opencl_files = {"frameworks/blocks/kernels/scan.cl"};
  src.cuda = nullptr;
  if (GetParam() == backend::Kind::cuda) GTEST_SKIP() << "a CUDA program needs an nvcc-built table";
  auto program = device_->build(src);
  try {
    program->kernel("no_such_kernel");
    FAIL() << "expected RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_kernel"), std::string::npos) << e.what();
  }
}

TEST_P(BackendErrors, KernelThatDoesNotCompileGivesTheCompilerLog) {
  if (GetParam() != backend::Kind::opencl)
    GTEST_SKIP() << "CUDA kernels are compiled at build time";
  backend::ProgramSource src;
  src.name = "test/broken";
  src.opencl_text = "__kernel void broken(__global int* p) { p[0] = undeclared_name; }\n";
  try {
    device_->build(src);
    FAIL() << "expected KernelBuildError";
  } catch (const KernelBuildError& e) {
    EXPECT_NE(std::string(e.what()).find("test/broken"), std::string::npos) << e.what();
    EXPECT_NE(e.log().find("undeclared_name"), std::string::npos) << e.log();
  }
}

// A register budget (ProgramSource::max_registers) is taken where the
// compiler has one and changes nothing elsewhere: the kernel, which keeps 24
// sums live, builds and runs right either way. NVIDIA's OpenCL also says in
// its verbose log that it kept to the budget.
TEST_P(BackendErrors, RegisterBudgetIsKeptWhereTheCompilerTakesOne) {
  if (GetParam() != backend::Kind::opencl)
    GTEST_SKIP() << "CUDA's kernels here come from nvcc, with the build's flags";
  backend::ProgramSource src;
  src.name = "test/register-budget";
  src.opencl_text =
      "__kernel void sums(__global const uint* in, __global uint* out, uint n) {\n"
      "  uint s[24];\n"
      "  for (uint k = 0; k < 24u; ++k) s[k] = in[k];\n"
      "  for (uint i = 0; i < n; ++i)\n"
      "    for (uint k = 0; k < 24u; ++k) s[k] = s[k] * 3u + in[(i + k) % 24u];\n"
      "  uint t = 0;\n"
      "  for (uint k = 0; k < 24u; ++k) t ^= s[k] << (k % 7u);\n"
      "  out[get_global_id(0)] = t;\n"
      "}\n";
  src.max_registers = 24;
  const bool nvidia = device_->info().name.find("NVIDIA") != std::string::npos;
  if (nvidia) src.opencl_options = "-cl-nv-verbose";
  auto program = device_->build(src);
  std::vector<std::uint32_t> in(24);
  for (std::uint32_t k = 0; k < 24; ++k) in[k] = k * 2654435761u;
  const std::uint32_t n = 100;
  std::uint32_t expected = 0;
  {
    std::vector<std::uint32_t> s(in);
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::uint32_t k = 0; k < 24; ++k) s[k] = s[k] * 3u + in[(i + k) % 24];
    for (std::uint32_t k = 0; k < 24; ++k) expected ^= s[k] << (k % 7);
  }
  backend::Buffer d_in = device_->allocate(in.size() * 4), d_out = device_->allocate(64 * 4);
  auto& q = device_->queue();
  q.write(d_in, 0, in.data(), in.size() * 4);
  q.launch(program->kernel("sums"), backend::LaunchShape{1, 64}, d_in, d_out, n);
  std::vector<std::uint32_t> out(64);
  q.read(out.data(), d_out, 0, out.size() * 4);
  q.finish();
  for (std::uint32_t v : out) EXPECT_EQ(v, expected);
  if (nvidia) {
    const std::string log = program->build_log();
    const std::size_t at = log.find("Used ");
    ASSERT_NE(at, std::string::npos) << log;
    EXPECT_LE(std::stoi(log.substr(at + 5)), 24) << log;
  }
}

TEST_P(BackendErrors, SpansReportDeviceTimeInOrder) {
  backend::Buffer a = device_->allocate(1 << 20), b = device_->allocate(1 << 20);
  auto& q = device_->queue();
  q.begin_span("first");
  q.copy(b, 0, a, 0, 1 << 20);
  q.end_span();
  q.begin_span("second");
  q.fill_zero(a, 0, 1 << 20);
  q.copy(b, 0, a, 0, 1 << 20);
  q.end_span();
  auto spans = q.take_spans();
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].name, "first");
  EXPECT_EQ(spans[1].name, "second");
  EXPECT_GT(spans[0].milliseconds, 0.0);
  EXPECT_GT(spans[1].milliseconds, 0.0);
  EXPECT_TRUE(q.take_spans().empty());
}

// A build without OpenCL or CUDA has no kernel backend to test.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BackendErrors);
INSTANTIATE_TEST_SUITE_P(Backends, BackendErrors, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing

namespace harness::testing {
namespace {

using ExtraQueues = DeviceTest;

// A second queue works independently of the default one.
TEST_P(ExtraQueues, SecondQueueCopiesAndTimes) {
  auto q2 = device_->create_queue();
  std::vector<std::uint32_t> in(4096), out(4096, 0);
  for (std::uint32_t i = 0; i < in.size(); ++i) in[i] = i * 7u + 1u;
  backend::Buffer a = device_->allocate(in.size() * 4), b = device_->allocate(in.size() * 4);
  q2->begin_span("copy");
  q2->write(a, 0, in.data(), in.size() * 4);
  q2->copy(b, 0, a, 0, in.size() * 4);
  q2->end_span();
  q2->read(out.data(), b, 0, out.size() * 4);
  q2->finish();
  EXPECT_EQ(out, in);
  auto spans = q2->take_spans();
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_GT(spans[0].milliseconds, 0.0);
}

// A build without OpenCL or CUDA has no kernel backend to test.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ExtraQueues);
INSTANTIATE_TEST_SUITE_P(Backends, ExtraQueues, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
