// S-L1's page-view-count, inverted-index and matrix-multiply (the thesis'
// table 5.1 apps beside the seven of test_sl1.cpp): every variant validates
// on generated data and on hand-made inputs with their corner cases, the
// tables and pair arrays grow when a run overflows them, and the monitoring
// caches what a sequential walk hits (A's rows) and nothing else.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "datasets/npy.h"
#include "frameworks/sl1/tests/sl1_testing.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

class Sl1MoreAppsTest : public Sl1Test {};

const std::vector<std::string> kSlicedVariants = {"no-l1", "hw-l1", "sl1", "sl1-nothing",
                                                  "register-line"};

// A .npy file of A (n x k) then B (k x m), entries i-dependent small integers
// scaled so that float sums are exact to well within the tolerance.
std::string matrices(std::uint64_t n, std::uint64_t k, std::uint64_t m) {
  auto array = [](std::uint64_t rows, std::uint64_t columns, int salt) {
    std::string bytes = datasets::npy_header({rows, columns});
    for (std::uint64_t e = 0; e < rows * columns; ++e) {
      const float v = static_cast<float>((e * 7 + salt) % 13) / 8.0f - 0.5f;
      bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    return bytes;
  };
  return array(n, k, 1) + array(k, m, 5);
}

TEST_P(Sl1MoreAppsTest, EveryVariantValidatesOnGeneratedData) {
  const std::string log = generate("weblog", 256 << 10);
  const std::string html = generate("html-zipf", 256 << 10);
  const std::string mats = generate("matrix-f32", 8 * 96 * 96);
  for (const std::string variant :
       {"no-l1", "hw-l1", "sl1", "sl1-nothing", "register-line", "staging", "coalesced"}) {
    for (const auto& [app, input] :
         {std::pair<std::string, const std::string&>{"page-view-count", log},
          {"inverted-index", html},
          {"matrix-multiply", mats}}) {
      SCOPED_TRACE(variant + " " + app);
      if (variant == "staging" || variant == "coalesced") {
        EXPECT_THROW(run(variant, app, input), SkipPoint);
        continue;
      }
      const PointRun r = run(variant, app, input);
      EXPECT_EQ(r.validation, "");
      EXPECT_EQ(r.measurement.counters.at("threads"), 256);
    }
  }
}

// The log is read in order: S-L1 caches it and hits 15 of 16 bytes.
TEST_P(Sl1MoreAppsTest, PageViewCountCachesTheLog) {
  const PointRun r = run("sl1", "page-view-count", generate("weblog", 512 << 10, 3));
  EXPECT_EQ(r.validation, "");
  EXPECT_EQ(r.measurement.counters.at("sl1_cached_log"), 1);
  EXPECT_NEAR(r.measurement.counters.at("sl1_hit_rate_log"), 1.0 - 1.0 / 16, 0.01);
}

// Lines that are no page views (no TAB, a TAB first, empty, a lone '\r'),
// CRLF, URLs that differ in their last byte or extend another, a last line
// without '\n', and 5000 distinct URLs: more than half of the first table's
// 4096 slots, so it grows and the launch runs again.
TEST_P(Sl1MoreAppsTest, PageViewCountOnHandMadeLines) {
  std::string log;
  for (int i = 0; i < 5000; ++i) log += "/u" + std::to_string(i) + "\t10.0.0.1\tc\n";
  for (int i = 0; i < 300; ++i) {
    log += "/index.html\t1.2.3.4\tcookie\n";
    log += "/index.htm\t1.2.3.4\tcookie\r\n";
    log += "/index.htmx\t1.2.3.4\n";
    log += "no tab on this line\n";
    log += "\t/starts-with-a-tab\t1.2.3.4\n";
    log += "\n\r\n";
  }
  log += "/last\tno newline";
  for (const std::string& variant : kSlicedVariants) {
    for (const std::string line : {"8", "24"}) {
      std::map<std::string, std::string> params;
      if (variant == "sl1" || variant == "sl1-nothing") params["monitor"] = "40";
      if (variant == "sl1") params["line_bytes"] = line;
      EXPECT_EQ(run(variant, "page-view-count", log, params).validation, "") << variant << line;
    }
  }
  EXPECT_EQ(run("sl1", "page-view-count", "").validation, "");
  EXPECT_EQ(run("sl1", "page-view-count", "\t\n\n").validation, "");
}

// Pages of hand-made lines: a link on the marker's own line, anchors of every
// form the rule reads (quotes, no quotes, upper case, '=' between spaces, a
// repeated href, an empty value, an open quote that drops the rest of the
// line, a value at the line's end), decoys, and 3000 short links, more than
// the first array's pairs (one per 32 bytes of input), so it grows and the
// launch runs again. Slices of the 256 work-items start inside pages.
TEST_P(Sl1MoreAppsTest, InvertedIndexOnHandMadePages) {
  std::string html;
  for (int page = 0; page < 60; ++page) {
    html += "<!-- page: p" + std::to_string(page) + " --><a href=\"on-marker.html\">m</a>\n";
    html += "<p>text <a href='a.html'>a</a> and <A HREF=b.html>b</A> <a\thref = \"c d\">c</a>\r\n";
    html += "<a title=x href=\"first\" href=\"second\"> <a href=\"\">empty</a> <a name=n>\n";
    html += "<link href=\"style.css\"> <abbr href=x> <a data-href=\"no\"> <area href=\"no\">\n";
    html += "<a href=x><a href=\"never closed <a href=lost>\n";
    for (int i = 0; i < 50; ++i) html += "<a href=u" + std::to_string(i % 7) + "> ";
    html += "<a href=at-the-end";
    html += page % 2 ? "\n" : "\n\n";
  }
  html += "<a href=\"last-line-no-newline\">";
  ASSERT_LT(html.size() / 32, 3000u);  // the first array's pairs, fewer than the links
  for (const std::string& variant : kSlicedVariants) {
    for (const std::string line : {"8", "24"}) {
      std::map<std::string, std::string> params;
      if (variant == "sl1" || variant == "sl1-nothing") params["monitor"] = "40";
      if (variant == "sl1") params["line_bytes"] = line;
      EXPECT_EQ(run(variant, "inverted-index", html, params).validation, "") << variant << line;
    }
  }
  EXPECT_EQ(run("sl1", "inverted-index", "").validation, "");
  EXPECT_EQ(run("sl1", "inverted-index", "no links\n").validation, "");
}

// A (n x k) B (k x m) of odd shapes, and the (2, n, n) layout; every variant
// at every line size. A's rows are walked in order (k = 64: 256-byte rows
// from a 64-byte aligned start), so with 16-byte lines S-L1 caches A and hits
// 3 of 4 loads; B's columns and C's cells (GLOBAL_SIZE apart) never hit and
// are not cached. With 8-byte lines A hits 1 of 2, not more than half: nothing
// is cached.
TEST_P(Sl1MoreAppsTest, MatrixMultiply) {
  for (const std::string& variant : kSlicedVariants) {
    for (const std::string line : {"8", "16", "24"}) {
      std::map<std::string, std::string> params;
      if (variant == "sl1") params["line_bytes"] = line;
      EXPECT_EQ(run(variant, "matrix-multiply", matrices(37, 19, 23), params).validation, "")
          << variant << line;
    }
  }
  const PointRun square = run("sl1", "matrix-multiply", generate("matrix-f32", 8 * 40 * 40));
  EXPECT_EQ(square.validation, "");

  const std::string shaped = matrices(64, 64, 80);
  const PointRun sixteen = run("sl1", "matrix-multiply", shaped);
  EXPECT_EQ(sixteen.validation, "");
  EXPECT_EQ(sixteen.measurement.counters.at("sl1_cached_a"), 1);
  EXPECT_EQ(sixteen.measurement.counters.at("sl1_cached_b"), 0);
  EXPECT_EQ(sixteen.measurement.counters.at("sl1_cached_c"), 0);
  // A line cut by the end of the monitoring adds a miss or so per thread.
  EXPECT_NEAR(sixteen.measurement.counters.at("sl1_hit_rate_a"), 0.75, 0.01);
  const PointRun eight = run("sl1", "matrix-multiply", shaped, {{"line_bytes", "8"}});
  EXPECT_EQ(eight.validation, "");
  EXPECT_EQ(eight.measurement.counters.at("sl1_cached_a"), 0);

  EXPECT_EQ(run("sl1", "matrix-multiply", "").validation, "");
  EXPECT_THROW(run("sl1", "matrix-multiply", "not a .npy file"), RunError);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Sl1MoreAppsTest);
INSTANTIATE_TEST_SUITE_P(Backends, Sl1MoreAppsTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
