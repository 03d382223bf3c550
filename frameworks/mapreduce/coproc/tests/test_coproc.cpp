// Co-processing (mars.fig9): the split of an input's records, the merge of
// partial outputs, and the cpu runtime + Mars on every app and edge case
// against the reference at fixed and measured shares, on every kernel backend
// present (PoCL in CI).
#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/tests/mapreduce_inputs.h"
#include "frameworks/mapreduce/coproc/coproc_runtime.h"
#include "frameworks/mapreduce/cpu/cpu_runtime.h"
#include "frameworks/mapreduce/mars/mars_runtime.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

TEST(CoprocSplit, SplitsWholeRecordsByTheShareOfBytes) {
  const std::vector<std::uint32_t> offsets{0, 10, 20, 30, 40};
  EXPECT_EQ(coproc::split_record(offsets, 0), 0u);
  EXPECT_EQ(coproc::split_record(offsets, 1), 4u);
  EXPECT_EQ(coproc::split_record(offsets, 0.5), 2u);   // 20 bytes: records 0-1
  EXPECT_EQ(coproc::split_record(offsets, 0.26), 2u);  // 10.4 bytes: a whole second record
  EXPECT_EQ(coproc::split_record(offsets, 0.01), 1u);
  EXPECT_EQ(coproc::split_record({0}, 0.5), 0u);  // no records
  // Offsets need not start at zero (a later job's records, a slice).
  EXPECT_EQ(coproc::split_record({100, 101, 300}, 0.5), 2u);
}

const std::uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

// The references of two halves of an input, merged, are the reference of the
// whole: counts add, duplicates across halves stay one entry.
void expect_merge_of_halves(const apps::MapReduceApp& app, const std::string& text) {
  const std::size_t cut = text.find('\n', text.size() / 2) + 1;
  ASSERT_GT(cut, 0u);
  const std::string a = text.substr(0, cut), b = text.substr(cut);
  apps::KeyValueList ra = app.reference({}, bytes(a), a.size());
  apps::KeyValueList rb = app.reference({}, bytes(b), b.size());
  apps::sort_output(app, ra);
  apps::sort_output(app, rb);
  apps::KeyValueList whole = app.reference({}, bytes(text), text.size());
  apps::sort_output(app, whole);
  EXPECT_EQ(app.merge_outputs({ra, rb}), whole) << app.name();
}

TEST(CoprocMerge, ReduceAppsFoldTheValuesOfKeysInBothParts) {
  expect_merge_of_halves(apps::wordcount_app(), generated("text-zipf", 200000, 5));
  std::string log = generated("weblog", 200000, 5);
  log += log;  // every entry repeated in the other half
  expect_merge_of_halves(apps::find_mapreduce_app("pvc_dedup"), log);
  const apps::MapReduceApp& dedup = apps::find_mapreduce_app("pvc_dedup");
  // pvc_count takes pvc_dedup's distinct entries.
  std::string distinct;
  for (const auto& [entry, length] : dedup.reference({}, bytes(log), log.size())) {
    distinct += entry + "\n";
  }
  expect_merge_of_halves(apps::find_mapreduce_app("pvc_count"), distinct);
}

TEST(CoprocMerge, MapOnlyAppsKeepEveryPairInCanonicalOrder) {
  const apps::MapReduceApp& app = apps::stringmatch_app();
  auto pair = [](const std::string& k, std::uint32_t v) {
    return std::make_pair(k, apps::raw_bytes(v));
  };
  apps::KeyValueList a{pair("glo", 1), pair("glo", 9)}, b{pair("glo", 4), pair("glo", 9)};
  EXPECT_EQ(app.merge_outputs({a, b}),
            (apps::KeyValueList{pair("glo", 1), pair("glo", 4), pair("glo", 9), pair("glo", 9)}));
}

TEST(CoprocMerge, AnAppWithoutMergeValuesCannotBeSplit) {
  class NoMerge : public apps::MapReduceApp {
   public:
    std::string name() const override { return "nomerge"; }
    std::string description() const override { return ""; }
    std::string default_dataset() const override { return ""; }
    std::uint32_t value_size() const override { return 4; }
    std::uint32_t output_value_size() const override { return 4; }
    bool has_reduce() const override { return true; }
    std::vector<std::uint32_t> split_records(const std::uint8_t*, std::size_t) const override {
      return {0};
    }
    apps::KeyValueList reference(const apps::Params&, const std::uint8_t*,
                                 std::size_t) const override {
      return {};
    }
    std::string format_value(std::string_view raw) const override { return std::string(raw); }
  } app;
  EXPECT_THROW(app.merge_outputs({{{"k", "1111"}}, {{"k", "2222"}}}), UsageError);
  EXPECT_EQ(app.merge_outputs({{{"k", "1111"}}, {{"l", "2222"}}}).size(), 2u);
}

class CoprocTest : public DeviceAppTest {
 protected:
  const apps::MapReduceApp& app() const { return apps::find_mapreduce_app(app_name()); }
  JobRuntimes runtimes(double share) {
    return [this, share](const std::string& job) {
      coproc::Options o;
      o.cpu_share = share;
      cpu::Options c;
      c.threads = 2;
      mars::Options m;
      m.groups = 4;
      m.group_size = 32;
      return coproc::make_runtime(cpu::make_runtime(job, c), mars::make_runtime(*device_, m), o);
    };
  }
};

// All on one side, a fixed split, and the measured split (twice per case: the
// second run splits by the speeds of the first).
TEST_P(CoprocTest, EverySplitMatchesReference) {
  expect_reference(runtimes(0), app(), "all on the GPU");
  expect_reference(runtimes(1), app(), "all on the CPU");
  expect_reference(runtimes(0.37), app(), "37% on the CPU");
  expect_reference(runtimes(-1), app(), "auto");
}

TEST_P(CoprocTest, ReportsTheSplitAndBothParts) {
  auto runtime = runtimes(0.5)(app().jobs().empty() ? app().name() : app().jobs()[0]->name());
  const apps::MapReduceApp& job = app().jobs().empty() ? app() : *app().jobs()[0];
  runtime->prepare(job);
  const std::string text = mapreduce_cases(app().name()).back().text;
  mapreduce::RunResult r = runtime->run(job, bytes(text), text.size());
  const auto& c = r.measurement.counters;
  EXPECT_GT(c.at("cpu_records"), 0);
  EXPECT_GT(c.at("gpu_records"), 0);
  // Both parts' work: every record, mapped on one side or the other.
  EXPECT_EQ(r.work.item("records"), c.at("cpu_records") + c.at("gpu_records"));
  EXPECT_DOUBLE_EQ(c.at("cpu_share"), 0.5);
  ASSERT_EQ(r.measurement.phases.size(), 3u);
  EXPECT_DOUBLE_EQ(r.measurement.phases[1].ms, std::max(c.at("cpu_ms"), c.at("gpu_ms")));
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CoprocTest);
INSTANTIATE_TEST_SUITE_P(BackendsAndApps, CoprocTest,
                         ::testing::Combine(::testing::ValuesIn(kernel_backends()),
                                            ::testing::ValuesIn(mapreduce_app_names())),
                         backend_app_test_name);

}  // namespace
}  // namespace harness::testing
