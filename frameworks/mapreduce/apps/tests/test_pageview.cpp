// Page view count and rank: the chained jobs, the inputs passed between them,
// the references on logs counted by hand; the page-view-count workload's rule.
#include <gtest/gtest.h>

#include <map>

#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/apps/weblog.h"
#include "frameworks/mapreduce/common/tests/mapreduce_inputs.h"
#include "frameworks/workloads/group_by_key.h"
#include "frameworks/workloads/registry.h"
#include "harness/core/errors.h"

namespace harness::apps {
namespace {

const auto* bytes(const std::string& s) { return reinterpret_cast<const std::uint8_t*>(s.data()); }

// u1 has 3 distinct entries (one repeated, one CRLF duplicate), u2 has 2, u3 1;
// a line without a tab and one with an empty URL are not page views.
const std::string kLog =
    "u1\t1.1.1.1\ta\nu1\t1.1.1.1\ta\r\nu1\t1.1.1.1\tb\nu1\t2.2.2.2\ta\n"
    "u2\t1.1.1.1\ta\nu2\tx\ty\n\nu3\t3.3.3.3\tc\nno tab\n\tempty\turl\n";

TEST(PageViewCount, TwoJobsAndTheDistinctEntriesBetweenThem) {
  const MapReduceApp& app = pageviewcount_app();
  ASSERT_EQ(app.jobs().size(), 2u);
  EXPECT_EQ(app.jobs()[0]->name(), "pvc_dedup");
  EXPECT_EQ(app.jobs()[1]->name(), "pvc_count");
  KeyValueList dedup = app.jobs()[0]->reference({}, bytes(kLog), kLog.size());
  sort_output(*app.jobs()[0], dedup);
  EXPECT_EQ(dedup.size(), 8u);  // 10 lines with text, 2 duplicates
  std::string between = "left from an earlier run, longer than the answer: replaced";
  app.next_job_input({}, 0, dedup, between);
  EXPECT_EQ(between.substr(0, 12), "\tempty\turl\nn");
  KeyValueList ref = app.reference({}, bytes(kLog), kLog.size());
  sort_output(app, ref);
  KeyValueList counted = app.jobs()[1]->reference({}, bytes(between), between.size());
  sort_output(*app.jobs()[1], counted);
  EXPECT_EQ(counted, ref);
  ASSERT_EQ(ref.size(), 3u);
  EXPECT_EQ(ref[0].first + "=" + app.format_value(ref[0].second), "u1=3");
  EXPECT_EQ(ref[1].first + "=" + app.format_value(ref[1].second), "u2=2");
  EXPECT_EQ(ref[2].first + "=" + app.format_value(ref[2].second), "u3=1");
}

// The page-view-count workload (frameworks/workloads/page_view_count) counts
// every page view by the same rule, duplicates included: on the distinct
// entries of a log, one a line, it gives this app's counts.
TEST(PageViewCount, TheWorkloadCountsEveryEntryByTheSameRule) {
  const workloads::Workload& workload = workloads::find_workload("page-view-count");
  for (const std::string& log : {kLog, testing::generated("weblog", 1 << 20, 3)}) {
    std::string distinct;
    for (std::string_view entry : distinct_entries(bytes(log), log.size()))
      distinct.append(entry).push_back('\n');
    const auto views = page_views(bytes(log), log.size());
    const workloads::TableOutput expected = workloads::group_by_key::table_of_counts(
        std::map<std::string, std::int64_t>(views.begin(), views.end()));
    auto counted = workload.reference({}, bytes(distinct), distinct.size());
    counted->finish();
    EXPECT_EQ(counted->compare_with(expected, {}), "");
    // On the log itself, duplicates count: more views than distinct entries.
    auto all = workload.run_cpu({}, bytes(log), log.size(), 3);
    all->finish();
    EXPECT_NE(all->compare_with(expected, {}), "");
  }
}

TEST(PageViewRank, TopUrlsByViewsThenUrl) {
  const MapReduceApp& app = pageviewrank_app();
  ASSERT_EQ(app.jobs().size(), 3u);
  EXPECT_EQ(app.jobs()[2]->name(), "pvr_rank");
  const Params top2 = app.resolve_params({{"top", "2"}});
  KeyValueList ref = app.reference(top2, bytes(kLog), kLog.size());
  sort_output(app, ref);
  ASSERT_EQ(ref.size(), 2u);
  EXPECT_EQ(app.format_key(ref[0].first) + "\t" + app.format_value(ref[0].second), "1\tu1\t3");
  EXPECT_EQ(app.format_key(ref[1].first) + "\t" + app.format_value(ref[1].second), "2\tu2\t2");
  // Job 2 -> 3: inverted counts as hex, so key bytes sort by views descending.
  KeyValueList counts = {{"a", raw_bytes(std::uint32_t{5})}, {"b", raw_bytes(std::uint32_t{7})}};
  std::string ranked_input = "left from an earlier run";
  app.next_job_input(top2, 1, counts, ranked_input);
  EXPECT_EQ(ranked_input, "fffffffaa\nfffffff8b\n");
  KeyValueList ranked =
      app.jobs()[2]->reference({}, bytes(std::string("fffffff8b\nfffffffaa\n")), 20);
  sort_output(*app.jobs()[2], ranked);
  const KeyValueList final = app.final_output(app.resolve_params({{"top", "1"}}), ranked);
  ASSERT_EQ(final.size(), 1u);
  EXPECT_EQ(app.format_value(final[0].second), "b\t7");
  EXPECT_THROW(app.resolve_params({{"top", "0"}}), UsageError);
}

}  // namespace
}  // namespace harness::apps
