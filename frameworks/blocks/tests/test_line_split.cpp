// Line records found on the device (frameworks/blocks/line_split.h) on every
// kernel backend present, against the host split the apps use
// (apps::split_lines).
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "frameworks/blocks/line_split.h"
#include "frameworks/mapreduce/apps/records.h"
#include "harness/backend/tests/device_fixture.h"

namespace harness::testing {
namespace {

using LineSplitTest = DeviceTest;

std::vector<std::uint32_t> device_split(backend::Device& device, blocks::LineSplit& split,
                                        const std::string& text) {
  backend::Buffer input = device.allocate(std::max<std::size_t>(text.size(), 1));
  if (!text.empty()) device.queue().write(input, 0, text.data(), text.size());
  const std::uint32_t lines =
      split.split(input, static_cast<std::uint32_t>(text.size()), "test.lines");
  std::vector<std::uint32_t> out(std::size_t{lines} + 1);
  device.queue().read(out.data(), split.starts(), 0, out.size() * 4);
  device.queue().finish();
  return out;
}

// Short texts with every edge (empty lines, CR LF, a last line without its
// '\n', a segment's last byte), then random ones across many segments and
// scan tiles.
std::vector<std::string> test_texts() {
  std::mt19937 rng(11);
  std::vector<std::string> texts = {"",
                                    "\n",
                                    "x",
                                    "\n\n\n",
                                    "ab\ncd",
                                    "ab\ncd\n",
                                    "\r\n\r\nx\n",
                                    std::string(64, '\n'),
                                    "\r",
                                    "a\r",
                                    "\r\r\n\n\rx\r\n\r",
                                    std::string(63, 'a') + "\n" + std::string(64, 'b') + "\nc"};
  // Random texts across many segments and scan tiles: short and long lines.
  for (std::size_t size : {1000u, 65536u, 300001u}) {
    std::string t(size, 'x');
    for (char& c : t) c = rng() % 7 == 0 ? '\n' : static_cast<char>('a' + rng() % 26);
    texts.push_back(t);
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = i % 1000 == 999 ? '\n' : 'y';
    texts.push_back(t);
    for (char& c : t) c = "\n\r\nab"[rng() % 5];
    texts.push_back(t);
  }
  return texts;
}

TEST_P(LineSplitTest, MatchesTheHostSplit) {
  blocks::BufferPool pool(*device_);
  blocks::LineSplit split(pool);
  for (const std::string& text : test_texts()) {
    const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
    EXPECT_EQ(device_split(*device_, split, text), apps::split_lines(data, text.size()))
        << text.size() << " bytes";
  }
}

// The u64 starts (split_wide), every line or the non-empty ones only, then
// the end; a buffer too small for them is left alone.
TEST_P(LineSplitTest, WideStartsSkipEmptyLines) {
  blocks::BufferPool pool(*device_);
  blocks::LineSplit split(pool);
  for (const std::string& text : test_texts()) {
    const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
    const std::vector<std::uint32_t> every = apps::split_lines(data, text.size());
    for (const bool skip_empty : {false, true}) {
      std::vector<std::uint64_t> want;
      for (std::size_t l = 0; l + 1 < every.size(); ++l) {
        std::size_t len = every[l + 1] - every[l];
        if (len && text[every[l] + len - 1] == '\n') --len;
        if (len && text[every[l] + len - 1] == '\r') --len;
        if (len || !skip_empty) want.push_back(every[l]);
      }
      want.push_back(text.size());
      backend::Buffer input = device_->allocate(std::max<std::size_t>(text.size(), 1));
      if (!text.empty()) device_->queue().write(input, 0, text.data(), text.size());
      backend::Buffer starts = device_->allocate(want.size() * 8);
      const std::uint32_t lines = split.split_wide(input, static_cast<std::uint32_t>(text.size()),
                                                   skip_empty, starts, want.size());
      ASSERT_EQ(lines + 1, want.size()) << text.size() << " bytes, skip_empty " << skip_empty;
      std::vector<std::uint64_t> got(want.size());
      device_->queue().read(got.data(), starts, 0, got.size() * 8);
      EXPECT_EQ(got, want) << text.size() << " bytes, skip_empty " << skip_empty;
      if (want.size() > 1) {
        // One start short: the count comes back, nothing is written.
        const std::vector<std::uint64_t> before(want.size(), 7);
        device_->queue().write(starts, 0, before.data(), before.size() * 8);
        EXPECT_EQ(split.split_wide(input, static_cast<std::uint32_t>(text.size()), skip_empty,
                                   starts, want.size() - 1),
                  lines);
        device_->queue().read(got.data(), starts, 0, got.size() * 8);
        EXPECT_EQ(got, before);
      }
    }
  }
}

// A build without OpenCL or CUDA has no kernel backend to test.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LineSplitTest);
INSTANTIATE_TEST_SUITE_P(Backends, LineSplitTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
