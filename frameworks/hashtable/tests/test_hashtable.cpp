// The SePo hash table on every kernel backend with a device (PoCL in CI):
// hashtable/combining on netflix against the workload's reference in one
// iteration and in several (a budget that postpones), one hot bucket, all
// keys distinct, a budget too small for one page per bucket group, and the
// host-side walk of the final table through its CPU pointers.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "datasets/dataset.h"
#include "frameworks/hashtable/hashtable.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "harness/suite/register_all.h"

namespace harness::testing {
namespace {

std::string generate(const std::string& generator, std::uint64_t size, std::uint64_t seed = 42) {
  std::ostringstream out;
  datasets::find_generator(generator).generate(size, seed, out);
  return std::move(out).str();
}

// `n` netflix records; record i rates users pair(i) with ratings from i.
template <class Pair>
std::string ratings(std::uint32_t n, Pair pair) {
  std::string data(std::size_t{n} * 40, '\0');
  for (std::uint32_t i = 0; i < n; ++i) {
    char* r = data.data() + std::size_t{i} * 40;
    const auto [a, b] = pair(i);
    const auto ra = static_cast<std::uint16_t>(1 + i % 5);
    const auto rb = static_cast<std::uint16_t>(1 + (i / 5) % 5);
    std::memcpy(r, &i, 4);
    std::memcpy(r + 4, &a, 4);
    std::memcpy(r + 8, &b, 4);
    std::memcpy(r + 12, &ra, 2);
    std::memcpy(r + 14, &rb, 2);
  }
  return data;
}

struct PointRun {
  std::string validation;  // "" when it matched the reference
  Measurement measurement;
};

constexpr std::uint64_t kRoomy = 64 << 20;

class HashTableTest : public DeviceTest {
 protected:
  PointRun run(const std::string& input, std::uint64_t budget, const Params& params = {},
               int repetitions = 2) {
    register_all();
    const VariantInfo& v = Registry::instance().find_variant("hashtable", "combining");
    const AppInfo& a = Registry::instance().find_app("netflix");
    device_->set_memory_budget(budget);
    PointContext ctx;
    ctx.device = device_.get();
    ctx.devices = {device_.get()};
    ctx.app = "netflix";
    ctx.input = reinterpret_cast<const std::uint8_t*>(input.data());
    ctx.input_size = input.size();
    ctx.params = point_defaults(v, a);
    for (const auto& [k, value] : params) ctx.params[k] = value;
    ctx.validation = a.validation;
    auto point = v.make(ctx);
    point->prepare();
    PointRun r;
    for (int i = 0; i < repetitions; ++i) {  // the second run reuses buffers and arenas
      point->before_repetition();
      r.measurement = point->run_once();
      r.validation = point->validate_last();
      if (!r.validation.empty()) break;
    }
    return r;
  }
  double counter(const PointRun& r, const std::string& name) {
    return r.measurement.counters.at(name);
  }
};

const Params kSmallPages = {{"page_bytes", "1024"}, {"bucket_group", "512"}};

TEST_P(HashTableTest, NetflixInOneIteration) {
  const std::string input = generate("netflix-pairs", 2 << 20);
  const PointRun r = run(input, kRoomy, kSmallPages);
  EXPECT_EQ(r.validation, "");
  EXPECT_EQ(counter(r, "iterations"), 1);
  EXPECT_EQ(counter(r, "postponed_first_iteration"), 0);
  EXPECT_GT(counter(r, "entries"), 0);
}

TEST_P(HashTableTest, NetflixInSeveralIterations) {
  const std::string input = generate("netflix-pairs", 2 << 20);
  const PointRun one = run(input, kRoomy, kSmallPages, 1);
  ASSERT_EQ(one.validation, "");
  // What the budget leaves beside the heap stays; the heap shrinks to ~40% of
  // the pages one iteration used.
  const double page = 1024, heap_pages = counter(one, "heap_pages");
  const double used = counter(one, "pages_used");
  const auto fixed = static_cast<std::uint64_t>(kRoomy - heap_pages * page);
  const auto budget = fixed + static_cast<std::uint64_t>(used * 0.4 * page) + 512;
  const PointRun r = run(input, budget, kSmallPages);
  EXPECT_EQ(r.validation, "");
  EXPECT_GE(counter(r, "iterations"), 2);
  EXPECT_LE(counter(r, "iterations"), 4);
  EXPECT_GT(counter(r, "postponed_first_iteration"), 0);
  EXPECT_GE(counter(r, "bucket_groups"), 1);
  EXPECT_LE(counter(r, "heap_pages"), used * 0.4 + 1);
  // Keys inserted in several iterations have an entry in each arena.
  EXPECT_GE(counter(r, "entries"), counter(one, "entries"));
}

TEST_P(HashTableTest, AllKeysEqualOneHotBucket) {
  const std::string input = ratings(20000, [](std::uint32_t) {
    return std::pair<std::uint32_t, std::uint32_t>{7, 11};
  });
  const PointRun r = run(input, kRoomy);
  EXPECT_EQ(r.validation, "");
  EXPECT_EQ(counter(r, "entries"), 1);
  EXPECT_EQ(counter(r, "iterations"), 1);
}

TEST_P(HashTableTest, AllKeysDistinctInSeveralIterations) {
  const std::string input = ratings(30000, [](std::uint32_t i) {
    return std::pair<std::uint32_t, std::uint32_t>{i, i + 1 + i % 3};
  });
  const PointRun one = run(input, kRoomy, kSmallPages, 1);
  EXPECT_EQ(one.validation, "");
  EXPECT_EQ(counter(one, "entries"), 30000);
  const double page = 1024, heap_pages = counter(one, "heap_pages");
  const auto fixed = static_cast<std::uint64_t>(kRoomy - heap_pages * page);
  const auto budget =
      fixed + static_cast<std::uint64_t>(counter(one, "pages_used") * 0.5 * page) + 512;
  const PointRun r = run(input, budget, kSmallPages);
  EXPECT_EQ(r.validation, "");
  EXPECT_GE(counter(r, "iterations"), 2);
  EXPECT_EQ(counter(r, "entries"), 30000);  // distinct keys: never two entries of one key
}

TEST_P(HashTableTest, PoolExhaustedOnTheFirstInsert) {
  const std::string input = generate("netflix-pairs", 40 * 4000, 3);
  // 4096 buckets in groups of 64: 64 groups need 64 pages of 4096 B.
  const Params params = {{"buckets", "4096"}, {"bucket_group", "64"}, {"page_bytes", "4096"}};
  const std::uint64_t fixed = 40 * 4000 + 4096 * 16 + 64 * 4 + 12 + 500;
  try {
    run(input, fixed + 10 * 4096, params);
    ADD_FAILURE() << "no error";
  } catch (const RunError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cannot hold one page per bucket group"), std::string::npos) << what;
    EXPECT_NE(what.find("64 bucket groups"), std::string::npos) << what;
    EXPECT_NE(what.find("only 10 page(s) fit"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST_P(HashTableTest, EmptyInput) {
  const PointRun r = run(std::string(), kRoomy);
  EXPECT_EQ(r.validation, "");
  EXPECT_EQ(counter(r, "entries"), 0);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HashTableTest);
INSTANTIATE_TEST_SUITE_P(Backends, HashTableTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

// The host walk follows CPU pointers across arenas: two entries of one
// bucket in two arenas, the newer first.
TEST(HostTable, WalkFollowsCpuPointersAcrossArenas) {
  alignas(8) std::uint32_t old_arena[8] = {}, new_arena[8] = {};
  const auto addr = [](const void* p) {
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
  };
  old_arena[3] = 4 | 8 << 16;  // key 4 B, value 8 B
  old_arena[4] = 42;
  old_arena[5] = 1;
  old_arena[6] = 2;
  const std::uint64_t next = addr(old_arena);
  std::memcpy(new_arena, &next, 8);
  new_arena[3] = 4 | 4 << 16;
  new_arena[4] = 43;
  new_arena[5] = 3;
  const std::vector<std::uint64_t> heads = {0, addr(new_arena), 0};
  std::vector<std::uint32_t> seen;
  const std::uint64_t n = hashtable::walk_host_table(heads, [&](const hashtable::HostEntry& e) {
    seen.push_back(e.key[0]);
    seen.push_back(e.value_bytes);
    seen.push_back(e.value[0]);
  });
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{43, 4, 3, 42, 8, 1}));
}

}  // namespace
}  // namespace harness::testing
