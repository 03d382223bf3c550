// Inverted index's host side: the link rule (quotes, case, attributes, decoys,
// open quotes), page starts as side data, the html-zipf corpus, and the
// inverted-index workload's answer holding the same pairs.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <sstream>

#include "datasets/html_zipf.h"
#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/tests/mapreduce_inputs.h"
#include "frameworks/workloads/group_by_key.h"
#include "frameworks/workloads/registry.h"

namespace harness::apps {
namespace {

const auto* bytes(const std::string& s) { return reinterpret_cast<const std::uint8_t*>(s.data()); }

// (url, page) pairs of the reference, in canonical order.
std::vector<std::pair<std::string, std::uint32_t>> links_of(const std::string& text) {
  KeyValueList out = invertedindex_app().reference({}, bytes(text), text.size());
  sort_output(invertedindex_app(), out);
  std::vector<std::pair<std::string, std::uint32_t>> links;
  for (const auto& [k, v] : out) {
    std::uint32_t page = 0;
    std::memcpy(&page, v.data(), 4);
    links.emplace_back(k, page);
  }
  return links;
}

const std::string& case_text(const std::string& name) {
  static const auto cases = testing::invertedindex_cases();
  for (const auto& c : cases) {
    if (c.name == name) return c.text;
  }
  throw std::runtime_error("no case " + name);
}

TEST(InvertedIndex, DeclaresSetValidationAndNoParameters) {
  const MapReduceApp& app = invertedindex_app();
  EXPECT_EQ(app.validation().kind, "set");
  EXPECT_TRUE(app.params().empty());
  EXPECT_FALSE(app.has_reduce());
  EXPECT_EQ(app.default_dataset(), "html-zipf");
}

TEST(InvertedIndex, FollowsTheLinkRule) {
  using L = std::vector<std::pair<std::string, std::uint32_t>>;
  EXPECT_EQ(links_of(case_text("syntax")), (L{{"", 0},
                                              {"after.html", 0},
                                              {"dq.html", 0},
                                              {"end-of-line.html", 0},
                                              {"first.html", 0},
                                              {"mixed.html/", 0},
                                              {"open.html", 0},
                                              {"sq.html", 0},
                                              {"tab.html", 0},
                                              {"two.html", 0},
                                              {"up.html", 0},
                                              {"uq.html", 0}}));
  EXPECT_TRUE(links_of(case_text("no_links")).empty());
  EXPECT_TRUE(links_of("").empty());
  EXPECT_EQ(links_of("<a href=\"x.html\">x</a>"), (L{{"x.html", 0}}));
}

TEST(InvertedIndex, ValuesAreTheStartsOfTheLinksPages) {
  const std::string text =
      "<a href=a>before any marker</a>\n"       // page 0 (no marker yet)
      "<!-- page: one -->\n"                    // page at 32
      "<a href=a> <a href=b>\n"                 // 51
      "x <!-- page: not at a line start -->\n"  // 73
      "<a href=c>\n"                            // 110
      "<!-- page: two --> <a href=a>\n";        // 121
  using L = std::vector<std::pair<std::string, std::uint32_t>>;
  EXPECT_EQ(links_of(text), (L{{"a", 0}, {"a", 32}, {"a", 121}, {"b", 32}, {"c", 32}}));
  std::vector<std::uint8_t> side = invertedindex_app().side_data({}, bytes(text), text.size());
  std::vector<std::uint32_t> starts(side.size() / 4);
  std::memcpy(starts.data(), side.data(), side.size());
  EXPECT_EQ(starts, (std::vector<std::uint32_t>{0, 32, 121}));
  const std::string first = "<!-- page: first -->\nx\n";
  side = invertedindex_app().side_data({}, bytes(first), first.size());
  EXPECT_EQ(side.size(), 4u);  // a marker at byte 0 is the first page, not a second
}

// Page starts of the serial scan: after every newline that a marker follows.
std::vector<std::uint32_t> serial_page_starts(const std::string& text) {
  std::vector<std::uint32_t> starts{0};
  for (std::size_t at = text.find("\n<!-- page:"); at != std::string::npos;
       at = text.find("\n<!-- page:", at + 1)) {
    starts.push_back(static_cast<std::uint32_t>(at + 1));
  }
  return starts;
}
std::vector<std::uint32_t> page_starts(const std::string& text) {
  const std::vector<std::uint8_t> side =
      invertedindex_app().side_data({}, bytes(text), text.size());
  std::vector<std::uint32_t> starts(side.size() / 4);
  std::memcpy(starts.data(), side.data(), side.size());
  return starts;
}

// From 8 MiB on, the page starts are found in pieces of whole lines on every
// core: the same as the serial scan, on the corpus and on a text whose every
// line is a marker (so a page starts at every cut between pieces).
TEST(InvertedIndex, PageStartsFoundInPiecesAreTheSerialScans) {
  const std::string html = testing::generated("html-zipf", 12 << 20, 7);
  const std::vector<std::uint32_t> starts = page_starts(html);
  EXPECT_GT(starts.size(), 1000u);
  EXPECT_EQ(starts, serial_page_starts(html));
  std::string markers;
  while (markers.size() < (std::size_t{9} << 20)) markers += "<!-- page: p -->\n";
  const std::vector<std::uint32_t> every_line = page_starts(markers);
  EXPECT_EQ(every_line.size(), markers.size() / 17);
  EXPECT_EQ(every_line, serial_page_starts(markers));
}

TEST(InvertedIndex, HtmlZipfPagesAndLinksLookReal) {
  const std::string html = testing::generated("html-zipf", 1 << 20, 42);
  std::vector<std::uint8_t> side = invertedindex_app().side_data({}, bytes(html), html.size());
  const std::size_t pages = side.size() / 4;
  const auto links = links_of(html);
  std::map<std::string, std::size_t> per_url;
  for (const auto& [url, page] : links) ++per_url[url];
  std::size_t top = 0;
  for (const auto& [url, n] : per_url) top = std::max(top, n);
  // About 7 KB pages and one link per 150 bytes; Zipf: the top URL a few percent.
  EXPECT_GT(pages, 100u);
  EXPECT_LT(pages, 400u);
  EXPECT_GT(links.size(), 5000u);
  EXPECT_LT(links.size(), 12000u);
  EXPECT_GT(per_url.size(), links.size() / 5);
  EXPECT_GT(top, links.size() / 50);
  EXPECT_LT(top, links.size() / 8);
  // The generator's URLs, most linked first: the top one is the most linked here.
  EXPECT_EQ(per_url[datasets::html_zipf_urls(42)[0]], top);
}

// The inverted-index workload (frameworks/workloads/inverted_index) reads
// pages and links by the same rules (html_links.h, shared): its answer, the
// page ids grouped by URL, holds this app's pairs, on every test input.
TEST(InvertedIndex, TheWorkloadGroupsTheSamePairs) {
  const workloads::Workload& workload = workloads::find_workload("inverted-index");
  for (const auto& c : testing::invertedindex_cases()) {
    std::map<std::string, std::vector<std::int64_t>> pages_linking;
    for (const auto& [url, page] : invertedindex_app().reference({}, bytes(c.text), c.text.size()))
      pages_linking[url].push_back(from_raw<std::uint32_t>(page));
    const workloads::TableOutput expected = workloads::group_by_key::table_of_groups(pages_linking);
    EXPECT_NO_THROW(workload.check_input(bytes(c.text), c.text.size())) << c.name;
    auto reference = workload.reference({}, bytes(c.text), c.text.size());
    reference->finish();
    EXPECT_EQ(reference->compare_with(expected, {}), "") << c.name;
    auto run = workload.run_cpu({}, bytes(c.text), c.text.size(), 3);
    run->finish();
    EXPECT_EQ(run->compare_with(expected, {}), "") << c.name;
  }
}

}  // namespace
}  // namespace harness::apps
