// Word Count: the hand-written example's answer, the CPU-MT counts against
// the reference on every thread count, text edge cases (case, punctuation,
// empty lines, one long word, no final newline), the long-word refusal.
#include <string>

#include "frameworks/workloads/tests/map_group_testing.h"
#include "frameworks/workloads/word_count/word_count_format.h"

namespace harness::workloads {
namespace {

using namespace testing;

const std::string kApp = "word-count";
const std::string kExample = "frameworks/workloads/word_count/examples/small";

TEST(WordCount, HandWrittenExampleGivesItsHandDerivedAnswer) {
  const std::string input = read_file(source_path(kExample + ".txt"));
  const std::string expected = read_file(source_path(kExample + ".expected"));
  EXPECT_EQ(dump(*reference(kApp, input)), expected);
  expect_cpu_agrees(kApp, input);
  const int accepted = python_check("wordcount_check.py", source_path(kExample + ".txt"), expected);
  if (accepted == -1) GTEST_SKIP() << "no python3";
  EXPECT_EQ(accepted, 0);
  std::string wrong = expected;
  wrong.replace(wrong.find("cat\t3"), 5, "cat\t2");
  EXPECT_EQ(python_check("wordcount_check.py", source_path(kExample + ".txt"), wrong), 1);
}

TEST(WordCount, EdgeCases) {
  EXPECT_EQ(dump(*reference(kApp, "")), "");
  expect_cpu_agrees(kApp, "");
  EXPECT_EQ(dump(*reference(kApp, "\n\n\r\n")), "");  // empty lines only
  expect_cpu_agrees(kApp, "\n\n\r\n");
  EXPECT_EQ(dump(*reference(kApp, "42 -- ... \t 7\n")), "");  // no letters
  // Case folds; punctuation, digits and UTF-8 bytes separate words.
  EXPECT_EQ(dump(*reference(kApp, "Apple aPPLE apple.\n")), "apple\t3\n");
  EXPECT_EQ(dump(*reference(kApp, "it's a2b caf\xc3\xa9\n")), "a\t1\nb\t1\ncaf\t1\nit\t1\ns\t1\n");
  // No final newline; the last word is counted.
  EXPECT_EQ(dump(*reference(kApp, "end of text")), "end\t1\nof\t1\ntext\t1\n");
  expect_cpu_agrees(kApp, "end of text");
  // A line of one word as long as a word may be; lines far longer than a
  // thread's piece.
  const std::string longest(word_count::kMaxWordBytes, 'Q');
  EXPECT_EQ(dump(*reference(kApp, longest + "\n")),
            std::string(word_count::kMaxWordBytes, 'q') + "\t1\n");
  std::string text;
  for (int i = 0; i < 300; ++i) text += longest + (i % 7 ? " x " : "\n");
  text += "\n\nShort LINES\nshort lines";
  expect_cpu_agrees(kApp, text);
}

TEST(WordCount, ThreadsAgreeWithTheReferenceOnGeneratedText) {
  expect_cpu_agrees(kApp, generate("text-zipf", 1 << 20));
  expect_cpu_agrees(kApp, generate("text-zipf", 1 << 20, 7));
}

TEST(WordCount, RefusesAWordLongerThanTheTableKeys) {
  EXPECT_EQ(run_error(kApp, "fine words\n" + std::string(64, 'a') + "\n"), "no error");
  const std::string message = run_error(kApp, "fine words\nand " + std::string(65, 'a') + "\n");
  EXPECT_NE(message.find("line 2 at byte 15: a word of 65 letters"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

TEST(WordCount, AccessShareReadsEveryByte) {
  const std::string text = "one two\nthree";
  const AccessShare s = find_workload(kApp).access_share({}, bytes(text), text.size());
  EXPECT_EQ(s.records, 2u);
  EXPECT_DOUBLE_EQ(s.read_share(), 1.0);
  EXPECT_DOUBLE_EQ(s.written_share(), 0.0);
}

}  // namespace
}  // namespace harness::workloads
