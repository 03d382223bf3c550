// page-view-count on the SePo hash table (combining: a page view's URL, 1,
// summed) and on hashtable/mapcg, on every kernel backend with a device
// (PoCL in CI): the answer equals the workload's reference (combining,
// combining-pinned, mapcg, the thesis' locking as written); a GPU memory
// budget that forces several SePo iterations still validates; hand-made logs
// (lines that are no page views, CRLF, URLs that extend one another, no final
// newline); a URL too long for the kernel's keys is refused.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "datasets/dataset.h"
#include "frameworks/hashtable/tests/app_table_testing.h"
#include "frameworks/hashtable/tests/sepo_budget.h"

namespace harness::testing {
namespace {

class PageViewCountTableTest : public AppTableTest {
 protected:
  PageViewCountTableTest() : AppTableTest("page-view-count") {}
};

TEST_P(PageViewCountTableTest, CombiningAndMapcgAgreeWithTheReference) {
  const std::string input = generate("weblog", 1 << 20);
  std::ostringstream sepo, mapcg, locked;
  const PointRun c = run("combining", input, kRoomy, {}, 2, &sepo);
  EXPECT_EQ(c.validation, "");
  EXPECT_EQ(counter(c, "iterations"), 1);
  EXPECT_GT(counter(c, "pairs"), counter(c, "entries"));  // URLs repeat
  const PointRun m = run("mapcg", input, kRoomy, {}, 2, &mapcg);
  EXPECT_EQ(m.validation, "");
  EXPECT_EQ(sepo.str(), mapcg.str());
  EXPECT_FALSE(sepo.str().empty());
  const PointRun l = run("combining", input, kRoomy, {{"lock_free", "0"}}, 1, &locked);
  EXPECT_EQ(l.validation, "");
  EXPECT_EQ(locked.str(), sepo.str());
  if (device_->info().zero_copy_host_memory) {
    EXPECT_EQ(run("combining-pinned", input, kRoomy).validation, "");
  }
}

// A heap of two fifths of the pages one iteration takes: the records whose
// URL found no room are postponed and inserted in later iterations.
TEST_P(PageViewCountTableTest, SeveralIterationsLoseAndDoubleNoView) {
  const std::string input = generate("weblog", 1 << 20, 7);
  const PointRun one = run("combining", input, kRoomy, kSmallPages, 1);
  ASSERT_EQ(one.validation, "");
  ASSERT_EQ(counter(one, "iterations"), 1);
  const PointRun r = run("combining", input, sepo_budget_for(one, kRoomy, 0.4, 1024), kSmallPages);
  EXPECT_EQ(r.validation, "");
  EXPECT_GE(counter(r, "iterations"), 2);
}

TEST_P(PageViewCountTableTest, HandMadeLogs) {
  const std::string longest = "/" + std::string(255, 'u');
  expect_all_validate({"/a\t1\n/a\t2\r\n/ab\t3\n/a\n\t/b\t4\n\n/A\t5\n/a\t6", "\n\r\n", "",
                       longest + "\tx\n" + longest + "\ty"},
                      {"combining", "mapcg"});
}

TEST_P(PageViewCountTableTest, RefusesAUrlTooLongForTheKeys) {
  expect_refused("/short\tx\n/" + std::string(256, 'u') + "\ty\n", {"combining", "mapcg"},
                 "page view at byte 9 has a URL of 257 bytes");
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PageViewCountTableTest);
INSTANTIATE_TEST_SUITE_P(Backends, PageViewCountTableTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
