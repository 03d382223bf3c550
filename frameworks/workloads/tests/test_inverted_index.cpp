// Inverted Index: the hand-written example's answer, the link rule (the
// MapReduce invertedindex's: quotes, case, attributes, decoys, open quotes,
// empty links), the page rule, the CPU-MT index against the reference on
// every thread count (pages starting at the cuts between threads' pieces,
// lines longer than a piece), links holding a TAB refused, the access share
// and the paper's facts.
#include <string>
#include <vector>

#include "frameworks/workloads/inverted_index/html_links.h"
#include "frameworks/workloads/inverted_index/inverted_index_format.h"
#include "frameworks/workloads/tests/map_group_testing.h"

namespace harness::workloads {
namespace {

using namespace testing;

const std::string kApp = "inverted-index";
const std::string kExample = "frameworks/workloads/inverted_index/examples/small";

std::string index_of(const std::string& html) { return dump(*reference(kApp, html)); }

// The links of one line, in order.
std::vector<std::string> links_of_line(const std::string& line) {
  std::vector<std::string> links;
  inverted_index::LineLinks(line).each([&](std::string_view l) { links.emplace_back(l); });
  return links;
}

TEST(InvertedIndex, HandWrittenExampleGivesItsHandDerivedAnswer) {
  const std::string input = read_file(source_path(kExample + ".html"));
  const std::string expected = read_file(source_path(kExample + ".expected"));
  ASSERT_EQ(std::count(input.begin(), input.end(), '\n'), 10);  // 11 lines, the last unended
  EXPECT_EQ(index_of(input), expected);
  expect_cpu_agrees(kApp, input);

  const int accepted =
      python_check("inverted_index_check.py", source_path(kExample + ".html"), expected);
  if (accepted == -1) GTEST_SKIP() << "no python3";
  EXPECT_EQ(accepted, 0);
  std::string wrong = expected;
  wrong.replace(wrong.find("home.html\t5\t0,53,53,538,538"), 27, "home.html\t4\t0,53,538,538");
  EXPECT_EQ(python_check("inverted_index_check.py", source_path(kExample + ".html"), wrong), 1);
}

TEST(InvertedIndex, FollowsTheMapReduceLinkRule) {
  using Links = std::vector<std::string>;
  // Quotes: double, single, none; `=` with spaces; a tab after `<a`; any case.
  EXPECT_EQ(links_of_line("<a href=\"dq.html\"> <a href='sq.html'> <a href=uq.html> "
                          "<A HREF=\"up.html\"> <a\thref = \"tab.html\"> <a hReF=mixed.html/>"),
            (Links{"dq.html", "sq.html", "uq.html", "up.html", "tab.html", "mixed.html/"}));
  // Attributes before href; the first href counts; empty values are links.
  EXPECT_EQ(links_of_line("<a class=\"c\" title='t' href=\"after.html\"> "
                          "<a href=\"first.html\" href=\"second.html\"> <a href=\"\">e</a> "
                          "<a href= >u</a>"),
            (Links{"after.html", "first.html", "", ""}));
  // A quote left open drops the rest of the line.
  EXPECT_EQ(links_of_line("<a href=\"open.html\" title=\"never closed> <a href='lost.html'>"),
            (Links{"open.html"}));
  // An unclosed tag ends with its line; a quoted value may hold a '\r'.
  EXPECT_EQ(links_of_line("<a title=\"x\" href=\"end-of-line.html\"\r"),
            (Links{"end-of-line.html"}));
  EXPECT_EQ(links_of_line("<a href='a\rb'>"), (Links{"a\rb"}));
  // Decoys: other tags, other attributes, an escaped tag, `<a` without a
  // space, an anchor without href, a tag split across lines.
  EXPECT_EQ(links_of_line("<link href=\"s.css\"><area href=\"m.html\"><abbr title=\"t\">"
                          "<a data-href=\"d.html\">d</a> &lt;a href=\"e.html\"&gt; "
                          "<ahref=\"x.html\"> <a name=\"n\">x</a> <a"),
            Links{});
  EXPECT_EQ(index_of("<a\nhref=\"split.html\">\n"), "");
}

TEST(InvertedIndex, PagesStartAtMarkerLines) {
  // The MapReduce invertedindex's page test (frameworks/mapreduce/apps/tests/
  // test_invertedindex.cpp): the same pages.
  const std::string text =
      "<a href=a>before any marker</a>\n"       // page 0 (no marker yet)
      "<!-- page: one -->\n"                    // page at 32
      "<a href=a> <a href=b>\n"                 // 51
      "x <!-- page: not at a line start -->\n"  // 73
      "<a href=c>\n"                            // 110
      "<!-- page: two --> <a href=a>\n";        // 121
  EXPECT_EQ(index_of(text), "a\t3\t0,32,121\nb\t1\t32\nc\t1\t32\n");
  expect_cpu_agrees(kApp, text);
  // A marker at byte 0 starts page 0; a page linking a URL twice lists its id
  // twice; a marker line's own links are its page's.
  EXPECT_EQ(index_of("<!-- page: p --><a href=x>\n<a href=x>\n<!-- page:q\n<a href=x>"),
            "x\t3\t0,0,38\n");
  // The marker must begin the line exactly (no space, no '\r' before it);
  // what follows it does not matter.
  EXPECT_EQ(index_of("<a href=x>\n <!-- page: p\n\r<!-- page: r\n<a href=x>\r\n<!-- page: q\r\n"
                     "<a href=x>\n"),
            "x\t3\t0,0,51\n");
  std::vector<std::size_t> starts;
  const std::string pages = "<!-- page: a\nx\n<!-- page: b\n<!-- page: c\n!\n";
  inverted_index::append_page_starts(bytes(pages), pages.size(), 0, pages.size(), starts);
  EXPECT_EQ(starts, (std::vector<std::size_t>{15, 28}));  // byte 0 is the caller's
}

TEST(InvertedIndex, EdgeCases) {
  EXPECT_EQ(index_of(""), "");
  expect_cpu_agrees(kApp, "");
  EXPECT_EQ(index_of("\n\n\r\n"), "");
  expect_cpu_agrees(kApp, "\n\n\r\n");
  EXPECT_EQ(index_of("<!-- page: only a marker -->"), "");
  // The empty link is a key: its row's key is empty.
  EXPECT_EQ(index_of("<a href=\"\">\n<!-- page: p\n<a href=''>"), "\t2\t0,12\n");
  expect_cpu_agrees(kApp, "<a href=\"\">\n<!-- page: p\n<a href=''>");
  // A line far longer than a thread's piece; a giant key.
  std::string long_lines = "<!-- page: p\n<a href=a>\n";
  long_lines += "<a href=\"" + std::string(100000, 'k') + "\">" + std::string(5000, ' ') +
                "<a href=a>\n<!-- page: q\n<a href=b>";
  expect_cpu_agrees(kApp, long_lines);
  // Every line a marker: a page starts at every cut between pieces.
  std::string markers;
  for (int i = 0; i < 3000; ++i)
    markers += "<!-- page: p --><a href=\"u" + std::to_string(i % 7) + "\">\n";
  expect_cpu_agrees(kApp, markers);
  EXPECT_EQ(reference(kApp, markers)->items(), 7u);
  // No marker at all: one page, 0, listed once per link.
  std::string one_page;
  for (int i = 0; i < 3000; ++i)
    one_page += "<p><a href=same.html>x</a> <a href=p" + std::to_string(i) + ">\n";
  expect_cpu_agrees(kApp, one_page);
  EXPECT_EQ(index_of(one_page).substr(0, 21), "p0\t1\t0\np1\t1\t0\np10\t1\t0");
  EXPECT_EQ(reference(kApp, one_page)->items(), 3001u);
}

TEST(InvertedIndex, ThreadsAgreeWithTheReferenceOnGeneratedPages) {
  expect_cpu_agrees(kApp, generate("html-zipf", 2 << 20));
  expect_cpu_agrees(kApp, generate("html-zipf", 2 << 20, 7));
}

TEST(InvertedIndex, RefusesALinkHoldingATab) {
  const std::string good = "<!-- page: p\n\n<a href='x'>\n";  // lines 1-3, line 4 at byte 27
  EXPECT_EQ(run_error(kApp, good), "no error");
  EXPECT_EQ(run_error(kApp, good + "<a href=\"a\tb\">\n"),
            "inverted-index: line 4 at byte 27: the link 'a\\x09b' holds a tab, which the "
            "answer's keys cannot hold");
  EXPECT_EQ(run_error(kApp, good + "x <a title=t href='\t'>"),
            "inverted-index: line 4 at byte 27: the link '\\x09' holds a tab, which the "
            "answer's keys cannot hold");
  // Tabs that are no link's: separators, other attributes, a second href, a
  // quote left open.
  EXPECT_EQ(run_error(kApp, good + "<a\thref=a\ttitle=\"\t\" href=\"\t\">\t<a href='\t\n"),
            "no error");
  // The link is escaped and cut in the message.
  const std::string message = run_error(kApp, "<a href='" + std::string(100, 'k') + "\t'>");
  EXPECT_EQ(message.find('\t'), std::string::npos) << message;
  EXPECT_NE(message.find("line 1 at byte 0: the link 'kkkk"), std::string::npos) << message;
  EXPECT_LT(message.size(), 200u) << message;
}

TEST(InvertedIndex, DeclaresItsThesisFactsAndReadsEveryByte) {
  const Workload& w = find_workload(kApp);
  EXPECT_EQ(w.default_dataset(), "html-zipf");
  EXPECT_EQ(w.chapters(), "ch5 ch6");
  EXPECT_EQ(w.record_type(), "variable");
  EXPECT_TRUE(w.params().empty());
  EXPECT_EQ(w.validation().kind, "exact");
  const PaperFacts paper = w.paper();
  EXPECT_EQ(paper.table6_1_bytes[0], 2e9);
  EXPECT_EQ(paper.table6_1_bytes[1], 3e9);
  EXPECT_EQ(paper.table6_1_bytes[2], 4e9);
  EXPECT_EQ(paper.table6_1_bytes[3], 5e9);
  EXPECT_FALSE(paper.read_share.has_value());  // not in table 4.1

  const std::string html = generate("html-zipf", 1 << 20);
  const AccessShare share = w.access_share({}, bytes(html), html.size());
  EXPECT_EQ(share.records, static_cast<std::uint64_t>(std::count(html.begin(), html.end(), '\n')));
  EXPECT_EQ(share.read_bytes, html.size());
  EXPECT_EQ(share.written_bytes, 0u);
}

}  // namespace
}  // namespace harness::workloads
