// wc, upper and grep: hand-written inputs with their answers asserted, the
// CPU-MT implementations against the references on every thread count, edge
// cases (empty input, one line, no final newline, chunk cuts inside words).
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>

#include "frameworks/workloads/grep/grep_pattern.h"
#include "frameworks/workloads/outputs.h"
#include "frameworks/workloads/registry.h"
#include "harness/core/errors.h"

namespace harness::workloads {
namespace {

const std::uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

std::string dump(const Output& o) {
  std::ostringstream s;
  o.dump(s);
  return s.str();
}

std::unique_ptr<Output> ref(const std::string& app, const std::string& text, Params p = {}) {
  auto out = find_workload(app).reference(p, bytes(text), text.size());
  out->finish();
  return out;
}

// Every thread count gives the reference's answer.
void expect_cpu_agrees(const std::string& app, const std::string& text, Params p = {}) {
  const auto expected = ref(app, text, p);
  for (unsigned threads : {1u, 2u, 3u, 7u, 16u}) {
    auto got = find_workload(app).run_cpu(p, bytes(text), text.size(), threads);
    got->finish();
    EXPECT_EQ(got->compare_with(*expected, {}), "") << app << " threads " << threads;
  }
}

TEST(Wc, CountsLinesWordsBytesLikeUnixWc) {
  EXPECT_EQ(dump(*ref("wc", "hello world\n  two\tlines \n")), "lines\t2\nwords\t4\nbytes\t25\n");
  EXPECT_EQ(dump(*ref("wc", "")), "lines\t0\nwords\t0\nbytes\t0\n");
  EXPECT_EQ(dump(*ref("wc", "no newline")), "lines\t0\nwords\t2\nbytes\t10\n");
  EXPECT_EQ(dump(*ref("wc", "\xc3\xa9t\xc3\xa9 \v\f\r x")), "lines\t0\nwords\t2\nbytes\t11\n");
}

TEST(Wc, ThreadsAgreeWithTheReferenceAcrossCuts) {
  std::string text;
  for (int i = 0; i < 300; ++i) text += std::string(i % 7, 'a') + (i % 3 ? " " : "\n");
  expect_cpu_agrees("wc", text);
  expect_cpu_agrees("wc", "");
  expect_cpu_agrees("wc", "x");
  expect_cpu_agrees("wc", "   ");
}

TEST(Wc, ComparisonNamesTheCountThatDiffers) {
  CountsOutput a({{"lines", 1}, {"words", 2}}), b({{"lines", 1}, {"words", 3}});
  EXPECT_EQ(a.compare_with(b, {}), "words: 2 (expected 3)");
}

TEST(Upper, OnlyLowerCaseAsciiLettersChange) {
  EXPECT_EQ(dump(*ref("upper", "abc XYZ 1{}`\xc3\xa9z\n")), "ABC XYZ 1{}`\xc3\xa9Z\n");
  EXPECT_EQ(dump(*ref("upper", "")), "");
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  expect_cpu_agrees("upper", all + all + "tail");
  const auto share = find_workload("upper").access_share({}, bytes("ab C"), 4);
  EXPECT_EQ(share.read_bytes, 4u);
  EXPECT_EQ(share.written_bytes, 2u);
}

TEST(Upper, ComparisonNamesTheFirstDifferingByte) {
  BytesOutput a(3), b(3);
  std::memcpy(a.data(), "ABC", 3);
  std::memcpy(b.data(), "ABD", 3);
  EXPECT_EQ(a.compare_with(b, {}), "byte 2 is 0x43 (expected 0x44)");
}

Params pattern(const std::string& p) { return {{"pattern", p}}; }

TEST(Grep, OffsetsOfMatchingLines) {
  const std::string text = "the cat\nconcatenate\n\ndog\ncat";
  EXPECT_EQ(dump(*ref("grep", text, pattern("cat"))), "0\n8\n25\n");
  EXPECT_EQ(dump(*ref("grep", text, pattern("^cat"))), "25\n");
  EXPECT_EQ(dump(*ref("grep", text, pattern("cat$"))), "0\n25\n");
  EXPECT_EQ(dump(*ref("grep", text, pattern("^$"))), "20\n");
  EXPECT_EQ(dump(*ref("grep", text, pattern("c.*t.*e"))), "8\n");
  EXPECT_EQ(dump(*ref("grep", text, pattern("x*"))), "0\n8\n20\n21\n25\n");
  EXPECT_EQ(dump(*ref("grep", "", pattern("x*"))), "");
  EXPECT_EQ(dump(*ref("grep", "a$b\n", pattern("a$b"))), "0\n");  // '$' inside is a byte
}

TEST(Grep, BacktrackingAndStateSetMatchersAgree) {
  const std::vector<std::string> patterns = {"a", "ab*c", "^a.*b$", ".*", "a*a*a*b", "^$",
                                             "$", "^",    "x.y",    "b*", "^ab*",    "a.*c.*e$"};
  const std::vector<std::string> lines = {"",      "a",    "abc",     "ac",    "abbbbc",
                                          "xay",   "aaab", "aaaaaaa", "abcde", "b",
                                          "zzzab", "ace",  "a$",      "^a",    "aaaaaaaaaaab"};
  for (const auto& ps : patterns) {
    const grep::Pattern p = grep::parse_pattern(ps);
    for (const auto& l : lines)
      EXPECT_EQ(grep::backtracking_match(p, bytes(l), l.size()),
                grep::state_set_match(p, bytes(l), l.size()))
          << "pattern '" << ps << "' line '" << l << "'";
  }
}

TEST(Grep, ThreadsAgreeWithTheReference) {
  std::string text;
  for (int i = 0; i < 500; ++i) text += (i % 5 ? "in the " : "") + std::string(i % 9, 'o') + "n\n";
  expect_cpu_agrees("grep", text, pattern("in.*on"));
  expect_cpu_agrees("grep", text + "tail in on", pattern("in.*on"));
  expect_cpu_agrees("grep", "\n\n\n", pattern("^$"));
}

TEST(Grep, BadPatternsAreUsageErrors) {
  EXPECT_THROW(grep::parse_pattern(""), UsageError);
  EXPECT_THROW(grep::parse_pattern("*a"), UsageError);
  EXPECT_THROW(grep::parse_pattern("a**"), UsageError);
  EXPECT_THROW(grep::parse_pattern("a\nb"), UsageError);
  EXPECT_THROW(grep::parse_pattern("^*"), UsageError);  // no atom after the anchor
}

}  // namespace
}  // namespace harness::workloads
