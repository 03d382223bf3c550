// AtomicMR on every kernel backend present (PoCL in CI): atomicmr/thread and
// atomicmr/warp (Mars with atomic output reservation) and atomicmr/hash (a
// global hash table) against every app's reference on the shared edge cases,
// plus colliding hashes, one hot key, a full table and the counters.
#include <cstring>
#include <map>

#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/atomicmr/hash_runtime.h"
#include "frameworks/mapreduce/common/tests/mapreduce_inputs.h"
#include "frameworks/mapreduce/mars/mars_runtime.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

bool warp_runs(const apps::MapReduceApp& app) {
  return app.jobs().empty() && app.map_emits_one_key_size() > 0;
}

class AtomicMrTest : public DeviceAppTest {
 protected:
  const apps::MapReduceApp& app() const { return apps::find_mapreduce_app(app_name()); }
  JobRuntimes mars_runtimes(const mars::Options& o) {
    return [this, o](const std::string&) { return mars::make_runtime(*device_, o); };
  }
  JobRuntimes hash_runtimes(const atomicmr::HashOptions& o) {
    return [this, o](const std::string&) { return atomicmr::make_hash_runtime(*device_, o); };
  }
};

TEST_P(AtomicMrTest, ThreadVariantMatchesReference) {
  mars::Options o;
  o.reserve = mars::Reserve::atomic_thread;
  expect_reference(mars_runtimes(o), app(), "atomicmr/thread");
  o.coalesced = false;
  o.groups = 3;
  o.group_size = 32;
  o.radix = true;
  expect_reference(mars_runtimes(o), app(), "atomicmr/thread, chunked, 3x32, radix");
}

// The warp variant runs apps whose map emits one pair with a fixed key size,
// with warps of the device's width and of 4 lanes over chunked tasks (lanes
// with and without a record in one warp), and refuses the others before
// anything runs.
TEST_P(AtomicMrTest, WarpVariantMatchesReferenceOrRefuses) {
  mars::Options o;
  o.reserve = mars::Reserve::atomic_warp;
  if (!warp_runs(app())) {
    mapreduce::JobChain chain(app(), mars_runtimes(o));
    try {
      chain.prepare();
      ADD_FAILURE() << "atomicmr/warp accepted " << app_name();
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("atomicmr/thread"), std::string::npos) << e.what();
    }
    return;
  }
  expect_reference(mars_runtimes(o), app(), "atomicmr/warp");
  o.warp = 4;
  o.coalesced = false;
  o.groups = 3;
  o.group_size = 32;
  expect_reference(mars_runtimes(o), app(), "atomicmr/warp, 4 lanes, chunked, 3x32");
}

TEST_P(AtomicMrTest, HashVariantMatchesReference) {
  expect_reference(hash_runtimes(atomicmr::HashOptions{}), app(), "atomicmr/hash");
}

