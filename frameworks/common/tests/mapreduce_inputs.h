// Inputs every MapReduce runtime must get right, per app: edge cases (empty
// input, one record, nothing to emit, one giant key or line longer than a
// work-group's local memory, all keys distinct, all keys equal) plus
// generated data; and the check of one run against the app's reference.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "datasets/dataset.h"
#include "datasets/text_zipf.h"
#include "frameworks/apps/registry.h"
#include "frameworks/common/mapreduce_runtime.h"

namespace harness::testing {

struct MapReduceCase {
  std::string name;
  std::string text;
  apps::Params params;  // the app's parameters (empty: defaults)
};

inline std::string generated(const std::string& generator, std::uint64_t size, std::uint64_t seed) {
  std::ostringstream out;
  datasets::find_generator(generator).generate(size, seed, out);
  return std::move(out).str();
}

inline std::vector<MapReduceCase> wordcount_cases() {
  return {
      {"empty", "", {}},
      {"no_words", "1234 5678 ... !!! \n\n\xc3\xa9\xc3\xa9\n", {}},
      {"one_word", "hello", {}},
      {"mixed_case_and_utf8", "Hello, HELLO hello! caf\xc3\xa9 Caf\xc3\xa9; x1y2z3\n", {}},
      {"long_word", std::string(9000, 'q') + " end " + std::string(5000, 'Q') + "\n", {}},
      {"zipf_300KB", generated("text-zipf", 300000, 3), {}},
  };
}

inline std::vector<MapReduceCase> stringmatch_cases() {
  std::string distinct_lines;  // every line holds the pattern once, at a different column
  for (int i = 0; i < 3000; ++i) distinct_lines += std::string(i % 50, '.') + "needle\n";
  const std::string zipf = generated("text-zipf", 300000, 3);
  const std::vector<std::string> vocabulary = datasets::text_zipf_vocabulary(3);
  return {
      {"empty", "", {}},
      {"one_record", "xxgloxx glo", {}},
      {"no_matches", "abc\ndef GLO gl o\n\n", {}},
      {"overlapping", "aaaa\naaa\nbaab\n", {{"pattern", "aa"}}},
      {"all_equal_every_byte",
       std::string(20000, 'a') + "\n" + std::string(777, 'a'),
       {{"pattern", "a"}}},
      {"giant_key",
       std::string(70002, 'x') + "\n" + std::string(69999, 'x') + "\n",
       {{"pattern", std::string(70000, 'x')}}},
      {"giant_line",
       [] {
         std::string s;
         for (int i = 0; i < 20000; ++i) s += i % 97 == 0 ? "needle " : "hay ";
         return s + "\n";
       }(),
       {{"pattern", "needle"}}},
      {"many_lines", distinct_lines, {{"pattern", "needle"}}},
      {"utf8_pattern",
       "caf\xc3\xa9 Caf\xc3\xa9 caf\xc3\xa9\xc3\xa9\n",
       {{"pattern", "caf\xc3\xa9"}}},
      {"zipf_300KB_frequent", zipf, {{"pattern", vocabulary[2]}}},
      {"zipf_300KB_rare", zipf, {{"pattern", vocabulary[700]}}},
  };
}

inline std::vector<MapReduceCase> invertedindex_cases() {
  std::string distinct, equal;
  for (int i = 0; i < 2000; ++i) {
    if (i % 100 == 0) distinct += "<!-- page: " + std::to_string(i) + " -->\n";
    distinct += "<p><a href=\"page" + std::to_string(i) + ".html\">x</a></p>\n";
  }
  for (int i = 0; i < 3000; ++i) {
    if (i % 7 == 0) equal += "<!-- page: p -->\n";
    equal += "<a href='index.html'>home</a> <A HREF=index.html>HOME</A>\n";
  }
  return {
      {"empty", "", {}},
      {"one_record", "<a href=\"x.html\">x</a>", {}},
      {"no_links",
       "<!-- page: a -->\n<link href=\"s.css\"><abbr title=\"t\">T</abbr>\n"
       "<area href=\"m.html\"><a name=\"n\">x</a> &lt;a href=\"e.html\"&gt;\n"
       "<a data-href=\"d.html\">d</a> <a\nhref=\"split.html\">\n",
       {}},
      {"syntax",
       "<!-- page: syntax -->\n"
       "<a href=\"dq.html\"> <a href='sq.html'> <a href=uq.html> <A HREF=\"up.html\">\n"
       "<a\thref = \"tab.html\"> <a class=\"c\" title='t' href=\"after.html\">\n"
       "<a href=\"first.html\" href=\"second.html\"> <a href=\"\">empty</a>\n"
       "<a href=\"open.html\" title=\"never closed> <a href='lost.html'>\n"
       "<a title=\"x\" href=\"end-of-line.html\"\r\n"
       "text <a href=\"two.html\">2</a> more <a hReF=mixed.html/>\n",
       {}},
      {"giant_key",
       "<!-- page: big -->\n<a href=\"" + std::string(100000, 'k') + "\">big</a>\n",
       {}},
      {"all_keys_distinct", distinct, {}},
      {"all_keys_equal", equal, {}},
      {"html_zipf_300KB", generated("html-zipf", 300000, 3), {}},
  };
}

inline std::vector<MapReduceCase> mapreduce_cases(const std::string& app) {
  if (app == "wordcount") return wordcount_cases();
  if (app == "stringmatch") return stringmatch_cases();
  if (app == "invertedindex") return invertedindex_cases();
  ADD_FAILURE() << "no test inputs for app " << app;
  return {};
}

// Runs `runtime` on every case of `app` (twice: the second run reuses what the
// first allocated) and checks each output with the app's validation kind.
inline void expect_reference(mapreduce::Runtime& runtime, const apps::MapReduceApp& app,
                             const std::string& label) {
  runtime.prepare(app);
  for (const MapReduceCase& c : mapreduce_cases(app.name())) {
    const auto* data = reinterpret_cast<const std::uint8_t*>(c.text.data());
    const apps::Params params = app.resolve_params(c.params);
    apps::KeyValueList expected = app.reference(params, data, c.text.size());
    apps::sort_output(app, expected);
    runtime.set_app_params(params);
    for (int rep = 0; rep < 2; ++rep) {
      mapreduce::RunResult r = runtime.run(app, data, c.text.size());
      const std::string diff = app.validation().kind == "set"
                                   ? apps::compare_output_sets(app, expected, r.output)
                                   : apps::compare_outputs(app, expected, r.output);
      EXPECT_EQ(diff, "") << label << ", " << app.name() << " on " << c.name << ", run " << rep;
      EXPECT_EQ(r.output, expected)
          << "canonical order: " << label << ", " << app.name() << " on " << c.name;
      EXPECT_GT(r.measurement.total_ms, 0.0);
    }
  }
}

}  // namespace harness::testing
