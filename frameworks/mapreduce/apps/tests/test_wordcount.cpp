// Word count's host side: the reference follows the stated rule, records never
// split a word, and output comparison reports every kind of difference.
#include <gtest/gtest.h>

#include <cstring>

#include "frameworks/mapreduce/apps/registry.h"

namespace harness::apps {
namespace {

std::string u32_bytes(std::uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }

KeyValueList reference_of(const std::string& text) {
  return wordcount_app().reference({}, reinterpret_cast<const std::uint8_t*>(text.data()),
                                   text.size());
}

TEST(WordCount, ReferenceFollowsTheWordRule) {
  // Letters only; lower-cased; digits, punctuation and UTF-8 bytes separate words.
  KeyValueList got = reference_of("The the THE! caf\xc3\xa9 x1y-z  naïve\n");
  KeyValueList expected = {{"caf", u32_bytes(1)}, {"na", u32_bytes(1)}, {"the", u32_bytes(3)},
                           {"ve", u32_bytes(1)},  {"x", u32_bytes(1)},  {"y", u32_bytes(1)},
                           {"z", u32_bytes(1)}};
  EXPECT_EQ(got, expected);
}

TEST(WordCount, EmptyAndWordlessInputsHaveNoKeys) {
  EXPECT_TRUE(reference_of("").empty());
  EXPECT_TRUE(reference_of("123 ... \n\n\xc3\xa9").empty());
}

TEST(WordCount, RecordsCoverTheInputAndNeverSplitAWord) {
  std::string text;
  for (int i = 0; i < 3000; ++i) text += "abcdefghij";  // 30000 letters, no separator
  text += " tail\nshort line\n";
  const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
  std::vector<std::uint32_t> off = wordcount_app().split_records(data, text.size());
  ASSERT_GE(off.size(), 2u);
  EXPECT_EQ(off.front(), 0u);
  EXPECT_EQ(off.back(), text.size());
  for (std::size_t i = 1; i + 1 < off.size(); ++i) {
    EXPECT_LT(off[i - 1], off[i]);
    const bool letter_before = std::isalpha(static_cast<unsigned char>(text[off[i] - 1]));
    const bool letter_after = std::isalpha(static_cast<unsigned char>(text[off[i]]));
    EXPECT_FALSE(letter_before && letter_after) << "record boundary inside a word at " << off[i];
  }
}

TEST(WordCount, CompareOutputsReportsDifferences) {
  const MapReduceApp& app = wordcount_app();
  KeyValueList expected = {{"a", u32_bytes(2)}, {"b", u32_bytes(1)}};
  EXPECT_EQ(compare_outputs(app, expected, expected), "");
  KeyValueList wrong = {{"a", u32_bytes(3)}, {"b", u32_bytes(1)}};
  EXPECT_NE(compare_outputs(app, expected, wrong).find("key 'a': expected 2, got 3"),
            std::string::npos);
  KeyValueList missing = {{"a", u32_bytes(2)}};
  EXPECT_NE(compare_outputs(app, expected, missing).find("1 missing"), std::string::npos);
  KeyValueList extra = {{"a", u32_bytes(2)}, {"b", u32_bytes(1)}, {"c", u32_bytes(1)}};
  EXPECT_NE(compare_outputs(app, expected, extra).find("1 unexpected"), std::string::npos);
}

}  // namespace
}  // namespace harness::apps

namespace harness::apps {
namespace {

// Inputs of 8 MiB and more are split on several threads; the records must be
// exactly those of one thread's split (checked against a serial re-split).
TEST(WordCount, ParallelSplitEqualsSerialSplit) {
  std::string text;
  std::uint32_t x = 1;
  while (text.size() < (std::size_t{9} << 20)) {
    x = x * 1664525u + 1013904223u;
    const std::uint32_t len = (x >> 8) % 7000;  // lines up to 7000 bytes: some exceed a record
    for (std::uint32_t i = 0; i < len; ++i)
      text.push_back(i % 9 == 8 ? ' ' : static_cast<char>('a' + (x + i) % 26));
    text.push_back('\n');
  }
  const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
  std::vector<std::uint32_t> parallel = wordcount_app().split_records(data, text.size());
  // Serial: split each half-megabyte piece below the threshold and stitch at line starts.
  std::vector<std::uint32_t> serial;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t stop = std::min(text.size(), start + (std::size_t{1} << 19));
    while (stop < text.size() && text[stop - 1] != '\n') ++stop;
    std::vector<std::uint32_t> part = wordcount_app().split_records(data + start, stop - start);
    for (std::size_t i = 0; i + 1 < part.size(); ++i)
      serial.push_back(static_cast<std::uint32_t>(part[i] + start));
    start = stop;
  }
  serial.push_back(static_cast<std::uint32_t>(text.size()));
  EXPECT_EQ(parallel, serial);
}

}  // namespace
}  // namespace harness::apps
