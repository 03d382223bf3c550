// word-count on the SePo hash table (multi-pair records: a line's words) and
// on hashtable/mapcg, on every kernel backend with a device (PoCL in CI):
// the answer equals the workload's reference (combining, combining-pinned,
// mapcg); a GPU memory budget that forces several SePo iterations still
// validates, so a record's resume point loses and doubles no pair; hand-made
// text (case, punctuation, empty lines, one long word, no final newline); a
// word too long for the kernel's keys is refused.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "datasets/dataset.h"
#include "frameworks/hashtable/tests/app_table_testing.h"
#include "frameworks/hashtable/tests/sepo_budget.h"

namespace harness::testing {
namespace {

class WordCountTableTest : public AppTableTest {
 protected:
  WordCountTableTest() : AppTableTest("word-count") {}
  // A GPU memory budget whose heap holds 40% of the pages `one` (a run with
  // room for the whole table in one iteration, kSmallPages) used, plus the
  // rest of that run's memory: it forces a few SePo iterations.
  static std::uint64_t budget_for_two_fifths(const PointRun& one) {
    return sepo_budget_for(one, kRoomy, 0.4, 1024);
  }
};

TEST_P(WordCountTableTest, CombiningAndMapcgAgreeWithTheReference) {
  const std::string input = generate("text-zipf", 1 << 20);
  std::ostringstream sepo, mapcg;
  const PointRun c = run("combining", input, kRoomy, {}, 2, &sepo);
  EXPECT_EQ(c.validation, "");
  EXPECT_EQ(counter(c, "iterations"), 1);
  EXPECT_GT(counter(c, "pairs"), counter(c, "entries"));  // words repeat
  const PointRun m = run("mapcg", input, kRoomy, {}, 2, &mapcg);
  EXPECT_EQ(m.validation, "");
  EXPECT_EQ(counter(m, "nodes"), counter(c, "pairs"));  // one node a pair
  EXPECT_EQ(counter(m, "retries"), 0);
  EXPECT_EQ(sepo.str(), mapcg.str());
  EXPECT_FALSE(sepo.str().empty());
}

TEST_P(WordCountTableTest, PinnedHeapHoldsEveryPair) {
  if (!device_->info().zero_copy_host_memory) GTEST_SKIP() << "no zero-copy host memory";
  const PointRun r = run("combining-pinned", generate("text-zipf", 1 << 20), kRoomy);
  EXPECT_EQ(r.validation, "");
  EXPECT_EQ(counter(r, "iterations"), 1);
}

// A heap of about a third of the pages one iteration takes: records stop at
// their first postponed word and resume there, in 2-4 iterations.
TEST_P(WordCountTableTest, SeveralIterationsLoseAndDoubleNoPair) {
  const std::string input = generate("text-zipf", 1 << 20);
  const PointRun one = run("combining", input, kRoomy, kSmallPages, 1);
  ASSERT_EQ(one.validation, "");
  ASSERT_EQ(counter(one, "iterations"), 1);
  const PointRun r = run("combining", input, budget_for_two_fifths(one), kSmallPages);
  EXPECT_EQ(r.validation, "");
  EXPECT_GE(counter(r, "iterations"), 2);
  EXPECT_LE(counter(r, "iterations"), 4);
  EXPECT_GT(counter(r, "postponed_first_iteration"), 0);
}

// The thesis' locking as written (lock_free=0: every combine under the
// bucket lock) counts the same words, in one iteration and in several.
TEST_P(WordCountTableTest, ThesisLockingAsWrittenCountsTheSame) {
  const std::string input = generate("text-zipf", 1 << 20);
  Params locked = kSmallPages;
  locked["lock_free"] = "0";
  std::ostringstream free_dump, locked_dump;
  const PointRun one = run("combining", input, kRoomy, locked, 1, &locked_dump);
  ASSERT_EQ(one.validation, "");
  run("combining", input, kRoomy, kSmallPages, 1, &free_dump);
  EXPECT_EQ(locked_dump.str(), free_dump.str());
  const PointRun r = run("combining", input, budget_for_two_fifths(one), locked);
  EXPECT_EQ(r.validation, "");
  EXPECT_GE(counter(r, "iterations"), 2);
}

// One long line of distinct words: the line is postponed part-way in every
// iteration, and still completes.
TEST_P(WordCountTableTest, OneLineResumesAcrossIterations) {
  std::string line;
  for (int i = 0; i < 4000; ++i) {
    std::string w;
    for (int v = i + 1; v > 0; v /= 26) w += static_cast<char>('a' + v % 26);
    line += w + (i % 2 ? " " : ", ");
  }
  const std::string input = line + "\n" + line;  // two records, no final newline
  const PointRun one = run("combining", input, kRoomy, kSmallPages, 1);
  ASSERT_EQ(one.validation, "");
  const PointRun r = run("combining", input, budget_for_two_fifths(one), kSmallPages);
  EXPECT_EQ(r.validation, "");
  EXPECT_GE(counter(r, "iterations"), 2);
}

TEST_P(WordCountTableTest, HandMadeText) {
  const std::string longest(64, 'Z');
  expect_all_validate(
      {"The cat, the CAT and the hat.\n\nHello-world! hello WORLD 42times\n", "\n\n\r\n", "",
       longest + "\n" + longest, "no final newline, no final NEWLINE"},
      {"combining", "mapcg"});
}

TEST_P(WordCountTableTest, RefusesAWordTooLongForTheKeys) {
  expect_refused("short words\nthen " + std::string(65, 'w') + "\n", {"combining", "mapcg"},
                 "line 2 at byte 17: a word of 65 letters");
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(WordCountTableTest);
INSTANTIATE_TEST_SUITE_P(Backends, WordCountTableTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
