// The paging bound of thesis table 6.3 (frameworks/hashtable/paging_bound.h):
// the LRU replay on hand-computed traces, and the traced insert
// (hashtable/combining-paging-bound) on every kernel backend with a device
// (PoCL in CI): its trace has one bucket access and one commit per record,
// its answer validates, and it ignores a budget that would postpone.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "datasets/dataset.h"
#include "frameworks/hashtable/paging_bound.h"
#include "frameworks/hashtable/tests/netflix_records.h"
#include "frameworks/workloads/tests/family_point_testing.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

using hashtable::PagingCounts;
using hashtable::simulate_lru;
using hashtable::trace_entry;

constexpr std::uint64_t kPage = 4096;

// Accesses to whole pages: page p read (or written) at offset p * kPage + 8.
std::vector<std::uint64_t> pages(const std::vector<std::uint64_t>& ids, bool write = false) {
  std::vector<std::uint64_t> t;
  for (const std::uint64_t p : ids) t.push_back(trace_entry(p * kPage + 8, write));
  return t;
}

TEST(PagingBound, CyclicScanOfOneMorePageThanFitsFaultsEveryAccess) {
  // Pages 0..4 in 4 slots, three rounds: LRU always evicts the page needed next.
  std::vector<std::uint64_t> ids;
  for (int round = 0; round < 3; ++round)
    for (std::uint64_t p = 0; p < 5; ++p) ids.push_back(p);
  const PagingCounts c = simulate_lru(pages(ids), kPage, 4);
  EXPECT_EQ(c.accesses, 15u);
  EXPECT_EQ(c.faults, 15u);
  EXPECT_EQ(c.cold_faults, 5u);
  EXPECT_EQ(c.page_ins, 10u);
  EXPECT_EQ(c.evictions, 11u);
  EXPECT_EQ(c.page_outs, 0u);  // read only: nothing to write back
}

TEST(PagingBound, AWorkingSetThatFitsFaultsOncePerPage) {
  std::vector<std::uint64_t> ids;
  for (int round = 0; round < 10; ++round)
    for (std::uint64_t p : {3u, 0u, 2u, 1u}) ids.push_back(p);
  const PagingCounts c = simulate_lru(pages(ids, true), kPage, 4);
  EXPECT_EQ(c.faults, 4u);
  EXPECT_EQ(c.cold_faults, 4u);
  EXPECT_EQ(c.page_ins, 0u);
  EXPECT_EQ(c.evictions, 0u);
  EXPECT_EQ(c.page_outs, 0u);
}

TEST(PagingBound, OnlyDirtyPagesArePagedOut) {
  // 2 slots. w0 r1 r2 (evicts 0: dirty, out) r0 (evicts 1: clean; 0 in)
  // r1 (evicts 2: clean; 1 in) w1 r2 (evicts 0: clean now, paged in since) r0
  // (evicts 1: dirty).
  std::vector<std::uint64_t> t = {
      trace_entry(0 * kPage, true),       trace_entry(1 * kPage, false),
      trace_entry(2 * kPage, false),      trace_entry(0 * kPage, false),
      trace_entry(1 * kPage + 64, false), trace_entry(1 * kPage, true),
      trace_entry(2 * kPage + 5, false),  trace_entry(0 * kPage, false)};
  const PagingCounts c = simulate_lru(t, kPage, 2);
  EXPECT_EQ(c.faults, 7u);
  EXPECT_EQ(c.cold_faults, 3u);
  EXPECT_EQ(c.page_ins, 4u);
  EXPECT_EQ(c.evictions, 5u);
  EXPECT_EQ(c.page_outs, 2u);
}

TEST(PagingBound, RecencyNotFirstUseDecidesTheVictim) {
  // 2 slots: 0 1 0 2 -> 1 is the least recently used, 0 stays.
  const PagingCounts c = simulate_lru(pages({0, 1, 0, 2, 0}), kPage, 2);
  EXPECT_EQ(c.faults, 3u);
  EXPECT_EQ(c.page_ins, 0u);
  EXPECT_EQ(c.evictions, 1u);
}

TEST(PagingBound, OffsetsWithinAPageShareIt) {
  const std::vector<std::uint64_t> t = {trace_entry(0, false), trace_entry(4095, true),
                                        trace_entry(4096, false), trace_entry(100, false)};
  EXPECT_EQ(simulate_lru(t, kPage, 1).faults, 3u);  // 4095 hits page 0
  EXPECT_EQ(simulate_lru(t, kPage, 1).page_outs, 1u);
  EXPECT_EQ(simulate_lru(t, 8192, 1).faults, 1u);
}

