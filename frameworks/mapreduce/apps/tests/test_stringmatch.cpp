// String match's host side: parameters, records, side data and a reference
// that finds every occurrence, overlapping ones included.
#include <gtest/gtest.h>

#include <cstring>

#include "frameworks/mapreduce/apps/registry.h"
#include "harness/core/errors.h"

namespace harness::apps {
namespace {

std::string u32_bytes(std::uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }
const auto* bytes(const std::string& s) { return reinterpret_cast<const std::uint8_t*>(s.data()); }

KeyValueList matches(const std::string& pattern, std::initializer_list<std::uint32_t> offsets) {
  KeyValueList out;
  for (std::uint32_t o : offsets) out.emplace_back(pattern, u32_bytes(o));
  return out;
}

KeyValueList reference_of(const std::string& text, const std::string& pattern) {
  return stringmatch_app().reference({{"pattern", pattern}}, bytes(text), text.size());
}

TEST(StringMatch, DeclaresItsPatternAndSetValidation) {
  const MapReduceApp& app = stringmatch_app();
  EXPECT_EQ(defaults_of(app.params()), (Params{{"pattern", "glo"}}));
  EXPECT_EQ(app.validation().kind, "set");
  EXPECT_FALSE(app.has_reduce());
  EXPECT_EQ(app.default_dataset(), "text-zipf");
  // Other names (a variant's knobs) are ignored; missing ones take the default.
  EXPECT_EQ(app.resolve_params({{"group_size", "64"}}), (Params{{"pattern", "glo"}}));
  EXPECT_EQ(app.resolve_params({{"pattern", "of the"}}), (Params{{"pattern", "of the"}}));
  EXPECT_THROW(app.resolve_params({{"pattern", ""}}), UsageError);
  EXPECT_THROW(app.resolve_params({{"pattern", "a\nb"}}), UsageError);
}

TEST(StringMatch, ReferenceFindsEveryOccurrenceIncludingOverlaps) {
  EXPECT_EQ(reference_of("aaaa\naaa\nbaab\n", "aa"), matches("aa", {0, 1, 2, 5, 6, 10}));
  EXPECT_EQ(reference_of("the cat, The hat\nthe", "the"), matches("the", {0, 17}));
  EXPECT_EQ(reference_of("caf\xc3\xa9 Caf\xc3\xa9", "caf\xc3\xa9"), matches("caf\xc3\xa9", {0}));
  EXPECT_TRUE(reference_of("", "x").empty());
  EXPECT_TRUE(reference_of("abc", "abcd").empty());
  // Without a pattern, the default.
  const std::string text = "glo glow\n";
  EXPECT_EQ(stringmatch_app().reference({}, bytes(text), text.size()), matches("glo", {0, 4}));
}

TEST(StringMatch, SideDataIsThePattern) {
  const std::string text = "whatever";
  std::vector<std::uint8_t> side =
      stringmatch_app().side_data({{"pattern", "needle"}}, bytes(text), text.size());
  EXPECT_EQ(std::string(side.begin(), side.end()), "needle");
  EXPECT_THROW(stringmatch_app().side_data({{"pattern", ""}}, bytes(text), text.size()),
               UsageError);
}

TEST(StringMatch, RecordsAreWholeLines) {
  const std::string text = std::string(10000, 'x') + "\nab\n\nc";
  EXPECT_EQ(stringmatch_app().split_records(bytes(text), text.size()),
            (std::vector<std::uint32_t>{0, 10001, 10004, 10005, 10006}));
  EXPECT_EQ(stringmatch_app().split_records(bytes(text), 0), (std::vector<std::uint32_t>{0}));
}

TEST(StringMatch, ValuesSortNumericallyAndFormatAsOffsets) {
  const MapReduceApp& app = stringmatch_app();
  KeyValueList list = matches("p", {256, 1, 70000, 2});
  sort_output(app, list);
  EXPECT_EQ(list, matches("p", {1, 2, 256, 70000}));
  EXPECT_EQ(app.format_value(u32_bytes(70000)), "70000");
}

TEST(StringMatch, SetValidationNamesAMissingMatch) {
  const MapReduceApp& app = stringmatch_app();
  const KeyValueList expected = matches("aa", {0, 1, 2, 5});
  EXPECT_EQ(compare_output_sets(app, expected, expected), "");
  const std::string missing = compare_output_sets(app, expected, matches("aa", {0, 1, 5}));
  EXPECT_NE(missing.find("expected 4 pairs, got 3; 1 missing: (aa, 2)"), std::string::npos)
      << missing;
  const std::string wrong = compare_output_sets(app, expected, matches("aa", {0, 1, 2, 6}));
  EXPECT_NE(wrong.find("1 missing: (aa, 5); 1 unexpected: (aa, 6)"), std::string::npos) << wrong;
  const std::string twice = compare_output_sets(app, expected, matches("aa", {0, 1, 2, 5, 5}));
  EXPECT_NE(twice.find("1 unexpected: (aa, 5)"), std::string::npos) << twice;
}

}  // namespace
}  // namespace harness::apps
