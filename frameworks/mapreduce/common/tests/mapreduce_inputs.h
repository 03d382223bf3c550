// Inputs every MapReduce runtime must get right, per app: edge cases (empty
// input, one record, nothing to emit, one giant key or line longer than a
// work-group's local memory, all keys distinct, all keys equal) plus
// generated data; and the check of one run against the app's reference.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "datasets/dataset.h"
#include "datasets/npy.h"
#include "datasets/text_zipf.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/job_chain.h"
#include "frameworks/mapreduce/common/mapreduce_runtime.h"

namespace harness::testing {

// Every registered MapReduce app, by name (the apps axis of runtime tests).
inline std::vector<std::string> mapreduce_app_names() {
  std::vector<std::string> names;
  for (const apps::MapReduceApp* app : apps::mapreduce_apps()) names.push_back(app->name());
  return names;
}

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

// A float32 .npy array of `shape` holding `values` (cycled to fill it).
inline std::string npy(const std::vector<std::uint64_t>& shape, const std::vector<float>& values) {
  std::uint64_t n = 1;
  for (std::uint64_t d : shape) n *= d;
  std::string out = datasets::npy_header(shape);
  for (std::uint64_t i = 0; i < n; ++i) {
    const float v = values.empty() ? 0.0f : values[i % values.size()];
    out.append(reinterpret_cast<const char*>(&v), 4);
  }
  return out;
}

inline std::vector<MapReduceCase> matrixmult_cases() {
  return {
      {"empty", "", {}},
      {"one_cell", npy({1, 1}, {3}) + npy({1, 1}, {-2}), {}},
      {"rectangular", npy({3, 2}, {1, 2, 3, 4, 5, 6}) + npy({2, 4}, {1, 0, -1, 2, 0.5f, 1}), {}},
      {"inner_dimension_zero", npy({3, 0}, {}) + npy({0, 4}, {}), {}},
      {"stacked_square", npy({2, 5, 5}, {0.25f, 1, 2, 0.5f, 3, 7, 0.125f}), {}},
      {"all_values_equal", npy({2, 17, 17}, {1}), {}},
      {"generated_48", generated("matrix-f32", 8 * 48 * 48, 3), {}},
  };
}

inline std::vector<MapReduceCase> similarity_cases() {
  return {
      {"empty", "", {}},
      {"one_document", npy({1, 8}, {1, 2, 3}), {}},
      {"two_documents", npy({2, 3}, {1, 0, 0, 1, 1, 0}), {}},
      {"zero_vector", npy({3, 4}, {0, 0, 0, 0, 1, 2, 3, 4, 4, 3, 2, 1}), {}},
      {"all_keys_equal", npy({40, 16}, {0.5f}), {}},
      {"generated_150_docs", generated("features-f32", 150 * 512, 3), {}},
  };
}

inline std::vector<MapReduceCase> kmeans_cases() {
  std::vector<float> spread;
  for (int i = 0; i < 64 * 3; ++i) spread.push_back(static_cast<float>((i * 37) % 101));
  return {
      {"empty", "", {}},
      {"one_point", npy({1, 2}, {1.5f, -2}), {{"k", "1"}}},
      {"all_points_equal", npy({500, 3}, {7}), {{"k", "4"}}},
      {"every_point_a_centroid", npy({64, 3}, spread), {{"k", "64"}}},
      {"eight_dimensions", npy({300, 8}, spread), {{"k", "5"}}},
      {"generated_6000_points", generated("points-f32", 6000 * 16, 3), {}},
  };
}

inline std::vector<MapReduceCase> weblog_cases() {
  std::string distinct, equal;
  for (int i = 0; i < 3000; ++i) {
    distinct += "http://h/p" + std::to_string(i % 700) + "\t10.0.0." + std::to_string(i % 250) +
                "\tc" + std::to_string(i) + "\n";
  }
  for (int i = 0; i < 3000; ++i) equal += "http://h/index.html\t1.2.3.4\tcookie\n";
  return {
      {"empty", "", {}},
      {"one_record", "http://a/x.html\t1.2.3.4\tc1", {}},
      {"no_page_views", "no tabs here\n\n\tempty url\t1.1.1.1\n\r\n", {}},
      {"syntax",
       "u\t1.2.3.4\tc\r\nu\t1.2.3.4\tc\nu\t256.1.1.1\tc\nu\tnot-an-ip\nv\t\n"
       "u\t1.2.3.4\tc\t\n w\t1.2.3\tc\n",
       {}},
      {"all_entries_equal", equal, {}},
      {"all_entries_distinct", distinct, {}},
      {"giant_key",
       std::string(70000, 'u') + "\t9.9.9.9\tc\n" + std::string(70000, 'u') + "\t9.9.9.9\td\n",
       {}},
      {"weblog_300KB", generated("weblog", 300000, 3), {}},
  };
}

inline std::vector<MapReduceCase> mapreduce_cases(const std::string& app) {
  if (app == "matrixmult") return matrixmult_cases();
  if (app == "similarity") return similarity_cases();
  if (app == "kmeans") return kmeans_cases();
  if (app == "pageviewcount") return weblog_cases();
  if (app == "pageviewrank") {
    auto cases = weblog_cases();
    cases.push_back({"top_3", generated("weblog", 100000, 5), {{"top", "3"}}});
    return cases;
  }
  if (app == "wordcount") return wordcount_cases();
  if (app == "stringmatch") return stringmatch_cases();
  if (app == "invertedindex") return invertedindex_cases();
  ADD_FAILURE() << "no test inputs for app " << app;
  return {};
}

// Builds the runtime of one job (the app itself for a one-job app).
using JobRuntimes = std::function<std::unique_ptr<mapreduce::Runtime>(const std::string& job)>;

// The app's CPU reference for `text`, in canonical order.
inline apps::KeyValueList reference_output(const apps::MapReduceApp& app, const std::string& text,
                                           const apps::Params& params = {}) {
  apps::KeyValueList expected = app.reference(
      app.resolve_params(params), reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  apps::sort_output(app, expected);
  return expected;
}

// A run's phase names, in order.
inline std::vector<std::string> phase_names(const mapreduce::RunResult& r) {
  std::vector<std::string> names;
  for (const auto& p : r.measurement.phases) names.push_back(p.name);
  return names;
}

// Two lower-case words with the same 32-bit FNV-1a hash (the record hash of
// Mars and of atomicmr/hash's table), found by a birthday search once per
// test binary.
inline std::pair<std::string, std::string> fnv_colliding_words() {
  static const std::pair<std::string, std::string> words = [] {
    std::map<std::uint32_t, std::string> seen;
    for (std::uint32_t i = 0;; ++i) {
      std::string w;
      for (std::uint32_t v = i; w.size() < 6; v /= 26) w += static_cast<char>('a' + v % 26);
      std::uint32_t h = 2166136261u;
      for (char c : w) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
      auto [it, inserted] = seen.emplace(h, w);
      if (!inserted) return std::make_pair(it->second, w);
    }
  }();
  return words;
}

// Runs the app (each job on a runtime from `make`) on every case (twice: the
// second run reuses what the first allocated) and checks each output with the
// app's validation policy, and its canonical order where the comparison is
// exact.
inline void expect_reference(const JobRuntimes& make, const apps::MapReduceApp& app,
                             const std::string& label) {
  mapreduce::JobChain chain(app, make);
  chain.prepare();
  const ValidationPolicy policy = app.validation();
  for (const MapReduceCase& c : mapreduce_cases(app.name())) {
    const auto* data = reinterpret_cast<const std::uint8_t*>(c.text.data());
    const apps::Params params = app.resolve_params(c.params);
    const apps::KeyValueList expected = reference_output(app, c.text, c.params);
    chain.set_app_params(params);
    for (int rep = 0; rep < 2; ++rep) {
      mapreduce::RunResult r = chain.run(data, c.text.size());
      EXPECT_EQ(apps::compare_by_policy(app, expected, r.output, policy), "")
          << label << ", " << app.name() << " on " << c.name << ", run " << rep;
      if (policy.kind != "tolerance") {
        EXPECT_EQ(r.output, expected)
            << "canonical order: " << label << ", " << app.name() << " on " << c.name;
      } else {
        EXPECT_EQ(r.output.size(), expected.size())
            << label << ", " << app.name() << " on " << c.name;
      }
      EXPECT_GT(r.measurement.total_ms, 0.0);
    }
  }
}

}  // namespace harness::testing
