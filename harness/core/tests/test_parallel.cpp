// harness/core/parallel.h: the ranges parallel_ranges hands out cover [0, n)
// once, in as many workers as workers_for says, and it returns that count.
// harness/core/parallel_sort.h: gather_sorted_by_key orders the rows of its
// pieces as a plain sort does, whatever the keys' spread.
// harness/core/per_worker.h: each worker's value on cache lines no other
// worker's value touches, built from the arguments given, taken in order.
#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <random>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "harness/core/host_cores.h"
#include "harness/core/parallel.h"
#include "harness/core/parallel_sort.h"
#include "harness/core/per_worker.h"

namespace harness {
namespace {

TEST(Parallel, WorkersFollowTheItemsAndTheCap) {
  EXPECT_EQ(workers_for(0, 8, 100), 1u);
  EXPECT_EQ(workers_for(100, 8, 100), 1u);
  EXPECT_EQ(workers_for(101, 8, 100), 2u);
  EXPECT_EQ(workers_for(10000, 8, 100), 8u);
  const unsigned cores = harness::usable_cores();
  EXPECT_EQ(workers_for(1u << 30, 0, 1), cores);
}

TEST(Parallel, RangesCoverEveryItemOnce) {
  for (const auto& [n, max_workers] :
       std::vector<std::pair<std::uint64_t, unsigned>>{{0, 4}, {1, 4}, {999, 3}, {10007, 7}}) {
    std::mutex mutex;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    const unsigned used =
        parallel_ranges(n, max_workers, 100, [&](std::uint64_t b, std::uint64_t e) {
          std::lock_guard lock(mutex);
          ranges.emplace_back(b, e);
        });
    std::sort(ranges.begin(), ranges.end());
    EXPECT_EQ(ranges.size(), workers_for(n, max_workers, 100)) << n;
    EXPECT_EQ(used, ranges.size()) << n;
    std::uint64_t next = 0;
    for (const auto& [b, e] : ranges) {
      EXPECT_EQ(b, next) << n;
      EXPECT_LE(b, e) << n;
      next = e;
    }
    EXPECT_EQ(next, n);
  }
}

// A process pinned to fewer cores (taskset, a cpuset) sizes its pools by
// them: on a thread pinned to one core of its mask, one worker.
TEST(Parallel, UsableCoresFollowTheAffinityMask) {
  cpu_set_t all;
  CPU_ZERO(&all);
  ASSERT_EQ(sched_getaffinity(0, sizeof(all), &all), 0);
  EXPECT_EQ(usable_cores(), static_cast<unsigned>(CPU_COUNT(&all)));
  EXPECT_LE(usable_cores(), machine_cores());
  unsigned pinned_cores = 0, pinned_workers = 0;
  std::thread pinned([&] {  // the mask is the thread's own: the test's stays whole
    int first = 0;
    while (!CPU_ISSET(first, &all)) ++first;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    if (sched_setaffinity(0, sizeof(one), &one) != 0) return;
    pinned_cores = usable_cores();
    pinned_workers = workers_for(1u << 30, 0, 1);
  });
  pinned.join();
  EXPECT_EQ(pinned_cores, 1u);
  EXPECT_EQ(pinned_workers, 1u);
}

struct KeyedRow {
  std::uint64_t key;
  std::uint64_t payload;
};

// Sorted by key, then payload: a unique order to compare an unstable sort with.
std::vector<KeyedRow> canonical(std::vector<KeyedRow> rows) {
  std::sort(rows.begin(), rows.end(), [](const KeyedRow& a, const KeyedRow& b) {
    return a.key != b.key ? a.key < b.key : a.payload < b.payload;
  });
  return rows;
}

TEST(ParallelSort, GatherSortedByKeyOrdersEveryRowOfEveryPiece) {
  std::mt19937_64 rng(7);
  const auto make = [&](std::size_t n, auto key_of) {
    std::vector<KeyedRow> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = {key_of(), i};
    return v;
  };
  const std::vector<std::pair<const char*, std::vector<KeyedRow>>> inputs = {
      {"random 64-bit", make(300000, [&] { return rng(); })},
      {"narrow, repeated", make(200000, [&] { return 1000 + rng() % 4000; })},
      {"all equal", make(100000, [] { return std::uint64_t{42}; })},
      {"extremes", make(150000,
                        [&] {
                          const std::uint64_t r = rng() % 3;
                          return r == 0 ? 0 : (r == 1 ? ~std::uint64_t{0} : rng());
                        })},
      {"few", make(1000, [&] { return rng(); })},
      {"none", {}},
  };
  for (const auto& [name, rows] : inputs) {
    // Three pieces of uneven sizes (one empty), as a run's partitions.
    const std::span<const KeyedRow> all(rows);
    const std::size_t a = rows.size() / 7, b = rows.size() / 2;
    const std::vector<std::span<const KeyedRow>> pieces = {all.subspan(0, a), all.subspan(a, 0),
                                                           all.subspan(a, b - a), all.subspan(b)};
    std::vector<KeyedRow> got = {{1, 2}};  // replaced
    gather_sorted_by_key(pieces, got, [](const KeyedRow& r) { return r.key; });
    ASSERT_EQ(got.size(), rows.size()) << name;
    EXPECT_TRUE(std::is_sorted(got.begin(), got.end(), [](const KeyedRow& x, const KeyedRow& y) {
      return x.key < y.key;
    })) << name;
    const std::vector<KeyedRow> want = canonical(rows), have = canonical(got);
    EXPECT_TRUE(std::equal(want.begin(), want.end(), have.begin(),
                           [](const KeyedRow& x, const KeyedRow& y) {
                             return x.key == y.key && x.payload == y.payload;
                           }))
        << name;
  }
}

TEST(PerWorker, EachValueOnLinesOfItsOwn) {
  PerWorker<std::vector<int>> rows(5, std::size_t{3}, 7);
  ASSERT_EQ(rows.size(), 5u);
  for (unsigned w = 0; w < rows.size(); ++w) {
    EXPECT_EQ(rows[w], std::vector<int>(3, 7));
    const auto at = reinterpret_cast<std::uintptr_t>(&rows[w]);
    EXPECT_EQ(at % kCacheLineBytes, 0u) << w;
    if (w > 0) {
      const auto before = reinterpret_cast<std::uintptr_t>(&rows[w - 1]);
      EXPECT_GE(at - before, kCacheLineBytes) << w;
    }
  }
  parallel_for(rows.size(), [&](unsigned w) {
    for (int i = 0; i < 1000; ++i) rows[w].push_back(static_cast<int>(w));
  });
  const std::vector<std::vector<int>> taken = rows.take();
  ASSERT_EQ(taken.size(), 5u);
  for (unsigned w = 0; w < taken.size(); ++w) {
    ASSERT_EQ(taken[w].size(), 1003u);
    EXPECT_EQ(taken[w].back(), static_cast<int>(w));
  }
}

}  // namespace
}  // namespace harness
