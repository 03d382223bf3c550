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
