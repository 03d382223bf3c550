#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "harness/core/compare.h"
#include "harness/core/errors.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

class CompareTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("harness_compare_") + info->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }

  static json point(const std::string& key, const std::vector<double>& total,
                    const std::vector<double>& map) {
    json reps = json::array();
    for (std::size_t i = 0; i < total.size(); ++i) {
      reps.push_back({{"total_ms", total[i]},
                      {"phases_ms", {{"map", map[i]}, {"copy_in", 0.1}}},
                      {"validation", "passed"}});
    }
    return {{"key", key}, {"status", "ok"}, {"repetitions", reps}};
  }

  static std::string document(const json& points) {
    return json{{"schema_version", 1},
                {"experiment", {{"id", "test.compare"}}},
                {"environment", {{"git_sha", "abc123"}, {"host", {{"hostname", "box"}}}}},
                {"complete", true},
                {"points", points}}
        .dump(2);
  }

  fs::path dir_;
};

}  // namespace

TEST_F(CompareTest, PrintsRatioAndUnmatchedPoints) {
  const std::vector<double> slow = {2.00, 2.02, 1.98, 2.01, 1.99, 2.03, 1.97};
  const std::vector<double> fast = {1.00, 1.01, 0.99, 1.005, 0.995, 1.015, 0.985};
  const std::string a =
      write("a.json", document(json::array({point("mars/default/wc/cuda:0/text/4MiB", slow, slow),
                                            point("only/in/a", slow, slow)})));
  const std::string b =
      write("b.json", document(json::array({point("mars/default/wc/cuda:0/text/4MiB", fast, fast),
                                            point("only/in/b", fast, fast)})));
  std::ostringstream out;
  EXPECT_EQ(harness::compare_results(a, b, "total_ms", out), 0);
  const std::string text = out.str();
  SCOPED_TRACE(text);
  EXPECT_NE(text.find("mars/default/wc/cuda:0/text/4MiB"), std::string::npos);
  EXPECT_NE(text.find("2.00x"), std::string::npos);   // speedup A/B
  EXPECT_NE(text.find("0.50"), std::string::npos);    // time ratio B/A
  EXPECT_NE(text.find("faster"), std::string::npos);  // p < 0.05 with 7 + 7 separated samples
  EXPECT_NE(text.find("Only in A"), std::string::npos);
  EXPECT_NE(text.find("only/in/a"), std::string::npos);
  EXPECT_NE(text.find("Only in B"), std::string::npos);
  EXPECT_NE(text.find("only/in/b"), std::string::npos);
}

TEST_F(CompareTest, PhaseMetric) {
  const std::vector<double> total = {3.0, 3.0, 3.0};
  const std::string a =
      write("a.json", document(json::array({point("k", total, {1.0, 1.0, 1.0})})));
  const std::string b =
      write("b.json", document(json::array({point("k", total, {4.0, 4.0, 4.0})})));
  std::ostringstream out;
  harness::compare_results(a, b, "map", out);
  const std::string text = out.str();
  SCOPED_TRACE(text);
  EXPECT_NE(text.find("4.00"), std::string::npos);   // B/A on the map phase
  EXPECT_NE(text.find("0.25x"), std::string::npos);  // speedup A/B
  std::ostringstream unused;
  EXPECT_THROW(harness::compare_results(a, b, "no_such_phase", unused), harness::UsageError);
}

TEST_F(CompareTest, MalformedFileThrowsUsageError) {
  const std::string good = write("good.json", document(json::array({point("k", {1.0}, {1.0})})));
  const std::string bad = write("bad.json", "{ \"schema_version\": 1, \"points\": [ ");
  std::ostringstream out;
  try {
    harness::compare_results(good, bad, "total_ms", out);
    FAIL() << "expected UsageError";
  } catch (const harness::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
  }
  EXPECT_THROW(harness::compare_results((dir_ / "missing.json").string(), good, "total_ms", out),
               harness::UsageError);
  const std::string no_version = write("nov.json", R"({"points": []})");
  EXPECT_THROW(harness::compare_results(good, no_version, "total_ms", out), harness::UsageError);
  const std::string future = write("future.json", R"({"schema_version": 3, "points": []})");
  EXPECT_THROW(harness::compare_results(future, good, "total_ms", out), harness::UsageError);
}

namespace {
std::string run_compare(const std::vector<std::string>& files, const harness::CompareOptions& o,
                        int expected_status) {
  std::ostringstream out;
  EXPECT_EQ(harness::compare_results(files, o, out), expected_status) << out.str();
  return out.str();
}
}  // namespace

