// The copy-then-compute pipeline (frameworks/blocks/pipeline.h): pieces cut
// where the caller allows, every byte delivered to its lane's buffer before
// the lane's compute, lane buffers reused only in queue order.
#include <cstring>
#include <random>
#include <vector>

#include "frameworks/blocks/pipeline.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

using blocks::CopyComputePipeline;

TEST(PipelineCut, PiecesCoverTheInputAndEndWhereTheCutAllows) {
  // Cuts only after multiples of 7 (a record boundary), forward of the nominal end.
  auto after7 = [](std::size_t at) { return std::min<std::size_t>((at + 6) / 7 * 7, 100); };
  const auto pieces = CopyComputePipeline::cut(100, 30, after7);
  std::size_t next = 0;
  for (const auto& p : pieces) {
    EXPECT_EQ(p.offset, next);
    EXPECT_GE(p.bytes, 30u - 0u);
    EXPECT_TRUE((p.offset + p.bytes) % 7 == 0 || p.offset + p.bytes == 100);
    next = p.offset + p.bytes;
  }
  EXPECT_EQ(next, 100u);
  EXPECT_EQ(pieces.size(), 3u);  // [0,35) [35,70) [70,100)
  EXPECT_TRUE(CopyComputePipeline::cut(0, 30).empty());
  EXPECT_EQ(CopyComputePipeline::cut(10, 64).size(), 1u);
  EXPECT_THROW(CopyComputePipeline::cut(10, 0), UsageError);
  // A cut that does not move forward is an error, not an endless loop.
  EXPECT_THROW(CopyComputePipeline::cut(10, 4, [](std::size_t) { return std::size_t{0}; }),
               RunError);
}

using PipelineTest = DeviceTest;

// Each piece's compute copies the lane buffer into its place in a device
// output; the output read back equals the input only if every piece arrived
// whole in its lane's buffer before its compute and no later copy overwrote a
// buffer its earlier compute still needed.
TEST_P(PipelineTest, ReassemblesTheInputOverSeveralLanes) {
  blocks::BufferPool pool(*device_);
  CopyComputePipeline pipeline(*device_, pool, "test");
  std::mt19937 rng(11);
  for (std::uint32_t lanes : {1u, 2u, 3u}) {
    for (std::size_t size : {std::size_t{1}, std::size_t{4095}, std::size_t{1} << 20}) {
      SCOPED_TRACE("lanes " + std::to_string(lanes) + ", bytes " + std::to_string(size));
      backend::HostBuffer host = device_->allocate_host(size, backend::HostMemory::pinned);
      auto* bytes = static_cast<std::uint8_t*>(host.data());
      for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::uint8_t>(rng());
      backend::Buffer out = device_->allocate(size);
      device_->queue().fill_zero(out, 0, size);
      device_->queue().finish();
      pipeline.set_lanes(lanes);
      const auto pieces = CopyComputePipeline::cut(size, 1000);
      const auto busy = pipeline.run(
          bytes, pieces,
          [&](backend::Queue& q, backend::Buffer& piece, std::size_t i) {
            q.copy(out, pieces[i].offset, piece, 0, pieces[i].bytes);
          },
          "reassemble");
      EXPECT_GE(busy.copy_ms, 0);
      std::vector<std::uint8_t> back(size);
      device_->queue().read(back.data(), out, 0, size);
      device_->queue().finish();
      ASSERT_EQ(0, std::memcmp(back.data(), bytes, size));
      EXPECT_EQ(pipeline.lanes(), lanes);
    }
  }
  EXPECT_THROW(pipeline.set_lanes(0), UsageError);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PipelineTest);
INSTANTIATE_TEST_SUITE_P(Backends, PipelineTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
