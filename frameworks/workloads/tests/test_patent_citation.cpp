// Patent Citation: the hand-written example's answer, the CPU-MT grouping
// against the reference on every thread count, malformed records, the
// patent-citations generator's layout and distributions, the access share.
#include <algorithm>
#include <map>
#include <vector>

#include "datasets/patent_citations.h"
#include "frameworks/workloads/patent_citation/patent_citation_format.h"
#include "frameworks/workloads/tests/map_group_testing.h"
#include "harness/core/errors.h"

namespace harness::workloads {
namespace {

using namespace testing;
using patent_citation::kRecordBytes;

const std::string kApp = "patent-citation";
const std::string kExample = "frameworks/workloads/patent_citation/examples/small";

std::string record(std::uint32_t citing, std::uint32_t cited) {
  char text[kRecordBytes + 1];
  std::snprintf(text, sizeof text, "%08u,%08u\n", citing, cited);
  return std::string(text, kRecordBytes);
}

std::string run_error(const std::string& input) { return testing::run_error(kApp, input); }

TEST(PatentCitation, HandWrittenExampleGivesItsHandDerivedAnswer) {
  const std::string input = read_file(source_path(kExample + ".txt"));
  const std::string expected = read_file(source_path(kExample + ".expected"));
  ASSERT_EQ(input.size(), 12 * kRecordBytes);
  EXPECT_EQ(dump(*reference(kApp, input)), expected);
  expect_cpu_agrees(kApp, input);
  EXPECT_EQ(reference(kApp, input)->items(), 5u);

  const int accepted =
      python_check("patent_citation_check.py", source_path(kExample + ".txt"), expected);
  if (accepted == -1) GTEST_SKIP() << "no python3";
  EXPECT_EQ(accepted, 0);
  std::string wrong = expected;
  wrong.replace(wrong.find("4000002,4000002"), 15, "4000002,4000005");
  EXPECT_EQ(python_check("patent_citation_check.py", source_path(kExample + ".txt"), wrong), 1);
}

TEST(PatentCitation, ThreadsAgreeWithTheReferenceOnGeneratedCitations) {
  const std::string input = generate("patent-citations", 2 << 20);
  ASSERT_EQ(input.size() % kRecordBytes, 0u);
  expect_cpu_agrees(kApp, input);
  expect_cpu_agrees(kApp, generate("patent-citations", 2 << 20, 7));
}

TEST(PatentCitation, EdgeCases) {
  expect_cpu_agrees(kApp, "");
  EXPECT_EQ(dump(*reference(kApp, "")), "");
  expect_cpu_agrees(kApp, record(5, 3));
  EXPECT_EQ(dump(*reference(kApp, record(5, 3))), "00000003\t1\t5\n");
  // 7 records on 2, 3 or 16 threads: pieces of unequal lengths, empty pieces.
  std::string seven;
  for (std::uint32_t i = 0; i < 7; ++i) seven += record(100 - i, i % 3);
  expect_cpu_agrees(kApp, seven);
  // All keys equal: one row holding every citing patent, ascending.
  std::string same;
  for (std::uint32_t i = 0; i < 5000; ++i) same += record(99'999'999 - i * 7919 % 100'000, 42);
  expect_cpu_agrees(kApp, same);
  const auto one = reference(kApp, same);
  ASSERT_EQ(one->items(), 1u);
  EXPECT_EQ(dump(*one).substr(0, 14), "00000042\t5000\t");
  // All keys distinct: as many rows as records.
  std::string distinct;
  for (std::uint32_t i = 0; i < 5000; ++i) distinct += record(i, 99'999'999 - i);
  expect_cpu_agrees(kApp, distinct);
  EXPECT_EQ(reference(kApp, distinct)->items(), 5000u);
  // Citations repeated: every record is a value.
  EXPECT_EQ(dump(*reference(kApp, record(9, 1) + record(9, 1) + record(8, 1))),
            "00000001\t3\t8,9,9\n");
  expect_cpu_agrees(kApp, record(9, 1) + record(9, 1) + record(8, 1));
}

TEST(PatentCitation, MalformedRecordsNameTheirIndexAndOffset) {
  const std::string good = record(1, 2) + record(3, 4) + record(5, 6);
  EXPECT_EQ(run_error(good), "no error");
  EXPECT_EQ(run_error(good + "0000"),
            "patent-citation: record 3 at byte 54: cut short: 58 bytes are not a whole number "
            "of 18-byte records");
  std::string digit = good;
  digit[18 + 12] = 'x';
  EXPECT_EQ(run_error(digit),
            "patent-citation: record 1 at byte 18: byte 30 is 'x', not a digit of the cited "
            "patent's number");
  std::string citing = good;
  citing[36] = ' ';
  EXPECT_EQ(run_error(citing),
            "patent-citation: record 2 at byte 36: byte 36 is ' ', not a digit of the citing "
            "patent's number");
  std::string comma = good;
  comma[18 + 8] = ';';
  EXPECT_EQ(run_error(comma), "patent-citation: record 1 at byte 18: byte 26 is ';', expected ','");
  std::string newline = good;
  newline[17] = '\r';
  EXPECT_EQ(run_error(newline),
            "patent-citation: record 0 at byte 0: byte 17 is 0x0d, expected '\\n'");
  // Unpadded NBER numbers are not 8 digits.
  EXPECT_NE(run_error("3858241,956203\n"), "no error");
}

// A citing patent and the cited patents of its records.
struct CitingPatent {
  std::uint32_t number;
  std::vector<std::uint32_t> cited;
};

std::vector<CitingPatent> citing_patents(const std::string& file) {
  std::vector<CitingPatent> patents;
  for (std::size_t at = 0; at < file.size(); at += kRecordBytes) {
    const auto* r = bytes(file) + at;
    const std::uint32_t citing = patent_citation::id_value(r);
    if (patents.empty() || patents.back().number != citing) patents.push_back({citing, {}});
    patents.back().cited.push_back(patent_citation::id_value(r + patent_citation::kCitedAt));
  }
  return patents;
}

TEST(PatentCitationsGenerator, DeterministicWholeRecordsOfTheRequestedSize) {
  const auto& g = datasets::find_generator("patent-citations");
  EXPECT_EQ(g.extension(), "txt");
  for (std::uint64_t size : {0ull, 17ull, 18ull, 1000ull, (4ull << 20) + 777}) {
    const std::string file = generate("patent-citations", size);
    EXPECT_EQ(file.size(), size / 18 * 18) << size;
    EXPECT_EQ(file.size(), g.output_bytes(size));
    EXPECT_NO_THROW(patent_citation::check_records(bytes(file), file.size()));
    EXPECT_EQ(generate("patent-citations", size), file) << "deterministic";
    if (size >= 1000) {
      EXPECT_NE(generate("patent-citations", size, 7), file) << "seeded";
    }
  }
}

TEST(PatentCitationsGenerator, RefusesSizesWhoseNumbersPassEightDigits) {
  EXPECT_THROW(generate("patent-citations", std::uint64_t{40} << 30), UsageError);
}

TEST(PatentCitationsGenerator, PatentsCiteEarlierPopularAndRecentPatents) {
  const std::string file = generate("patent-citations", 6 << 20);  // two chunks
  const auto patents = citing_patents(file);
  const std::uint32_t first_citing =
      datasets::kPatentFirstNumber + datasets::kPatentOldEras * datasets::kPatentEra;
  EXPECT_EQ(patents.front().number, first_citing);
  std::map<std::uint32_t, std::uint32_t> times_cited;
  std::uint64_t citations = 0, from_last_era = 0;
  for (std::size_t i = 0; i < patents.size(); ++i) {
    const CitingPatent& p = patents[i];
    if (i > 0) {
      EXPECT_EQ(p.number, patents[i - 1].number + 1) << "numbered in time order";
    }
    ASSERT_GE(p.cited.size(), 1u);
    ASSERT_LE(p.cited.size(), datasets::kPatentMaxCitations);
    EXPECT_TRUE(std::adjacent_find(p.cited.begin(), p.cited.end(), std::greater_equal<>()) ==
                p.cited.end())
        << "cited numbers ascending, none twice: patent " << p.number;
    EXPECT_LT(p.cited.back(), p.number) << "only earlier patents are cited";
    EXPECT_GE(p.cited.front(), datasets::kPatentFirstNumber);
    for (std::uint32_t c : p.cited) {
      ++times_cited[c];
      ++citations;
      from_last_era += (p.number - datasets::kPatentFirstNumber) / datasets::kPatentEra ==
                       (c - datasets::kPatentFirstNumber) / datasets::kPatentEra + 1;
    }
  }
  // 1..20 citations with weights 1/(n + 4): 7.82 on average.
  const double mean = static_cast<double>(citations) / static_cast<double>(patents.size());
  EXPECT_NEAR(mean, 7.82, 0.15);
  // Recency: the era just before the citing one takes (1/3) / (sum of
  // 1/(back + 3) over back < citing era) of the citations: 0.233, 0.219 and
  // 0.208 for citing eras 8, 9 and 10 here.
  EXPECT_NEAR(static_cast<double>(from_last_era) / static_cast<double>(citations), 0.22, 0.03);
  // Popularity: the most cited 1% of the cited patents collect a large share.
  std::vector<std::uint32_t> counts;
  for (const auto& [number, n] : times_cited) counts.push_back(n);
  std::sort(counts.rbegin(), counts.rend());
  std::uint64_t top = 0;
  for (std::size_t i = 0; i < counts.size() / 100; ++i) top += counts[i];
  EXPECT_GT(static_cast<double>(top) / static_cast<double>(citations), 0.10);
  EXPECT_GT(counts.front(), 200u);
}

TEST(PatentCitation, AccessShareReadsTheTwoNumbersOfEveryRecord) {
  const std::string file = generate("patent-citations", 1 << 20);
  const AccessShare share = find_workload(kApp).access_share({}, bytes(file), file.size());
  EXPECT_EQ(share.records, file.size() / kRecordBytes);
  EXPECT_EQ(share.input_bytes, file.size());
  EXPECT_EQ(share.read_bytes, share.records * 16);
  EXPECT_NEAR(share.read_share(), 16.0 / 18, 1e-12);
  EXPECT_EQ(share.written_bytes, 0u);
  const PaperFacts paper = find_workload(kApp).paper();
  EXPECT_EQ(paper.table6_1_bytes[3], 4.8e9);
  EXPECT_FALSE(paper.read_share.has_value());  // not in table 4.1
}

}  // namespace
}  // namespace harness::workloads
