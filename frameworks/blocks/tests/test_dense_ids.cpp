// Dense ids (frameworks/blocks/dense_ids.h) on every kernel backend present,
// against a host count: the used ids numbered in order, the keys renumbered,
// the used items compacted; no keys, one id used many times, every id used.
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/dense_ids.h"
#include "harness/backend/tests/device_fixture.h"

namespace harness::testing {
namespace {

using DenseIdsTest = DeviceTest;

TEST_P(DenseIdsTest, UsedIdsAreNumberedInOrderAndTheirItemsCompacted) {
  blocks::BufferPool pool(*device_);
  blocks::DenseIds dense(pool);
  auto& q = device_->queue();
  std::mt19937 rng(7);
  struct Case {
    std::uint32_t n, count, distinct;  // keys drawn from `distinct` ids spread over [0, n)
  };
  for (const Case c : {Case{1000, 0, 1}, Case{1, 500, 1}, Case{130000, 4224, 16},
                       Case{5000, 20000, 5000}, Case{70000, 300001, 900}}) {
    std::vector<std::uint32_t> pool_ids(c.distinct);
    for (std::uint32_t& id : pool_ids) id = rng() % c.n;
    std::vector<std::uint32_t> keys(c.count);
    for (std::uint32_t& k : keys) k = pool_ids[rng() % c.distinct];
    const std::set<std::uint32_t> used(keys.begin(), keys.end());
    std::vector<std::uint32_t> items(std::size_t{c.n} * 3);
    for (std::size_t i = 0; i < items.size(); ++i) items[i] = static_cast<std::uint32_t>(i * 7 + 1);

    backend::Buffer d_keys = device_->allocate(std::max<std::size_t>(keys.size(), 1) * 4);
    backend::Buffer d_items = device_->allocate(items.size() * 4);
    backend::Buffer d_out = device_->allocate(std::max<std::size_t>(used.size(), 1) * 12);
    if (!keys.empty()) q.write(d_keys, 0, keys.data(), keys.size() * 4);
    q.write(d_items, 0, items.data(), items.size() * 4);
    const std::uint32_t got = dense.number(d_keys, c.count, c.n);
    ASSERT_EQ(got, used.size()) << c.n << " " << c.count;
    dense.renumber(d_keys, c.count);
    dense.compact(d_items, 3, d_out);
    std::vector<std::uint32_t> renumbered(keys.size()), out(used.size() * 3);
    if (!keys.empty()) q.read(renumbered.data(), d_keys, 0, keys.size() * 4);
    if (!out.empty()) q.read(out.data(), d_out, 0, out.size() * 4);
    q.finish();
    const std::vector<std::uint32_t> order(used.begin(), used.end());
    for (std::size_t i = 0; i < keys.size(); ++i) {
      ASSERT_EQ(order[renumbered[i]], keys[i]) << "key " << i;
    }
    for (std::size_t d = 0; d < order.size(); ++d) {
      for (std::uint32_t w = 0; w < 3; ++w) {
        ASSERT_EQ(out[d * 3 + w], items[std::size_t{order[d]} * 3 + w]) << "item " << d;
      }
    }
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DenseIdsTest);
INSTANTIATE_TEST_SUITE_P(Backends, DenseIdsTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
