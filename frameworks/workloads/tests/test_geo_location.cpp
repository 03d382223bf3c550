// Geo Location: the hand-written example's answer, the CPU-MT grouping
// against the reference on every thread count, line edge cases, malformed
// lines, the geo-articles generator's layout and distributions, the access
// share.
#include <map>
#include <set>
#include <vector>

#include "datasets/geo_articles.h"
#include "frameworks/workloads/geo_location/geo_location_format.h"
#include "frameworks/workloads/tests/map_group_testing.h"
#include "harness/core/errors.h"

namespace harness::workloads {
namespace {

using namespace testing;

const std::string kApp = "geo-location";
const std::string kExample = "frameworks/workloads/geo_location/examples/small";

std::string run_error(const std::string& input) { return testing::run_error(kApp, input); }

TEST(GeoLocation, HandWrittenExampleGivesItsHandDerivedAnswer) {
  const std::string input = read_file(source_path(kExample + ".tsv"));
  const std::string expected = read_file(source_path(kExample + ".expected"));
  ASSERT_EQ(std::count(input.begin(), input.end(), '\n'), 11);  // 12 lines, the last unended
  EXPECT_EQ(dump(*reference(kApp, input)), expected);
  expect_cpu_agrees(kApp, input);

  const int accepted =
      python_check("geo_location_check.py", source_path(kExample + ".tsv"), expected);
  if (accepted == -1) GTEST_SKIP() << "no python3";
  EXPECT_EQ(accepted, 0);
  std::string wrong = expected;
  wrong.replace(wrong.find("5,17,99,105"), 11, "5,17,105");
  EXPECT_EQ(python_check("geo_location_check.py", source_path(kExample + ".tsv"), wrong), 1);
}

TEST(GeoLocation, ThreadsAgreeWithTheReferenceOnGeneratedArticles) {
  expect_cpu_agrees(kApp, generate("geo-articles", 2 << 20));
  expect_cpu_agrees(kApp, generate("geo-articles", 2 << 20, 7));
}

TEST(GeoLocation, EdgeCases) {
  expect_cpu_agrees(kApp, "");
  EXPECT_EQ(dump(*reference(kApp, "")), "");
  expect_cpu_agrees(kApp, "\n\r\n\n");  // empty lines only
  EXPECT_EQ(dump(*reference(kApp, "\n\r\n\n")), "");
  const std::string one = "7\tT\tHere\t2001\n";
  expect_cpu_agrees(kApp, one);
  EXPECT_EQ(dump(*reference(kApp, one)), "Here\t1\t7\n");
  EXPECT_EQ(dump(*reference(kApp, "7\tT\tHere\t2001")), "Here\t1\t7\n");      // no final newline
  EXPECT_EQ(dump(*reference(kApp, "7\tT\tHere\t2001\r\n")), "Here\t1\t7\n");  // CRLF
  expect_cpu_agrees(kApp, "7\tT\tHere\t2001\r\n8\tU\tHere\t\r\n\r\n9\tV\tThere\t2002");
  // A line far longer than a thread's piece: the cuts move past it.
  const std::string long_line = "12\t" + std::string(5000, 'a') + "\tFar\t2001\n";
  expect_cpu_agrees(kApp, one + long_line + one + "3\tt\tFar\tx\n");
  // All keys equal; all keys distinct.
  std::string same, distinct;
  for (int i = 0; i < 4000; ++i) {
    same += std::to_string(4000 - i) + "\ttitle " + std::to_string(i) + "\tParis\t2001\n";
    distinct += std::to_string(i) + "\tt\tPlace " + std::to_string(i * 7919 % 4000) + "\t2001\n";
  }
  expect_cpu_agrees(kApp, same);
  EXPECT_EQ(reference(kApp, same)->items(), 1u);
  EXPECT_EQ(dump(*reference(kApp, same)).substr(0, 18), "Paris\t4000\t1,2,3,4");
  expect_cpu_agrees(kApp, distinct);
  EXPECT_EQ(reference(kApp, distinct)->items(), 4000u);
  // Locations are bytes: case, spaces and prefixes make other keys.
  EXPECT_EQ(
      dump(*reference(kApp, "1\tt\tParis\t-\n2\tt\tparis\t-\n3\tt\tParis \t-\n4\tt\tParis\t-\n")),
      "Paris\t2\t1,4\nParis \t1\t3\nparis\t1\t2\n");
}

TEST(GeoLocation, MalformedLinesNameTheirNumberAndOffset) {
  const std::string good = "1\tt\tA\t-\n\n2\tt\tB\t-\n";  // lines 1-3, line 4 at byte 17
  EXPECT_EQ(run_error(good), "no error");
  EXPECT_EQ(run_error(good + "3\tt\tC\n"),
            "geo-location: line 4 at byte 17: 3 fields, expected at least 4 (article id, title, "
            "location, timestamp) separated by tabs");
  EXPECT_EQ(run_error(good + "3 t C -\n"),
            "geo-location: line 4 at byte 17: 1 field, expected at least 4 (article id, title, "
            "location, timestamp) separated by tabs");
  EXPECT_EQ(run_error(good + "x3\tt\tC\t-\n"),
            "geo-location: line 4 at byte 17: the article id 'x3' is not a decimal number");
  EXPECT_EQ(run_error(good + "-3\tt\tC\t-\n"),
            "geo-location: line 4 at byte 17: the article id '-3' is not a decimal number");
  EXPECT_EQ(run_error(good + "\tt\tC\t-\n"),
            "geo-location: line 4 at byte 17: the article id is empty");
  EXPECT_EQ(run_error(good + "4294967296\tt\tC\t-\n"),
            "geo-location: line 4 at byte 17: the article id '4294967296' is 4294967296 or more");
  EXPECT_EQ(run_error(good + "4294967295\tt\tC\t-\n"), "no error");
  EXPECT_EQ(run_error(good + "3\tt\t\t-\n"),
            "geo-location: line 4 at byte 17: the location is empty");
  EXPECT_EQ(run_error("1\tt\tA\r\n"),  // the '\r' is stripped before the fields are counted
            "geo-location: line 1 at byte 0: 3 fields, expected at least 4 (article id, title, "
            "location, timestamp) separated by tabs");
}

TEST(GeoArticlesGenerator, DeterministicWholeLinesOfTheRequestedSize) {
  const auto& g = datasets::find_generator("geo-articles");
  EXPECT_EQ(g.extension(), "tsv");
  for (std::uint64_t size : {0ull, 1ull, 50ull, 299ull, 5000ull, (4ull << 20) + 777}) {
    const std::string file = generate("geo-articles", size);
    ASSERT_EQ(file.size(), size);
    EXPECT_EQ(g.output_bytes(size), size);
    if (size > 0) {
      EXPECT_EQ(file.back(), '\n');
    }
    EXPECT_NO_THROW(find_workload(kApp).check_input(bytes(file), file.size())) << size;
    EXPECT_EQ(generate("geo-articles", size), file) << "deterministic";
    if (size >= 299) {
      EXPECT_NE(generate("geo-articles", size, 7), file) << "seeded";
    }
  }
}

TEST(GeoArticlesGenerator, RefusesSizesWhoseIdsPass32Bits) {
  EXPECT_THROW(generate("geo-articles", std::uint64_t{200} << 30), UsageError);
}

TEST(GeoArticlesGenerator, ZipfPopularPlacesIncreasingIdsAndTimes) {
  const std::uint64_t size = 6 << 20;  // two chunks
  const std::string file = generate("geo-articles", size);
  const std::vector<std::string> places = datasets::geo_articles_locations(size, 42);
  ASSERT_EQ(places.size(), datasets::geo_articles_places(size));
  EXPECT_EQ(places.size(), 1000u + 50 * 78);  // 1000 + 50 sqrt(6144 KiB)
  EXPECT_EQ(std::set<std::string>(places.begin(), places.end()).size(), places.size());
  EXPECT_EQ(datasets::geo_articles_places(std::uint64_t{5'000'000'000}), 1000u + 50 * 2209);
  std::map<std::string, std::size_t> rank;
  for (std::size_t r = 0; r < places.size(); ++r) rank[places[r]] = r;

  std::vector<std::uint64_t> per_rank(places.size());
  std::uint64_t lines = 0, last_id = 0;
  std::string last_time;
  geo_location::for_each_article(
      bytes(file), file.size(), [&](const geo_location::ArticleLine& line) {
        const auto it = rank.find(std::string(line.location));
        ASSERT_NE(it, rank.end()) << "line " << line.number << ": an unknown place";
        ++per_rank[it->second];
        EXPECT_EQ(line.id, datasets::kGeoFirstArticleId + line.offset / 32);
        if (lines++ > 0) {
          EXPECT_GT(line.id, last_id) << "line " << line.number;
        }
        last_id = line.id;
        const std::string_view text(reinterpret_cast<const char*>(bytes(file) + line.offset),
                                    line.length);
        const std::size_t time_at = text.find('\t', text.find('\t', text.find('\t') + 1) + 1) + 1;
        const std::string time(text.substr(time_at, 20));
        EXPECT_EQ(time[4], '-');
        EXPECT_EQ(time[19], 'Z');
        EXPECT_GE(time, last_time) << "line " << line.number;
        last_time = time;
      });
  EXPECT_EQ(lines, std::count(file.begin(), file.end(), '\n'));  // no empty lines
  EXPECT_GT(lines, size / 120);
  // Rank r is drawn with weight 1 / (r + 2): the top place's share.
  double weights = 0;
  for (std::size_t r = 0; r < places.size(); ++r) weights += 1.0 / (static_cast<double>(r) + 2.0);
  const double top = static_cast<double>(per_rank[0]) / static_cast<double>(lines);
  EXPECT_NEAR(top, 0.5 / weights, 0.1 * 0.5 / weights);
  EXPECT_GT(per_rank[1], per_rank[50]);
  std::size_t used = 0;
  for (std::uint64_t n : per_rank) used += n > 0;
  EXPECT_GT(used, places.size() / 2);
  EXPECT_EQ(file.substr(0, 8), "1000000\t");
  EXPECT_NE(file.find("\t2001-01-15T00:00:00Z\t"), std::string::npos);
}

TEST(GeoLocation, AccessShareReadsEveryByte) {
  const std::string file = generate("geo-articles", 1 << 20);
  const AccessShare share = find_workload(kApp).access_share({}, bytes(file), file.size());
  EXPECT_EQ(share.records, static_cast<std::uint64_t>(std::count(file.begin(), file.end(), '\n')));
  EXPECT_EQ(share.read_bytes, file.size());
  EXPECT_EQ(share.written_bytes, 0u);
  const PaperFacts paper = find_workload(kApp).paper();
  EXPECT_EQ(paper.table6_1_bytes[0], 0.2e9);
  EXPECT_EQ(paper.table6_1_bytes[3], 5e9);
}

}  // namespace
}  // namespace harness::workloads
