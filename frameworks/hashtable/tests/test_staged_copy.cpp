// StagedCopy (staged_copy.h) on every kernel backend with a device (PoCL in
// CI): ranges of a device buffer land in host memory byte for byte, through
// chunks small enough that ranges cross chunk ends, chunks skip gaps, and a
// range spans several chunks; bytes outside the ranges stay untouched.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "frameworks/hashtable/staged_copy.h"
#include "harness/backend/tests/device_fixture.h"

namespace harness::testing {
namespace {

using hashtable::StagedCopy;

class StagedCopyTest : public DeviceTest {};

TEST_P(StagedCopyTest, RangesArriveWhereTheyGo) {
  constexpr std::size_t kBytes = 10000;
  std::vector<std::uint8_t> source(kBytes);
  for (std::size_t i = 0; i < kBytes; ++i) source[i] = static_cast<std::uint8_t>(i * 7 + i / 251);
  backend::Buffer buffer = device_->allocate(kBytes);
  backend::Queue& q = device_->queue();
  q.write(buffer, 0, source.data(), kBytes);

  // {offset, bytes}: adjacent ranges, a gap, an empty range, one longer than
  // three chunks, one ending at the buffer's end.
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> wanted = {
      {0, 40}, {40, 100}, {500, 0}, {700, 333}, {1100, 1000}, {9000, 1000}};
  for (const std::uint64_t chunk : {std::uint64_t{64}, std::uint64_t{300}, std::uint64_t{kBytes}}) {
    StagedCopy copier(*device_, chunk);
    std::vector<std::uint8_t> host(kBytes, 0xEE);
    std::vector<StagedCopy::Range> ranges;
    for (const auto& [offset, bytes] : wanted)
      ranges.push_back({offset, bytes, host.data() + offset});
    copier.copy(q, buffer, ranges);
    std::vector<bool> inside(kBytes, false);
    for (const auto& [offset, bytes] : wanted)
      for (std::uint64_t i = offset; i < offset + bytes; ++i) inside[i] = true;
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < kBytes; ++i) wrong += host[i] != (inside[i] ? source[i] : 0xEE);
    EXPECT_EQ(wrong, 0u) << "chunk " << chunk;
  }
  StagedCopy copier(*device_, 64);
  copier.copy(q, buffer, {});  // nothing to copy: returns
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(StagedCopyTest);
INSTANTIATE_TEST_SUITE_P(Backends, StagedCopyTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