TEST(PagingBound, TimeIsBytesOverTheCopyRates) {
  PagingCounts c;
  c.page_ins = 1000;
  c.page_outs = 500;
  // 1000 pages of 1 MB in at 10 GB/s = 100 ms, 500 out at 5 GB/s = 100 ms,
  // 1e8 B of input at 10 GB/s = 10 ms.
  EXPECT_NEAR(hashtable::paging_time_ms(c, 1000000, 100000000, 10, 5), 210.0, 1e-9);
  EXPECT_EQ(hashtable::paging_time_ms(c, 1000000, 0, 0, 5), 0.0);  // no rate measured
  EXPECT_THROW(simulate_lru(pages({0}), kPage, 0), UsageError);
  EXPECT_EQ(simulate_lru({}, kPage, 1).faults, 0u);
}

class PagingBoundTest : public DeviceTest {};

TEST_P(PagingBoundTest, TheTracedInsertRecordsEveryRecordAndValidates) {
  const std::string input = generate("netflix-pairs", 2 << 20);
  const std::uint64_t records = input.size() / 40;
  const Params params = {{"page_bytes", "1024"}, {"bucket_group", "512"}};
  // A budget that postpones the SePo table (2 MiB of input alone) is lifted.
  const PointRun r = run_point(*device_, "hashtable", "combining-paging-bound", "netflix", input,
                               3 << 20, params, 2);
  ASSERT_EQ(r.validation, "");
  const auto& c = r.measurement.counters;
  EXPECT_EQ(c.at("iterations"), 1);
  EXPECT_EQ(c.at("trace_commits"), static_cast<double>(records));
  EXPECT_EQ(c.at("trace_bucket_accesses"), static_cast<double>(records));
  // Every other access is a chain entry read.
  EXPECT_GE(c.at("trace_accesses"), 2.0 * static_cast<double>(records));
  EXPECT_GT(c.at("table_bytes"), 0);
  EXPECT_GT(c.at("h2d_pinned_gbs"), 0);
  EXPECT_GT(c.at("d2h_pinned_gbs"), 0);
  for (const std::string page : {"4KiB", "128KiB", "1MiB"}) {
    // The whole table in memory: no page moves, only the input's copy counts.
    EXPECT_EQ(c.at("paging_page_ins_" + page + "_1x"), 0) << page;
    EXPECT_EQ(c.at("paging_page_outs_" + page + "_1x"), 0) << page;
    // Less memory never pages in less (LRU is a stack algorithm).
    EXPECT_LE(c.at("paging_page_ins_" + page + "_1_5x"), c.at("paging_page_ins_" + page + "_3x"))
        << page;
    EXPECT_GE(c.at("paging_ms_" + page + "_3x"), c.at("paging_ms_" + page + "_1x")) << page;
  }
  EXPECT_GT(c.at("paging_page_ins_4KiB_3x"), 0);
  EXPECT_GT(c.at("paging_page_outs_4KiB_3x"), 0);
}

TEST_P(PagingBoundTest, ASmallTraceBufferIsGrownAndTheRunRepeated) {
  // 20,000 records of 4,000 keys in 64 buckets: a new key's insert walks
  // its whole chain under the lock, so whatever the schedule the new keys
  // alone make sum(n_b (n_b - 1) / 2) >= ~120,000 reads over the buckets' n_b
  // keys, more than the first capacity's 4 accesses a record. (With 400 keys
  // the trace depended on the schedule: a record that finds its key
  // without the lock finds it near the chain's head right after its insert.)
  const std::string input = ratings(20000, [](std::uint32_t i) {
    return std::pair<std::uint32_t, std::uint32_t>{i % 4000, 1000 + i % 4000};
  });
  const Params params = {{"page_bytes", "1024"}, {"bucket_group", "64"}, {"buckets", "64"}};
  const PointRun r =
      run_point(*device_, "hashtable", "combining-paging-bound", "netflix", input, 0, params, 1);
  ASSERT_EQ(r.validation, "");
  const auto& c = r.measurement.counters;
  EXPECT_GT(c.at("trace_accesses"), 4.0 * 20000 + 4096);
  EXPECT_EQ(c.at("trace_commits"), 20000);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PagingBoundTest);
INSTANTIATE_TEST_SUITE_P(Backends, PagingBoundTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
