// The runner validates every run and keeps every measured point on disk: a
// variant that returns a wrong answer, or throws, fails its point only.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "frameworks/cpu/cpu_runtime.h"
#include "harness/core/errors.h"
#include "harness/runner/runner.h"

namespace harness {
namespace {

namespace fs = std::filesystem;

// Wraps the CPU runtime and adds one to the count of the first key: a wrong answer.
class OffByOne final : public mapreduce::Runtime {
 public:
  mapreduce::RunResult run(const apps::MapReduceApp& app, const std::uint8_t* in,
                           std::size_t n) override {
    mapreduce::RunResult r = inner_->run(app, in, n);
    if (!r.output.empty())
      r.output.front().second[0] = static_cast<char>(r.output.front().second[0] + 1);
    return r;
  }
  std::unique_ptr<mapreduce::Runtime> inner_ = cpu::make_wordcount(cpu::Options{1});
};

class Throws final : public mapreduce::Runtime {
 public:
  mapreduce::RunResult run(const apps::MapReduceApp&, const std::uint8_t*, std::size_t) override {
    throw DeviceOutOfMemory("out of device memory: simulated");
  }
};

void register_test_variants() {
  static bool done = false;
  if (done) return;
  done = true;
  register_all();
  auto add = [](const char* name, mapreduce::RuntimeFactory make) {
    VariantInfo v;
    v.framework = "test";
    v.name = name;
    v.description = "test-only";
    v.backends = {backend::Kind::cpu};
    v.apps = {"wordcount"};
    v.make = mapreduce::point_factory(std::move(make));
    Registry::instance().add_variant(std::move(v));
  };
  add("off-by-one", [](const PointContext&) { return std::make_unique<OffByOne>(); });
  add("throws", [](const PointContext&) { return std::make_unique<Throws>(); });
}

class RunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    register_test_variants();
    dir_ = fs::temp_directory_path() / ("harness-runner-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  nlohmann::json read(const fs::path& p) {
    std::ifstream in(p);
    return nlohmann::json::parse(in);
  }
  fs::path dir_;
};

TEST_F(RunnerTest, WrongResultFailsThePoint) {
  SinglePoint sp;
  sp.framework = "test";
  sp.variant = "off-by-one";
  sp.app = "wordcount";
  sp.dataset = "text-zipf";
  sp.size = "64KiB";
  sp.reps = 2;
  sp.data_dir = dir_ / "data";
  sp.out_path = dir_ / "single.json";
  RunSummary s = run_single(sp);
  EXPECT_EQ(s.failed, 1);
  EXPECT_EQ(s.exit_code(), 1);
  nlohmann::json doc = read(sp.out_path);
  const auto& p = doc["points"][0];
  EXPECT_EQ(p["status"], "failed");
  EXPECT_EQ(p["validation"]["status"], "failed");
  EXPECT_NE(p["validation"]["message"].get<std::string>().find("expected"), std::string::npos);
  EXPECT_EQ(p["repetitions"][0]["validation"], "failed");
  EXPECT_TRUE(doc["complete"].get<bool>());
}

TEST_F(RunnerTest, FailingPointsDoNotLoseMeasuredOnes) {
  const char* spec = R"({
    "id": "test.mixed", "title": "t", "seed": "-", "claim": "-", "verdict_rule": "-",
    "verdict": {"kind": "all_valid"}, "dataset": "text-zipf",
    "runs": [{"framework": "cpu", "variants": ["default"], "apps": ["wordcount"]},
             {"framework": "test", "variants": ["throws", "off-by-one"], "apps": ["wordcount"]}],
    "sizes": {"ci": ["32KiB", "64KiB"], "gpu": ["1MiB"], "paper": ["1MiB"]},
    "reps": {"ci": 2, "gpu": 2, "paper": 2}})";
  Experiment e = parse_experiment(spec, "inline");
  RunOptions o;
  o.preset = "ci";
  o.backend = backend::Kind::cpu;
  o.out_path = dir_ / "mixed.json";
  o.data_dir = dir_ / "data";
  RunSummary s = run_experiment(e, o);
  EXPECT_EQ(s.points, 6);
  EXPECT_EQ(s.ok, 2);
  EXPECT_EQ(s.failed, 2);
  EXPECT_EQ(s.errors, 2);
  nlohmann::json doc = read(o.out_path);
  ASSERT_EQ(doc["points"].size(), 6u);
  int ok = 0;
  for (const auto& p : doc["points"]) {
    if (p["variant"] == "throws") {
      EXPECT_EQ(p["status"], "error");
      EXPECT_NE(p["error"].get<std::string>().find("simulated"), std::string::npos);
    }
    if (p["status"] == "ok") {
      ++ok;
      EXPECT_EQ(p["repetitions"].size(), 2u);
      EXPECT_GT(p["summary"]["total_ms"]["median"].get<double>(), 0.0);
    }
  }
  EXPECT_EQ(ok, 2);
}

TEST_F(RunnerTest, MalformedSpecsAreUsageErrors) {
  EXPECT_THROW(parse_experiment("{not json", "x"), UsageError);
  EXPECT_THROW(parse_experiment(R"({"id": "x"})", "x"), UsageError);
  const std::string base =
      R"({"id": "x", "title": "t", "seed": "-", "claim": "-", "verdict_rule": "-",
    "verdict": {"kind": "all_valid"}, "dataset": "text-zipf", "sizes": {"ci": ["1KiB"], "gpu": ["1KiB"], "paper": ["1KiB"]},
    "reps": {"ci": 1, "gpu": 1, "paper": 1}, "runs": )";
  EXPECT_NO_THROW(parse_experiment(
      base + R"([{"framework": "cpu", "variants": ["default"], "apps": ["wordcount"]}]})", "x"));
  EXPECT_THROW(
      parse_experiment(
          base + R"([{"framework": "nope", "variants": ["default"], "apps": ["wordcount"]}]})",
          "x"),
      UsageError);
  EXPECT_THROW(
      parse_experiment(
          base + R"([{"framework": "mars", "variants": ["nope"], "apps": ["wordcount"]}]})", "x"),
      UsageError);
  EXPECT_THROW(
      parse_experiment(
          base + R"([{"framework": "mars", "variants": ["default"], "apps": ["nope"]}]})", "x"),
      UsageError);
  EXPECT_THROW(
      parse_experiment(
          base +
              R"([{"framework": "mars", "variants": ["default"], "apps": ["wordcount"], "params": {"nope": 1}}]})",
          "x"),
      UsageError);
}

TEST_F(RunnerTest, UnwritableResultsFailBeforeMeasuring) {
  Experiment e = find_experiment("mars.wordcount-smoke");
  RunOptions o;
  o.out_path = "/nonexistent-folder/results.json";
  EXPECT_THROW(run_experiment(e, o), RunError);
}

}  // namespace
}  // namespace harness
