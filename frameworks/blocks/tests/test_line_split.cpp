// Line records found on the device (frameworks/blocks/line_split.h) on every
// kernel backend present, against the host split the apps use
// (apps::split_lines).
#include <random>
#include <string>

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

TEST_P(LineSplitTest, MatchesTheHostSplit) {
  blocks::BufferPool pool(*device_);
  blocks::LineSplit split(pool);
  std::mt19937 rng(11);
  std::vector<std::string> texts = {"",
                                    "\n",
                                    "x",
                                    "\n\n\n",
                                    "ab\ncd",
                                    "ab\ncd\n",
                                    "\r\n\r\nx\n",
                                    std::string(64, '\n'),
                                    std::string(63, 'a') + "\n" + std::string(64, 'b') + "\nc"};
  // Random texts across many segments and scan tiles: short and long lines.
  for (std::size_t size : {1000u, 65536u, 300001u}) {
    std::string t(size, 'x');
    for (char& c : t) c = rng() % 7 == 0 ? '\n' : static_cast<char>('a' + rng() % 26);
    texts.push_back(t);
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = i % 1000 == 999 ? '\n' : 'y';
    texts.push_back(t);
  }
  for (const std::string& text : texts) {
    const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
    EXPECT_EQ(device_split(*device_, split, text), apps::split_lines(data, text.size()))
        << text.size() << " bytes";
  }
}

// A build without OpenCL or CUDA has no kernel backend to test.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LineSplitTest);
INSTANTIATE_TEST_SUITE_P(Backends, LineSplitTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
