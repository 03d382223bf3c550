// Page View Count: the hand-written example's answer, the CPU-MT counts
// against the reference on every thread count, the entry rule's edge cases
// (duplicates counted, CRLF, empty lines, lines that are not page views), any
// input accepted, the access share and the paper's facts.
#include <string>

#include "frameworks/workloads/outputs.h"
#include "frameworks/workloads/tests/map_group_testing.h"

namespace harness::workloads {
namespace {

using namespace testing;

const std::string kApp = "page-view-count";
const std::string kExample = "frameworks/workloads/page_view_count/examples/small";

std::string views(const std::string& log) { return dump(*reference(kApp, log)); }

TEST(PageViewCount, HandWrittenExampleGivesItsHandDerivedAnswer) {
  const std::string input = read_file(source_path(kExample + ".tsv"));
  const std::string expected = read_file(source_path(kExample + ".expected"));
  ASSERT_EQ(std::count(input.begin(), input.end(), '\n'), 14);  // 15 lines, the last unended
  EXPECT_EQ(views(input), expected);
  expect_cpu_agrees(kApp, input);

  const int accepted =
      python_check("page_view_count_check.py", source_path(kExample + ".tsv"), expected);
  if (accepted == -1) GTEST_SKIP() << "no python3";
  EXPECT_EQ(accepted, 0);
  std::string wrong = expected;
  wrong.replace(wrong.find("/index.html\t3"), 13, "/index.html\t2");  // duplicates counted once
  EXPECT_EQ(python_check("page_view_count_check.py", source_path(kExample + ".tsv"), wrong), 1);
}

TEST(PageViewCount, EveryEntryCountsDuplicatesIncluded) {
  // The MapReduce pageviewcount's log (frameworks/mapreduce/apps/tests/
  // test_pageview.cpp): it counts u1's 3 distinct entries, this its 4 lines
  // (a CRLF line is the same entry as the line before it).
  const std::string log =
      "u1\t1.1.1.1\ta\nu1\t1.1.1.1\ta\r\nu1\t1.1.1.1\tb\nu1\t2.2.2.2\ta\n"
      "u2\t1.1.1.1\ta\nu2\tx\ty\n\nu3\t3.3.3.3\tc\nno tab\n\tempty\turl\n";
  EXPECT_EQ(views(log), "u1\t4\nu2\t2\nu3\t1\n");
  expect_cpu_agrees(kApp, log);
  EXPECT_EQ(views("a\tx\na\tx\na\tx\n"), "a\t3\n");
}

TEST(PageViewCount, EntryEdgeCases) {
  EXPECT_EQ(views(""), "");
  expect_cpu_agrees(kApp, "");
  EXPECT_EQ(views("\n\r\n\n\r"), "");  // empty entries only
  expect_cpu_agrees(kApp, "\n\r\n\n\r");
  // No TAB, or a TAB first: not page views.
  EXPECT_EQ(views("no tab here\n\tstarts with a tab\n\t\n"), "");
  // The URL is the bytes before the first TAB; the rest may be empty.
  EXPECT_EQ(views("/a\t1.1.1.1\tc\td\n/a\t\n/a\t\r\n"), "/a\t3\n");
  // No final newline; a last line's '\r' is stripped too.
  EXPECT_EQ(views("/a\tx\n/b\ty"), "/a\t1\n/b\t1\n");
  EXPECT_EQ(views("/a\tx\r"), "/a\t1\n");
  // Only one '\r' is stripped, and only before the '\n': others are bytes of
  // the entry, of its URL when before the TAB.
  EXPECT_EQ(views("/a\r\tx\n\r\tx\n/a\t\r\r\n"), "\r\t1\n/a\t1\n/a\r\t1\n");
  expect_cpu_agrees(kApp, "/a\r\tx\n\r\tx\n/a\t\r\r\n/a\r");
  // URLs are bytes: case, a trailing '/', UTF-8 and a space make other keys.
  EXPECT_EQ(views("/A\tx\n/a\tx\n/a/\tx\n/caf\xc3\xa9\tx\n/a \tx\n"),
            "/A\t1\n/a\t1\n/a \t1\n/a/\t1\n/caf\xc3\xa9\t1\n");
  // A line far longer than a thread's piece: the cuts move past it.
  const std::string one = "/one\t1.1.1.1\tc\n";
  const std::string long_url = "/" + std::string(5000, 'u');
  expect_cpu_agrees(kApp, one + long_url + "\tx\n" + one + std::string(3000, 'n') + "\n" + one);
  // All keys equal; all keys distinct.
  std::string same, distinct;
  for (int i = 0; i < 4000; ++i) {
    same += "/same\t10.0.0." + std::to_string(i % 256) + "\tc\n";
    distinct += "/page" + std::to_string(i * 7919 % 4000) + "\t10.0.0.1\tc\n";
  }
  expect_cpu_agrees(kApp, same);
  EXPECT_EQ(views(same), "/same\t4000\n");
  expect_cpu_agrees(kApp, distinct);
  EXPECT_EQ(reference(kApp, distinct)->items(), 4000u);
}

TEST(PageViewCount, ThreadsAgreeWithTheReferenceOnGeneratedLogs) {
  for (const std::uint64_t seed : {42u, 7u}) {
    const std::string log = generate("weblog", 2 << 20, seed);
    expect_cpu_agrees(kApp, log);
    // Every generated line is a page view: the counts add up to the lines.
    const auto out = reference(kApp, log);
    const auto& table = dynamic_cast<const TableOutput&>(*out);
    std::int64_t total = 0;
    for (std::size_t r = 0; r < table.rows(); ++r) total += table.ints(r)[0];
    EXPECT_EQ(total, std::count(log.begin(), log.end(), '\n'));
    EXPECT_GT(table.rows(), 1000u);
  }
}

TEST(PageViewCount, AcceptsAnyBytes) {
  std::string every_byte;
  for (int i = 0; i < 3 * 256; ++i) every_byte += static_cast<char>(i % 256);
  EXPECT_EQ(run_error(kApp, every_byte), "no error");
  expect_cpu_agrees(kApp, every_byte);
  EXPECT_EQ(run_error(kApp, ""), "no error");
}

TEST(PageViewCount, DeclaresItsThesisFactsAndReadsEveryByte) {
  const Workload& w = find_workload(kApp);
  EXPECT_EQ(w.default_dataset(), "weblog");
  EXPECT_EQ(w.chapters(), "ch5 ch6");
  EXPECT_EQ(w.record_type(), "variable");
  EXPECT_TRUE(w.params().empty());
  EXPECT_EQ(w.validation().kind, "exact");
  const PaperFacts paper = w.paper();
  EXPECT_EQ(paper.table6_1_bytes[0], 0.6e9);
  EXPECT_EQ(paper.table6_1_bytes[1], 2.2e9);
  EXPECT_EQ(paper.table6_1_bytes[2], 3.8e9);
  EXPECT_EQ(paper.table6_1_bytes[3], 5.8e9);
  EXPECT_FALSE(paper.read_share.has_value());  // not in table 4.1

  const std::string log = "/a\tx\n\nno tab\n/b\ty";  // 4 lines, the last unended
  const AccessShare share = w.access_share({}, bytes(log), log.size());
  EXPECT_EQ(share.records, 4u);
  EXPECT_EQ(share.read_bytes, log.size());
  EXPECT_EQ(share.written_bytes, 0u);
}

}  // namespace
}  // namespace harness::workloads
