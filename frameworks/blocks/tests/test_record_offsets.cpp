// Record offsets of fixed-size records written on the device
// (frameworks/blocks/record_offsets.h) on every kernel backend present,
// against the arithmetic; offsets that would pass 32 bits are refused.
#include <cstdint>
#include <tuple>
#include <vector>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/record_offsets.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

using RecordOffsetsTest = DeviceTest;

TEST_P(RecordOffsetsTest, StridedOffsetsEndWithTheEnd) {
  blocks::BufferPool pool(*device_);
  blocks::RecordOffsets offsets(pool);
  for (const auto& [first, stride, count] :
       {std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>{0, 4, 0},
        {128, 12, 1},
        {80, 68, 300001},
        {7, 1, 255},
        {0, 4096, 1000}}) {
    backend::Buffer& out = offsets.write(first, stride, count, "test.offsets");
    std::vector<std::uint32_t> got(std::size_t{count} + 1);
    device_->queue().read(got.data(), out, 0, got.size() * 4);
    device_->queue().finish();
    for (std::uint32_t i = 0; i <= count; ++i) {
      ASSERT_EQ(got[i], first + i * stride)
          << first << " " << stride << " " << count << " at " << i;
    }
  }
  EXPECT_THROW(offsets.write(16, 1u << 20, 4096, "test.offsets"), RunError);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RecordOffsetsTest);
INSTANTIATE_TEST_SUITE_P(Backends, RecordOffsetsTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