// Few hash bits (many keys per hash value, long probe runs), a small first
// table that grows, odd thread shapes.
TEST_P(AtomicMrTest, HashVariantWithCollidingHashesAndAGrowingTable) {
  atomicmr::HashOptions o;
  o.hash_mask = 0xfff;
  o.slots = 16;
  o.coalesced = false;
  o.groups = 3;
  o.group_size = 32;
  expect_reference(hash_runtimes(o), app(), "atomicmr/hash, 12 hash bits, 16 slots, 3x32");
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(AtomicMrTest);
INSTANTIATE_TEST_SUITE_P(BackendsAndApps, AtomicMrTest,
                         ::testing::Combine(::testing::ValuesIn(kernel_backends()),
                                            ::testing::ValuesIn(mapreduce_app_names())),
                         backend_app_test_name);

using AtomicMrPhases = DeviceTest;

mapreduce::RunResult run_on(mapreduce::Runtime& runtime, const apps::MapReduceApp& app,
                            const std::string& text) {
  return runtime.run(app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

// `n` distinct lower-case words, each `repeat` times.
std::string distinct_words(int n, int repeat) {
  std::string text;
  for (int r = 0; r < repeat; ++r) {
    for (int i = 0; i < n; ++i) {
      std::string w;
      for (int v = i + 1; v > 0; v /= 26) w += static_cast<char>('a' + v % 26);
      text += w + (i % 10 == 9 ? "\n" : " ");
    }
  }
  return text;
}

TEST_P(AtomicMrPhases, ThreadVariantReportsPhasesAtomicsAndRetries) {
  const apps::MapReduceApp& wc = apps::wordcount_app();
  mars::Options o;
  o.reserve = mars::Reserve::atomic_thread;
  auto runtime = mars::make_runtime(*device_, o);
  runtime->prepare(wc);
  mapreduce::RunResult r = run_on(*runtime, wc, "a b c a b a\n");
  EXPECT_EQ(phase_names(r), (std::vector<std::string>{"preprocess", "copy_in", "map", "sort",
                                                      "reduce", "copy_out"}));
  EXPECT_EQ(r.work.item("intermediate_pairs"), 6u);
  EXPECT_EQ(r.measurement.counters.at("atomics"), 2 * 6 + 2 * 3);  // per emit: key bytes, pair
  EXPECT_EQ(r.output.size(), 3u);

  // Overlapping matches of a long pattern: more key bytes than input bytes,
  // past the first guess: map runs again once, and the next run fits.
  const apps::MapReduceApp& sm = apps::stringmatch_app();
  runtime = mars::make_runtime(*device_, o);
  runtime->prepare(sm);
  const apps::Params params{{"pattern", std::string(40, 'a')}};
  runtime->set_app_params(sm.resolve_params(params));
  const std::string text = std::string(3000, 'a') + "\n";
  r = run_on(*runtime, sm, text);
  EXPECT_EQ(r.measurement.counters.at("retries"), 1);
  EXPECT_EQ(apps::compare_output_sets(sm, reference_output(sm, text, params), r.output), "");
  r = run_on(*runtime, sm, text);
  EXPECT_EQ(r.measurement.counters.at("retries"), 0);
  EXPECT_EQ(apps::compare_output_sets(sm, reference_output(sm, text, params), r.output), "");
}

TEST_P(AtomicMrPhases, WarpVariantIssuesOneAtomicPerWarpAndRefusesOtherApps) {
  const apps::MapReduceApp& mm = apps::find_mapreduce_app("matrixmult");
  mars::Options o;
  o.reserve = mars::Reserve::atomic_warp;
  o.warp = 8;
  o.groups = 2;
  o.group_size = 16;
  auto runtime = mars::make_runtime(*device_, o);
  runtime->prepare(mm);
  const std::string input = npy({7, 3}, {1, 2, 3, -1}) + npy({3, 11}, {0.5f, 2, -3});
  mapreduce::RunResult r = run_on(*runtime, mm, input);
  EXPECT_EQ(phase_names(r),
            (std::vector<std::string>{"preprocess", "copy_in", "map", "sort", "copy_out"}));
  EXPECT_EQ(r.work.item("intermediate_pairs"), 77u);
  EXPECT_EQ(r.measurement.counters.at("atomics"), (77 + 7) / 8);  // map-only: no reduce output
  EXPECT_EQ(apps::compare_output_sets(mm, reference_output(mm, input), r.output), "");

  for (const char* name : {"wordcount", "stringmatch", "pageviewcount"}) {
    const apps::MapReduceApp& app = apps::find_mapreduce_app(name);
    const apps::MapReduceApp& job = app.jobs().empty() ? app : *app.jobs().front();
    EXPECT_THROW(mars::make_runtime(*device_, o)->prepare(job), UsageError) << name;
  }
}

// Keys whose full 32-bit hashes collide, and keys that collide in the one
// hash bit kept: the table compares bytes and keeps them apart.
TEST_P(AtomicMrPhases, HashVariantKeepsCollidingKeysApart) {
  const auto [a, b] = fnv_colliding_words();
  ASSERT_NE(a, b);
  std::string text;
  for (int i = 0; i < 500; ++i) text += a + " " + b + " " + (i % 3 ? a : b) + "\n";
  const apps::MapReduceApp& wc = apps::wordcount_app();
  for (std::uint32_t mask : {0xffffffffu, 1u, 0u}) {
    atomicmr::HashOptions o;
    o.hash_mask = mask;
    auto runtime = atomicmr::make_hash_runtime(*device_, o);
    runtime->prepare(wc);
    const std::string many = text + distinct_words(300, 1);
    mapreduce::RunResult r = run_on(*runtime, wc, many);
    EXPECT_EQ(apps::compare_outputs(wc, reference_output(wc, many), r.output), "")
        << "mask " << mask;
    // Entries created: the 302 keys, and on a GPU a few that lost a race to their key.
    EXPECT_GE(r.measurement.counters.at("table_entries"), 302) << "mask " << mask;
  }
}

// All pairs under one key: one hot entry, every value pushed on one list.
TEST_P(AtomicMrPhases, HashVariantGroupsOneHotKey) {
  const apps::MapReduceApp& wc = apps::wordcount_app();
  std::string text;
  for (int i = 0; i < 20000; ++i) text += i % 9 == 8 ? "Hot\n" : "hot ";
  auto runtime = atomicmr::make_hash_runtime(*device_, atomicmr::HashOptions{});
  runtime->prepare(wc);
  mapreduce::RunResult r = run_on(*runtime, wc, text);
  ASSERT_EQ(r.output.size(), 1u);
  std::uint32_t count = 0;
  std::memcpy(&count, r.output[0].second.data(), 4);
  EXPECT_EQ(r.output[0].first, "hot");
  EXPECT_EQ(count, 20000u);
  EXPECT_EQ(phase_names(r),
            (std::vector<std::string>{"preprocess", "copy_in", "map", "reduce", "copy_out"}));
  EXPECT_GE(r.measurement.counters.at("table_entries"), 1);  // + those that lost the race
}

TEST_P(AtomicMrPhases, HashVariantFullTableIsARunErrorOrGrows) {
  const apps::MapReduceApp& wc = apps::wordcount_app();
  const std::string text = distinct_words(200, 2);
  atomicmr::HashOptions o;
  o.slots = 16;
  o.grow = false;
  auto runtime = atomicmr::make_hash_runtime(*device_, o);
  runtime->prepare(wc);
  EXPECT_THROW(run_on(*runtime, wc, text), RunError);

  o.grow = true;
  runtime = atomicmr::make_hash_runtime(*device_, o);
  runtime->prepare(wc);
  mapreduce::RunResult r = run_on(*runtime, wc, text);
  EXPECT_GT(r.measurement.counters.at("retries"), 0);
  EXPECT_EQ(apps::compare_outputs(wc, reference_output(wc, text), r.output), "");
  const double slots = r.measurement.counters.at("table_slots");
  r = run_on(*runtime, wc, text);  // the grown table is kept
  EXPECT_GE(r.measurement.counters.at("table_slots"), slots);
  EXPECT_EQ(apps::compare_outputs(wc, reference_output(wc, text), r.output), "");
}

// Map-only apps output every pair in the table (no reduce phase).
TEST_P(AtomicMrPhases, HashVariantOutputsThePairsOfMapOnlyApps) {
  const apps::MapReduceApp& sm = apps::stringmatch_app();
  auto runtime = atomicmr::make_hash_runtime(*device_, atomicmr::HashOptions{});
  runtime->prepare(sm);
  const apps::Params params{{"pattern", "aa"}};
  runtime->set_app_params(sm.resolve_params(params));
  const std::string text = "aaaa\naaa\nbaab\nxaax\n";
  mapreduce::RunResult r = run_on(*runtime, sm, text);
  EXPECT_EQ(phase_names(r), (std::vector<std::string>{"preprocess", "copy_in", "map", "copy_out"}));
  EXPECT_EQ(r.work.item("intermediate_pairs"), 7u);
  EXPECT_EQ(apps::compare_output_sets(sm, reference_output(sm, text, params), r.output), "");
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(AtomicMrPhases);
INSTANTIATE_TEST_SUITE_P(Backends, AtomicMrPhases, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
