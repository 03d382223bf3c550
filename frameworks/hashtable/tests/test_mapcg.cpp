// hashtable/mapcg (MapCG's global hash table on the family's apps, thesis
// table 6.2's baseline) on every kernel backend with a device (PoCL in CI):
// every app against the workload's reference, with the same distinct keys and
// the same dumped answer as the SePo organization it stands beside; a first
// table too small that grows and runs the insert again; one hot key (a node
// list of every record); budgets too small for the table, at the first table
// and at its growth.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <utility>

#include "datasets/dataset.h"
#include "frameworks/hashtable/tests/netflix_records.h"
#include "frameworks/workloads/tests/family_point_testing.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

constexpr std::uint64_t kRoomy = 64 << 20;

// `n` patent-citation records; record i cites `cited(i)` (citing i + 1).
template <class Cited>
std::string citations(std::uint32_t n, Cited cited) {
  std::string data;
  for (std::uint32_t i = 0; i < n; ++i) {
    char line[19];
    std::snprintf(line, sizeof line, "%08u,%08u\n", i + 1, cited(i));
    data.append(line, 18);
  }
  return data;
}

// The kv-pairs generator's file.
std::string kv_pairs(std::uint64_t size) {
  const auto made = datasets::generator_for(
      {"kv-pairs", 0, 0, {{"key_bytes", "16"}, {"value_bytes", "16"}, {"duplicates", "5"}}});
  std::ostringstream out;
  made->generate(size, 42, out);
  return std::move(out).str();
}

class MapcgTest : public DeviceTest {
 protected:
  PointRun run(const std::string& variant, const std::string& app, const std::string& input,
               std::uint64_t budget, const Params& params = {}, int repetitions = 1,
               std::ostream* dump = nullptr) {
    return run_point(*device_, "hashtable", variant, app, input, budget, params, repetitions, dump);
  }
  static double counter(const PointRun& r, const std::string& name) {
    return r.measurement.counters.at(name);
  }
  static double phase(const PointRun& r, const std::string& name) {
    for (const PhaseTime& p : r.measurement.phases)
      if (p.name == name) return p.ms;
    ADD_FAILURE() << "no phase " << name;
    return -1;
  }
};

struct Case {
  const char* app;
  std::string input;
  const char* sepo;       // the SePo organization answering the same app
  std::uint64_t records;  // 0: not checked
};

// Every app: validated (two repetitions: the second reuses the table), one
// node per record, no retry with the default first table, the same distinct
// keys as the SePo table's entries in one iteration and the same dump.
TEST_P(MapcgTest, EveryAppValidatesLikeTheSepoTable) {
  const Case cases[] = {
      {"netflix", generate("netflix-pairs", 1 << 20), "combining", (1 << 20) / 40},
      {"dna-assembly", generate("dna-fragments", 1 << 20), "combining", (1 << 20) / 100},
      {"patent-citation", generate("patent-citations", 1 << 20), "multi-valued", (1 << 20) / 18},
      {"geo-location", generate("geo-articles", 1 << 20), "multi-valued", 0},
      {"kv-pairs", kv_pairs(1 << 20), "combining", 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.app);
    std::ostringstream mapcg_out, sepo_out;
    const PointRun r = run("mapcg", c.app, c.input, kRoomy, {}, 2, &mapcg_out);
    EXPECT_EQ(r.validation, "");
    EXPECT_EQ(counter(r, "retries"), 0);
    if (c.records) {
      EXPECT_EQ(counter(r, "nodes"), c.records);
    }
    EXPECT_GT(counter(r, "entries"), 0);
    EXPECT_GE(counter(r, "table_entries"), counter(r, "entries"));
    EXPECT_GE(counter(r, "table_slots"), 2 * counter(r, "table_entries"));
    // Combining apps reduce on the GPU; the others read the node lists back.
    EXPECT_GE(phase(r, "insert"), 0);
    EXPECT_GE(phase(r, "copy_out"), 0);
    const PointRun sepo = run(c.sepo, c.app, c.input, kRoomy, {}, 1, &sepo_out);
    ASSERT_EQ(sepo.validation, "");
    ASSERT_EQ(counter(sepo, "iterations"), 1);
    EXPECT_EQ(counter(r, "entries"), counter(sepo, "entries"));
    EXPECT_EQ(mapcg_out.str(), sepo_out.str());
    EXPECT_FALSE(mapcg_out.str().empty());
  }
}