TEST_F(CompareTest, TwoVariantsAcrossFilesMatchOnEverythingElse) {
  // The README's flow: old.json has mars/default, new.json mars/g256; keys never match.
  const std::vector<double> slow = {2.00, 2.02, 1.98, 2.01, 1.99};
  const std::vector<double> fast = {1.00, 1.01, 0.99, 1.005, 0.995};
  const std::string a =
      write("old.json",
            document(json::array({point("mars/default/wc/opencl:0/text-zipf/1MiB", slow, slow),
                                  point("cpu/default/wc/cpu:0/text-zipf/1MiB", slow, slow)})));
  const std::string b =
      write("new.json",
            document(json::array({point("mars/g256/wc/opencl:0/text-zipf/1MiB", fast, fast)})));
  // By key: nothing matches; exit 1, the nearest keys and the --by that matches them.
  std::string text = run_compare({a, b}, {}, 1);
  EXPECT_NE(text.find("No point of A matches a point of B"), std::string::npos) << text;
  EXPECT_NE(text.find("differ in variant mars/default | mars/g256"), std::string::npos) << text;
  EXPECT_NE(text.find("--by variant --a mars/default --b mars/g256"), std::string::npos) << text;
  // By variant: A has two variants, so side A is named; B's one is implied.
  harness::CompareOptions o;
  o.by = "variant";
  o.a = "default";  // without its framework: names both mars/default and cpu/default
  std::ostringstream unused;
  try {
    harness::compare_results({a, b}, o, unused);
    FAIL() << "expected UsageError";
  } catch (const harness::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("names several"), std::string::npos) << e.what();
  }
  o.a = "mars/default";
  o.b = "g256";  // without its framework: the one it names
  text = run_compare({a, b}, o, 0);
  EXPECT_NE(text.find("*/wc/opencl:0/text-zipf/1MiB"), std::string::npos) << text;
  EXPECT_NE(text.find("2.00x"), std::string::npos) << text;
  EXPECT_NE(text.find("1 matched point(s)"), std::string::npos) << text;
  EXPECT_NE(text.find("variant = mars/default"), std::string::npos) << text;
  EXPECT_NE(text.find("variant = mars/g256"), std::string::npos) << text;
  o.a.clear();
  try {
    harness::compare_results({a, b}, o, unused);
    FAIL() << "expected UsageError";
  } catch (const harness::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("(mars/default, cpu/default)"), std::string::npos)
        << e.what();
  }
  o.a = "mars/nope";
  EXPECT_THROW(harness::compare_results({a, b}, o, unused), harness::UsageError);
}

TEST_F(CompareTest, TwoSetsWithinOneFileByAxisOrParameter) {
  const std::vector<double> t128 = {3.0, 3.1, 2.9}, t256 = {1.5, 1.55, 1.45};
  json p128 = point("mars/default/wc/opencl:0/text-zipf/1MiB/group_size=128", t128, t128);
  json p256 = point("mars/default/wc/opencl:0/text-zipf/1MiB/group_size=256", t256, t256);
  const std::string f = write("one.json", document(json::array({p128, p256})));
  harness::CompareOptions o;
  o.by = "group_size";
  o.a = "128";
  o.b = "256";
  std::string text = run_compare({f}, o, 0);
  EXPECT_NE(text.find("mars/default/wc/opencl:0/text-zipf/1MiB/*"), std::string::npos) << text;
  EXPECT_NE(text.find("2.00x"), std::string::npos) << text;
  // The same by a parameter (single runs with --param keep it out of the key).
  p128 = point("k", t128, t128);
  p128["params"] = {{"group_size", "128"}};
  p256 = point("k", t256, t256);
  p256["params"] = {{"group_size", "256"}};
  const std::string a = write("p128.json", document(json::array({p128})));
  const std::string b = write("p256.json", document(json::array({p256})));
  o.a.clear();
  o.b.clear();
  text = run_compare({a, b}, o, 0);
  EXPECT_NE(text.find("2.00x"), std::string::npos) << text;
}

TEST_F(CompareTest, SizesHaveOneSpellingInKeys) {
  const std::vector<double> t = {1.0, 1.0, 1.0};
  const std::string a =
      write("a.json", document(json::array({point("cpu/default/wc/cpu:0/text-zipf/1 MiB", t, t)})));
  const std::string b = write(
      "b.json", document(json::array({point("cpu/default/wc/cpu:0/text-zipf/1048576", t, t)})));
  const std::string text = run_compare({a, b}, {}, 0);
  EXPECT_NE(text.find("cpu/default/wc/cpu:0/text-zipf/1MiB"), std::string::npos) << text;
  EXPECT_NE(text.find("1 matched point(s)"), std::string::npos) << text;
}
