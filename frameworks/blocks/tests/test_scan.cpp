// The portable prefix sum (frameworks/blocks/kernels/scan.cl) on every kernel
// backend present, against std::exclusive_scan.
#include <numeric>
#include <random>

#include "frameworks/blocks/scan.h"
#include "harness/backend/tests/device_fixture.h"

namespace harness::testing {
namespace {

using ScanTest = DeviceTest;

TEST_P(ScanTest, MatchesHostScanAtTileBoundaries) {
  blocks::BufferPool pool(*device_);
  blocks::Scan scan(pool);
  std::mt19937 rng(7);
  for (std::uint32_t n : {1u, 2u, 255u, 1023u, 1024u, 1025u, 4096u, 70000u, 1048577u}) {
    std::vector<std::uint32_t> in(n);
    for (auto& v : in) v = static_cast<std::uint32_t>(rng() % 1000);
    std::vector<std::uint32_t> expected(n);
    std::exclusive_scan(in.begin(), in.end(), expected.begin(), 0u);
    const std::uint64_t expected_total = std::accumulate(in.begin(), in.end(), std::uint64_t{0});

    backend::Buffer buf = device_->allocate(n * 4);
    device_->queue().write(buf, 0, in.data(), n * 4);
    std::uint64_t total = scan.exclusive(buf, n);
    std::vector<std::uint32_t> out(n);
    device_->queue().read(out.data(), buf, 0, n * 4);
    device_->queue().finish();
    EXPECT_EQ(total, expected_total) << "n = " << n;
    EXPECT_EQ(out, expected) << "n = " << n;
  }
}

// A build without OpenCL or CUDA has no kernel backend to test.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ScanTest);
INSTANTIATE_TEST_SUITE_P(Backends, ScanTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing

namespace harness::testing {
namespace {

using ScanOverflow = DeviceTest;

// A total of 2^32 or more is reported as kOverflow, within a tile and across
// tiles; a total of exactly 2^32 - 1 is not.
TEST_P(ScanOverflow, TotalsThatDoNotFit32BitsAreReported) {
  blocks::BufferPool pool(*device_);
  blocks::Scan scan(pool);
  auto total_of = [&](const std::vector<std::uint32_t>& in) {
    backend::Buffer buf = device_->allocate(in.size() * 4);
    device_->queue().write(buf, 0, in.data(), in.size() * 4);
    const std::uint64_t total = scan.exclusive(buf, static_cast<std::uint32_t>(in.size()));
    device_->queue().finish();
    return total;
  };
  EXPECT_EQ(total_of({0x80000000u, 0x80000000u}), blocks::Scan::kOverflow);
  EXPECT_EQ(total_of({0xffffffffu}), 0xffffffffu);
  EXPECT_EQ(total_of({0x7fffffffu, 0x80000000u}), 0xffffffffu);
  EXPECT_EQ(total_of(std::vector<std::uint32_t>(2048, 1u << 21)), blocks::Scan::kOverflow);
  EXPECT_EQ(total_of(std::vector<std::uint32_t>(5000, 3u)), 15000u);  // the flag is reset
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ScanOverflow);
INSTANTIATE_TEST_SUITE_P(Backends, ScanOverflow, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