// A first table of 64 entries (and 128 slots): the insert runs out of
// entries, key bytes and slots, the table grows to what its counters asked
// for and the insert runs again, then validates.
TEST_P(MapcgTest, TooSmallATableGrowsAndRunsAgain) {
  const Params small = {{"entries", "64"}, {"slots", "128"}};
  for (const auto& [app, input] :
       {std::pair<std::string, std::string>{"netflix", generate("netflix-pairs", 1 << 20)},
        std::pair<std::string, std::string>{"patent-citation",
                                            generate("patent-citations", 1 << 20)}}) {
    SCOPED_TRACE(app);
    const PointRun r = run("mapcg", app, input, kRoomy, small);
    EXPECT_EQ(r.validation, "");
    EXPECT_GE(counter(r, "retries"), 1);
    EXPECT_GT(counter(r, "table_slots"), 128);
    EXPECT_GT(counter(r, "table_entries"), 64);
    // Grown capacities are kept: the next run of the point fits at once.
    const PointRun again = run("mapcg", app, input, kRoomy, small, 2);
    EXPECT_EQ(again.validation, "");
    EXPECT_EQ(counter(again, "retries"), 0);
  }
}

// One key for every record: one entry whose node list holds every value
// (multi-valued: the list itself is the answer; combining: reduced by one
// work-item).
TEST_P(MapcgTest, AllKeysEqualOneLongNodeList) {
  const std::string cites = citations(20000, [](std::uint32_t) { return 4242u; });
  const PointRun pc = run("mapcg", "patent-citation", cites, kRoomy);
  EXPECT_EQ(pc.validation, "");
  EXPECT_EQ(counter(pc, "entries"), 1);
  EXPECT_EQ(counter(pc, "nodes"), 20000);
  const std::string rates = ratings(20000, [](std::uint32_t) {
    return std::pair<std::uint32_t, std::uint32_t>{7, 11};
  });
  const PointRun nf = run("mapcg", "netflix", rates, kRoomy);
  EXPECT_EQ(nf.validation, "");
  EXPECT_EQ(counter(nf, "entries"), 1);
  EXPECT_EQ(counter(nf, "nodes"), 20000);
}

TEST_P(MapcgTest, EmptyInput) {
  const PointRun r = run("mapcg", "netflix", std::string(), kRoomy);
  EXPECT_EQ(r.validation, "");
  EXPECT_EQ(counter(r, "entries"), 0);
}

void expect_gpu_memory_error(const std::string& what) {
  EXPECT_NE(what.find("hashtable/mapcg: MapCG cannot exceed GPU memory"), std::string::npos)
      << what;
  EXPECT_EQ(what.find('\n'), std::string::npos) << what;
}

// A budget that holds the input but not the first table (one node per
// record): the point fails before it runs, naming the table and the budget.
TEST_P(MapcgTest, BudgetTooSmallForTheTable) {
  const std::string input = generate("netflix-pairs", 1 << 20);
  try {
    run("mapcg", "netflix", input, (1 << 20) + (64 << 10));
    ADD_FAILURE() << "no error";
  } catch (const RunError& e) {
    expect_gpu_memory_error(e.what());
    EXPECT_NE(std::string(e.what()).find("values of 8 B"), std::string::npos) << e.what();
  }
  try {
    run("mapcg", "netflix", input, 512 << 10);  // not even the input
    ADD_FAILURE() << "no error";
  } catch (const RunError& e) {
    expect_gpu_memory_error(e.what());
    EXPECT_NE(std::string(e.what()).find("the input"), std::string::npos) << e.what();
  }
}

// A first table that fits, whose growth does not: the run fails when the
// insert asks for more than the budget holds.
TEST_P(MapcgTest, BudgetTooSmallForTheGrownTable) {
  const std::string input = ratings(20000, [](std::uint32_t i) {
    return std::pair<std::uint32_t, std::uint32_t>{i, i + 1};
  });
  // Input 800,000 B; 20,000 nodes of 8 B value and 8 B links (pool-padded):
  // ~370 KB; 20,000 distinct keys need ~1 MB more.
  try {
    run("mapcg", "netflix", input, input.size() + (600 << 10),
        {{"entries", "64"}, {"slots", "128"}});
    ADD_FAILURE() << "no error";
  } catch (const RunError& e) {
    expect_gpu_memory_error(e.what());
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(MapcgTest);
INSTANTIATE_TEST_SUITE_P(Backends, MapcgTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
