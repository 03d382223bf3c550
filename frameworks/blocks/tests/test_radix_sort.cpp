// The portable radix sort of (key, value) pairs (frameworks/blocks/kernels/
// radix_sort.cl) on every kernel backend present, against std::stable_sort.
// Values are the pairs' original indices, so comparing them checks stability.
#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "frameworks/blocks/radix_sort.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

using blocks::RadixSort;
constexpr std::uint32_t kTile = blocks::RadixSort::kTile;

struct Pairs {
  std::vector<std::uint32_t> keys, values;
};

// The pairs with values = indices, stably sorted by the low key_bits bits.
Pairs expected_sort(const std::vector<std::uint32_t>& keys, int key_bits) {
  const std::uint32_t mask = key_bits >= 32 ? ~0u : (1u << key_bits) - 1u;
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return (keys[a] & mask) < (keys[b] & mask);
  });
  Pairs out;
  for (std::uint32_t i : order) out.keys.push_back(keys[i]);
  out.values = order;
  return out;
}

class RadixSortTest : public DeviceTest {
 protected:
  // Sorts (keys, indices) on the device in buffers with `tail` extra
  // elements of a sentinel after n, checks them against expected_sort and
  // that the tail is untouched.
  void check(const std::vector<std::uint32_t>& keys, int key_bits, const std::string& what,
             std::size_t tail = 3) {
    const auto n = static_cast<std::uint32_t>(keys.size());
    constexpr std::uint32_t kSentinel = 0xdeadbeefu;
    std::vector<std::uint32_t> host_keys(keys), host_values(n);
    std::iota(host_values.begin(), host_values.end(), 0u);
    host_keys.resize(n + tail, kSentinel);
    host_values.resize(n + tail, kSentinel);
    const std::size_t bytes = host_keys.size() * 4;
    backend::Buffer key_buf = device_->allocate(bytes);
    backend::Buffer value_buf = device_->allocate(bytes);
    auto& q = device_->queue();
    q.write(key_buf, 0, host_keys.data(), bytes);
    q.write(value_buf, 0, host_values.data(), bytes);
    sort_->sort_pairs(key_buf, value_buf, n, key_bits);
    q.read(host_keys.data(), key_buf, 0, bytes);
    q.read(host_values.data(), value_buf, 0, bytes);
    q.finish();

    Pairs want = expected_sort(keys, key_bits);
    want.keys.resize(n + tail, kSentinel);
    want.values.resize(n + tail, kSentinel);
    // Report the first difference rather than two vectors of millions.
    std::size_t first_bad = n + tail;
    for (std::size_t i = 0; i < n + tail; ++i) {
      if (host_keys[i] != want.keys[i] || host_values[i] != want.values[i]) {
        first_bad = i;
        break;
      }
    }
    EXPECT_EQ(first_bad, n + tail)
        << what << " (n = " << n << ", key_bits = " << key_bits << "): at " << first_bad << " got ("
        << host_keys[first_bad] << ", " << host_values[first_bad] << "), want ("
        << want.keys[first_bad] << ", " << want.values[first_bad] << ")";
  }

  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    pool_ = std::make_unique<blocks::BufferPool>(*device_);
    sort_ = std::make_unique<blocks::RadixSort>(*pool_);
  }

  std::vector<std::uint32_t> random_keys(std::size_t n, std::uint32_t modulo = 0) {
    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys) {
      const auto r = static_cast<std::uint32_t>(rng_());  // mt19937 gives 32 bits
      k = modulo ? r % modulo : r;
    }
    return keys;
  }

  std::mt19937 rng_{2024};
  // Declared after the base's device_, so destroyed before it.
  std::unique_ptr<blocks::BufferPool> pool_;
  std::unique_ptr<blocks::RadixSort> sort_;
};

// One RadixSort for every size, so its pooled scratch grows and is reused.
TEST_P(RadixSortTest, RandomKeysAtTileBoundaries) {
  for (std::uint32_t n : {0u, 1u, 2u, 3u, 255u, 256u, 257u, kTile - 1, kTile, kTile + 1, 2 * kTile,
                          3 * kTile + 17, 100000u}) {
    check(random_keys(n), 32, "random");
  }
}

TEST_P(RadixSortTest, OrderedAndDegenerateInputs) {
  for (std::uint32_t n : {kTile + 1, 5 * kTile + 123}) {
    check(std::vector<std::uint32_t>(n, 0x12345678u), 32, "all equal");
    check(std::vector<std::uint32_t>(n, 0xffffffffu), 32, "all 0xffffffff");
    std::vector<std::uint32_t> ascending(n);
    std::iota(ascending.begin(), ascending.end(), 0u);
    check(ascending, 32, "already sorted");
    std::vector<std::uint32_t> descending(ascending.rbegin(), ascending.rend());
    check(descending, 32, "reversed");
    // Spread over the whole 32 bits, so every pass moves pairs.
    std::vector<std::uint32_t> scaled(n);
    for (std::uint32_t i = 0; i < n; ++i) scaled[i] = (n - i) * 2654435761u;
    check(scaled, 32, "scrambled distinct");
  }
}

// Few distinct keys: long runs of equal keys, whose order is checked through
// the values. 0xffffffff is also what a partial tile pads with.
TEST_P(RadixSortTest, FewDistinctKeysAreStable) {
  const std::uint32_t distinct[] = {0u, 1u, 0x100u, 0x10000u, 0xff00ff00u, 0xffffffffu};
  for (std::uint32_t n : {kTile - 1, kTile + 100, 7 * kTile + 5}) {
    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys) k = distinct[rng_() % 6];
    check(keys, 32, "six distinct keys");
    check(random_keys(n, 3), 32, "keys 0-2");
  }
}

// Only the low key_bits bits are compared; the others are carried along.
TEST_P(RadixSortTest, PartialKeyBits) {
  for (int key_bits : {0, 1, 4, 5, 8, 12, 16, 17, 24, 31, 32}) {
    check(random_keys(3 * kTile + 7), key_bits, "random, partial key bits");
  }
  check(random_keys(50000, 1u << 20), 20, "keys below 2^20");
}

TEST_P(RadixSortTest, AFewMillionPairs) {
  check(random_keys(3000017), 32, "3M random");
  check(random_keys(2000003, 1000), 32, "2M keys 0-999");
}

TEST_P(RadixSortTest, BadArgumentsAreUsageErrors) {
  backend::Buffer keys = device_->allocate(64), values = device_->allocate(64);
  EXPECT_THROW(sort_->sort_pairs(keys, values, 16, 33), UsageError);
  EXPECT_THROW(sort_->sort_pairs(keys, values, 16, -1), UsageError);
  EXPECT_THROW(sort_->sort_pairs(keys, values, 17), UsageError);
}

// A build without OpenCL or CUDA has no kernel backend to test.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RadixSortTest);
INSTANTIATE_TEST_SUITE_P(Backends, RadixSortTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
