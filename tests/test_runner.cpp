// The runner validates every run and keeps every measured point on disk: a
// variant that returns a wrong answer, or throws, fails its point only.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "frameworks/mapreduce/cpu/cpu_runtime.h"
#include "harness/core/errors.h"
#include "harness/runner/runner.h"
#include "harness/suite/register_all.h"

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

// Counts the calls the runner makes; total time grows by 1 ms per run unless
// `steady`, and each repetition reports counters of its own.
class CountingPoint final : public PointRunner {
 public:
  CountingPoint(const PointContext& ctx, bool steady)
      : steady_(steady), devices_(ctx.devices.size()) {}
  void prepare() override {}
  void before_repetition() override { ++before_; }
  Measurement run_once() override {
    Measurement m;
    ++runs_;
    m.total_ms = steady_ ? 1.0 : runs_;
    m.counters["run"] = runs_;
    m.counters["before"] = before_;
    m.counters["devices"] = static_cast<double>(devices_);
    return m;
  }
  std::string validate_last() override { return ""; }
  Work work() const override {
    Work w;
    w.items("runs", static_cast<std::uint64_t>(runs_));
    return w;
  }
  void dump_output(std::ostream& out) const override { out << runs_ << "\n"; }

 private:
  bool steady_;
  std::size_t devices_;
  int before_ = 0, runs_ = 0;
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
  auto counting = [](const char* name, bool steady) {
    VariantInfo v;
    v.framework = "test";
    v.name = name;
    v.description = "test-only";
    v.backends = {backend::Kind::cpu};
    v.apps = {"wordcount"};
    v.params = {int_param("a", 1, -1000, 1000, "test knob a"),
                int_param("b", 1, -1000, 1000, "test knob b")};
    v.skip = [](const PointContext& ctx) -> std::string {
      return std::stoi(ctx.params.at("a")) > std::stoi(ctx.params.at("b")) ? "a exceeds b" : "";
    };
    v.make = [steady](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
      return std::make_unique<CountingPoint>(ctx, steady);
    };
    return v;
  };
  AppInfo with_params;
  with_params.name = "test-app";
  with_params.kind = "test";
  with_params.params = {string_param("pattern", "abc", "test pattern")};
  Registry::instance().add_app(with_params);
  VariantInfo counting_both = counting("counting", false);
  counting_both.apps.push_back("test-app");
  Registry::instance().add_variant(std::move(counting_both));
  Registry::instance().add_variant(counting("steady", true));
  VariantInfo several = counting("several-devices", true);
  several.backends = {backend::Kind::opencl};
  several.params = {int_param("gpus", 1, 1, 1000, "GPUs of the point")};
  several.skip = nullptr;
  several.devices.count_param = "gpus";
  several.devices.with_host = true;
  Registry::instance().add_variant(std::move(several));
}

std::string spec_with(const std::string& runs_and_more) {
  return R"({"id": "test.core", "title": "t", "seed": "-", "claim": "-", "verdict_rule": "-",
    "verdict": {"kind": "all_valid"}, "dataset": "text-zipf",
    "sizes": {"ci": ["1KiB"], "gpu": ["1KiB"], "paper": ["1KiB"]},
    "reps": {"ci": 2, "gpu": 2, "paper": 2}, )" +
         runs_and_more + "}";
}

// A spec of `runs` over text-zipf at the ci sizes `ci_sizes` (a JSON list).
std::string sized_spec(const std::string& id, const std::string& runs,
                       const std::string& ci_sizes) {
  return R"({"id": ")" + id + R"(", "title": "t", "seed": "-", "claim": "-", "verdict_rule": "-",
    "verdict": {"kind": "all_valid"}, "dataset": "text-zipf", "runs": )" +
         runs + R"(, "sizes": {"ci": )" + ci_sizes +
         R"(, "gpu": ["1MiB"], "paper": ["1MiB"]}, "reps": {"ci": 2, "gpu": 2, "paper": 2}})";
}

void expect_counts(const RunSummary& s, int points, int ok, int failed, int errors) {
  EXPECT_EQ(s.points, points);
  EXPECT_EQ(s.ok, ok);
  EXPECT_EQ(s.failed, failed);
  EXPECT_EQ(s.errors, errors);
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
  // A ci run on the cpu backend into dir_ / `file`, datasets in dir_ / data.
  RunOptions cpu_ci_options(const std::string& file) {
    RunOptions o;
    o.preset = "ci";
    o.backend = backend::Kind::cpu;
    o.out_path = dir_ / file;
    o.data_dir = dir_ / "data";
    return o;
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
  const std::string spec =
      sized_spec("test.mixed",
                 R"([{"framework": "cpu", "variants": ["default"], "apps": ["wordcount"]},
          {"framework": "test", "variants": ["throws", "off-by-one"], "apps": ["wordcount"]}])",
                 R"(["32KiB", "64KiB"])");
  Experiment e = parse_experiment(spec, "inline");
  RunOptions o = cpu_ci_options("mixed.json");
  RunSummary s = run_experiment(e, o);
  expect_counts(s, 6, 2, 2, 2);
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

// An input that cannot be made (900 TiB: more than any dataset folder holds)
// fails its own points with the cause; the sizes before and after it run.
TEST_F(RunnerTest, AnInputThatCannotBeMadeFailsOnlyItsPoints) {
  const std::string spec = sized_spec(
      "test.too-large", R"([{"framework": "cpu", "variants": ["default"], "apps": ["wordcount"]}])",
      R"(["32KiB", "900TiB", "64KiB"])");
  Experiment e = parse_experiment(spec, "inline");
  RunOptions o = cpu_ci_options("too-large.json");
  RunSummary s = run_experiment(e, o);
  expect_counts(s, 3, 2, 0, 1);
  EXPECT_EQ(s.exit_code(), 1);
  nlohmann::json doc = read(o.out_path);
  ASSERT_EQ(doc["points"].size(), 3u);
  EXPECT_TRUE(doc["complete"].get<bool>());
  for (const auto& p : doc["points"]) {
    const std::string label = p["dataset"]["label"];
    if (label == "900TiB") {
      EXPECT_EQ(p["status"], "error");
      EXPECT_NE(p["error"].get<std::string>().find("does not fit the dataset cache folder"),
                std::string::npos)
          << p["error"];
      EXPECT_EQ(p["validation"]["status"], "not_run");
    } else {
      EXPECT_EQ(p["status"], "ok") << label;
      EXPECT_EQ(p["validation"]["status"], "passed") << label;
    }
  }
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

// app_datasets: an app of its own input and sizes beside the experiment's.
TEST_F(RunnerTest, AppDatasetsGiveAnAppItsOwnInputAndAreChecked) {
  const auto spec = [](const std::string& app_datasets) {
    return R"({"id": "test.apps", "title": "t", "seed": "-", "claim": "-", "verdict_rule": "-",
      "verdict": {"kind": "all_valid"}, "dataset": "text-zipf",
      "runs": [{"framework": "cpu", "variants": ["default"], "apps": ["wordcount", "stringmatch"]}],
      "sizes": {"ci": ["16KiB"], "gpu": ["16KiB"], "paper": ["16KiB"]},
      "reps": {"ci": 1, "gpu": 1, "paper": 1}, "app_datasets": )" +
           app_datasets + "}";
  };
  const std::string good =
      R"({"stringmatch": {"dataset": "html-zipf", "sizes": {"ci": ["8KiB", "32KiB"], "gpu": ["1MiB"], "paper": ["1MiB"]}}})";
  Experiment e = parse_experiment(spec(good), "inline");
  RunOptions o = cpu_ci_options("apps.json");
  EXPECT_EQ(run_experiment(e, o).ok, 3);
  std::vector<std::string> seen;
  const nlohmann::json doc = read(o.out_path);
  for (const auto& p : doc["points"]) {
    seen.push_back(p["app"].get<std::string>() + "@" +
                   p["dataset"]["generator"].get<std::string>() + "/" +
                   p["dataset"]["label"].get<std::string>());
  }
  EXPECT_EQ(seen,
            (std::vector<std::string>{"wordcount@text-zipf/16KiB", "stringmatch@html-zipf/8KiB",
                                      "stringmatch@html-zipf/32KiB"}));
  for (
      const char* bad :
      {R"({"invertedindex": {"dataset": "html-zipf", "sizes": {"ci": ["1KiB"], "gpu": ["1KiB"], "paper": ["1KiB"]}}})",
       R"({"stringmatch": {"dataset": "html-zipf", "sizes": {"ci": ["1KiB"], "gpu": ["1KiB"]}}})",
       R"({"stringmatch": {"dataset": "nope", "sizes": {"ci": ["1KiB"], "gpu": ["1KiB"], "paper": ["1KiB"]}}})",
       R"({"stringmatch": {"dataset": "html-zipf", "sizes": {"ci": ["1 potato"], "gpu": ["1KiB"], "paper": ["1KiB"]}}})",
       R"({"stringmatch": "html-zipf"})"}) {
    EXPECT_THROW(parse_experiment(spec(bad), "inline"), UsageError) << bad;
  }
}

TEST_F(RunnerTest, TwoAxesExpandWithASkippedCombination) {
  Experiment e = parse_experiment(
      spec_with(R"("runs": [{"framework": "test", "variants": ["counting"], "apps": ["wordcount"]},
                            {"framework": "cpu", "variants": ["default"], "apps": ["wordcount"]}],
                  "axes": {"a": [1, 2], "b": {"ci": {"pow2": [1, 2]}, "gpu": [1], "paper": [1]}})"),
      "inline");
  RunOptions o;
  o.out_path = dir_ / "axes.json";
  o.data_dir = dir_ / "data";
  RunSummary s = run_experiment(e, o);
  // counting: a x b = 4 combinations, (a=2, b=1) skipped; cpu has neither axis: one point.
  EXPECT_EQ(s.points, 5);
  EXPECT_EQ(s.ok, 4);
  EXPECT_EQ(s.skipped, 1);
  EXPECT_EQ(s.exit_code(), 0);
  nlohmann::json doc = read(o.out_path);
  EXPECT_EQ(doc["schema_version"], 2);
  EXPECT_EQ(doc["experiment"]["axes"]["b"], nlohmann::json({"1", "2"}));
  std::set<std::string> keys;
  for (const auto& p : doc["points"]) {
    keys.insert(p["key"].get<std::string>());
    if (p["status"] == "skipped") {
      EXPECT_EQ(p["skip_reason"], "a exceeds b");
      EXPECT_EQ(p["axes"], nlohmann::json({{"a", "2"}, {"b", "1"}}));
      EXPECT_EQ(p["validation"]["status"], "skipped");
      EXPECT_TRUE(p["repetitions"].empty());
    }
  }
  EXPECT_EQ(keys.size(), 5u);
  EXPECT_TRUE(keys.count("test/counting/wordcount/cpu:0/text-zipf/1KiB/a=1/b=2"));
  EXPECT_TRUE(keys.count("cpu/default/wordcount/cpu:0/text-zipf/1KiB"));
}

TEST_F(RunnerTest, AppParametersAreGivenLikeAVariantsAndCanBeSwept) {
  Experiment e = parse_experiment(
      spec_with(R"("runs": [{"framework": "test", "variants": ["counting"], "apps": ["test-app"]}],
                  "axes": {"pattern": ["x", "yz"]})"),
      "inline");
  RunOptions o;
  o.out_path = dir_ / "app-params.json";
  o.data_dir = dir_ / "data";
  EXPECT_EQ(run_experiment(e, o).ok, 2);
  std::set<std::string> patterns;
  const nlohmann::json doc = read(o.out_path);
  for (const auto& p : doc["points"]) {
    patterns.insert(p["params"]["pattern"].get<std::string>());
    EXPECT_EQ(p["params"]["a"], "1");  // the variant's own knobs are there too
  }
  EXPECT_EQ(patterns, (std::set<std::string>{"x", "yz"}));
  // A single run takes --param for the app; an unknown name is still refused.
  SinglePoint sp;
  sp.framework = "test";
  sp.variant = "counting";
  sp.app = "test-app";
  sp.dataset = "text-zipf";
  sp.size = "1KiB";
  sp.data_dir = dir_ / "data";
  sp.params = {{"pattern", "q"}};
  EXPECT_EQ(run_single(sp).ok, 1);
  sp.params = {{"nope", "q"}};
  EXPECT_THROW(run_single(sp), UsageError);
}

// A dataset with parameters (kv-pairs): an axis that names one gives each
// value its own input, "dataset_params" ties another to the sizes; the points
// are keyed by the axis and record every parameter of their input.
std::string kv_spec(const std::string& more) {
  return R"({"id": "test.kv", "title": "t", "seed": "-", "claim": "-", "verdict_rule": "-",
    "verdict": {"kind": "all_valid"}, "dataset": "kv-pairs",
    "runs": [{"framework": "test", "variants": ["counting"], "apps": ["wordcount"]}],
    "sizes": {"ci": ["1KiB", "2KiB"], "gpu": ["1KiB"], "paper": ["1KiB"]},
    "reps": {"ci": 1, "gpu": 1, "paper": 1})" +
         more + "}";
}

TEST_F(RunnerTest, DatasetParametersComeFromAxesAndTheSizes) {
  Experiment e = parse_experiment(kv_spec(R"(, "axes": {"key_bytes": [4, 8]},
                 "dataset_params": {"duplicates": {"ci": [3, 7], "gpu": [3], "paper": [3]}})"),
                                  "inline");
  ASSERT_EQ(e.axes.size(), 1u);
  EXPECT_TRUE(e.axes[0].of_dataset);
  EXPECT_EQ(e.dataset_params.at("duplicates").at("ci"), (std::vector<std::string>{"3", "7"}));
  EXPECT_EQ(e.dataset_params.at("duplicates").at("full"), (std::vector<std::string>{"3"}));
  RunOptions o;
  o.out_path = dir_ / "kv.json";
  o.data_dir = dir_ / "data";
  EXPECT_EQ(run_experiment(e, o).ok, 4);
  const nlohmann::json doc = read(o.out_path);
  std::set<std::string> keys, checksums;
  for (const auto& p : doc["points"]) {
    keys.insert(p["key"].get<std::string>());
    checksums.insert(p["dataset"]["checksum"].get<std::string>());
    const nlohmann::json& params = p["dataset"]["params"];
    EXPECT_EQ(params["key_bytes"], p["axes"]["key_bytes"]);
    EXPECT_EQ(params["duplicates"], p["dataset"]["label"] == "1KiB" ? "3" : "7");
    EXPECT_EQ(params["value_bytes"], "16");  // a default
    EXPECT_FALSE(p["params"].contains("key_bytes")) << "not a parameter of the point";
  }
  EXPECT_EQ(checksums.size(), 4u);
  EXPECT_TRUE(keys.count("test/counting/wordcount/cpu:0/kv-pairs/2KiB/key_bytes=8"));
  EXPECT_TRUE(fs::exists(dir_ / "data" /
                         "kv-pairs-v1-duplicates=7-key_bytes=8-value_bytes=16-seed42-2KiB.bin"));
  // A single run takes the dataset's parameters on their own.
  SinglePoint sp;
  sp.framework = "test";
  sp.variant = "counting";
  sp.app = "wordcount";
  sp.dataset = "kv-pairs";
  sp.size = "1KiB";
  sp.data_dir = dir_ / "data";
  sp.dataset_params = {{"value_bytes", "8"}};
  EXPECT_EQ(run_single(sp).ok, 1);
  EXPECT_TRUE(fs::exists(dir_ / "data" /
                         "kv-pairs-v1-duplicates=2-key_bytes=16-value_bytes=8-seed42-1KiB.bin"));
  sp.dataset_params = {{"nope", "8"}};
  EXPECT_THROW(run_single(sp), UsageError);
  sp.dataset_params = {{"value_bytes", "6"}};  // not a multiple of 4
  EXPECT_THROW(run_single(sp), UsageError);
  sp.dataset = "";
  sp.input_path = (dir_ / "kv.json").string();
  sp.dataset_params = {{"value_bytes", "8"}};
  EXPECT_THROW(run_single(sp), UsageError);
}

TEST_F(RunnerTest, DatasetParametersAreChecked) {
  for (
      const char* bad :
      {R"(, "axes": {"key_bytes": [4, 6]})",  // not a multiple of 4
       R"(, "axes": {"key_bytes": [4, 2048]})", R"(, "dataset_params": {"nope": 2})",
       R"(, "dataset_params": {"duplicates": {"ci": [2], "gpu": [2], "paper": [2]}})",  // 2 sizes
       R"(, "dataset_params": {"duplicates": {"ci": [2, 3], "gpu": [2]}})",
       R"(, "dataset_params": {"duplicates": {"ci": [2, 3], "gpu": [2], "paper": [2], "big": [1]}})",
       R"(, "dataset_params": {"duplicates": 0})",
       R"(, "axes": {"duplicates": [2]}, "dataset_params": {"duplicates": 2})"}) {
    EXPECT_THROW(parse_experiment(kv_spec(bad), "x"), UsageError) << bad;
  }
  // One value for every size; a dataset without parameters takes none.
  EXPECT_EQ(parse_experiment(kv_spec(R"(, "dataset_params": {"duplicates": 4})"), "x")
                .dataset_params.at("duplicates")
                .at("ci"),
            (std::vector<std::string>{"4", "4"}));
  const std::string runs =
      R"("runs": [{"framework": "test", "variants": ["counting"], "apps": ["wordcount"]}], )";
  EXPECT_THROW(parse_experiment(spec_with(runs + R"("dataset_params": {"key_bytes": 4})"), "x"),
               UsageError);
  EXPECT_THROW(parse_experiment(spec_with(runs + R"("axes": {"key_bytes": [4]})"), "x"),
               UsageError);
}

TEST_F(RunnerTest, AxesAreChecked) {
  const std::string runs =
      R"("runs": [{"framework": "test", "variants": ["counting"], "apps": ["wordcount"]}], )";
  EXPECT_THROW(parse_experiment(spec_with(runs + R"("axes": {"nope": [1]})"), "x"), UsageError);
  EXPECT_THROW(parse_experiment(spec_with(runs + R"("axes": {"a": {"pow2": [3, 8]}})"), "x"),
               UsageError);
  EXPECT_THROW(parse_experiment(spec_with(runs + R"("axes": {"a": {"ci": [1], "gpu": [1]}})"), "x"),
               UsageError);
  EXPECT_THROW(parse_experiment(spec_with(runs + R"("axes": {"a": []})"), "x"), UsageError);
  EXPECT_THROW(parse_experiment(spec_with(runs + R"("measurement": {"max_reps": 0})"), "x"),
               UsageError);
  EXPECT_THROW(parse_experiment(spec_with(runs + R"("validation": {"kind": "tolerance"})"), "x"),
               UsageError);
  Experiment e = parse_experiment(spec_with(runs + R"("axes": {"a": {"range": [1, 7, 3]}})"), "x");
  EXPECT_EQ(e.axes[0].values.at("ci"), (std::vector<std::string>{"1", "4", "7"}));
}

// `full` is optional: a spec that names it gets its values, one that does not
// gets the gpu preset's (sizes, reps, axes); a misspelt preset is refused.
TEST_F(RunnerTest, TheFullPresetTakesTheGpuValuesUnlessNamed) {
  const std::string runs =
      R"("runs": [{"framework": "test", "variants": ["counting"], "apps": ["wordcount"]}], )";
  Experiment e =
      parse_experiment(spec_with(runs + R"("axes": {"a": {"ci": [1], "gpu": [2], "paper": [3]},
                                   "b": {"ci": [1], "gpu": [2], "full": [5, 6], "paper": [3]}})"),
                       "x");
  EXPECT_EQ(e.axes[0].values.at("full"), (std::vector<std::string>{"2"}));
  EXPECT_EQ(e.axes[1].values.at("full"), (std::vector<std::string>{"5", "6"}));
  EXPECT_EQ(e.sizes.at("full"), e.sizes.at("gpu"));
  EXPECT_EQ(e.reps.at("full"), e.reps.at("gpu"));
  EXPECT_THROW(
      parse_experiment(
          spec_with(runs + R"("axes": {"a": {"ci": [1], "gpu": [2], "fulll": [5], "paper": [3]}})"),
          "x"),
      UsageError);
}

TEST_F(RunnerTest, ARunTakesPartOnlyInThePresetsItNames) {
  Experiment e = parse_experiment(
      spec_with(R"("runs": [{"framework": "test", "variants": ["counting"], "apps": ["wordcount"]},
                            {"framework": "cpu", "variants": ["default"], "apps": ["wordcount"],
                             "presets": ["ci", "full", "paper"]}])"),
      "inline");
  EXPECT_TRUE(e.runs[0].in_preset("gpu"));
  EXPECT_FALSE(e.runs[1].in_preset("gpu"));
  EXPECT_TRUE(e.runs[1].in_preset("full"));
  const auto keys_at = [&](const std::string& preset) {
    RunOptions o;
    o.preset = preset;
    o.out_path = dir_ / ("presets-" + preset + ".json");
    o.data_dir = dir_ / "data";
    EXPECT_EQ(run_experiment(e, o).exit_code(), 0) << preset;
    const nlohmann::json doc = read(o.out_path);
    std::set<std::string> keys;
    for (const auto& p : doc["points"]) keys.insert(p["key"].get<std::string>());
    return keys;
  };
  const std::set<std::string> ci = keys_at("ci");
  EXPECT_EQ(ci.size(), 2u);
  EXPECT_TRUE(ci.count("cpu/default/wordcount/cpu:0/text-zipf/1KiB"));
  // The gpu preset runs the counting variant only (at its own size).
  const std::set<std::string> gpu = keys_at("gpu");
  ASSERT_EQ(gpu.size(), 1u);
  EXPECT_EQ(gpu.begin()->rfind("test/counting/wordcount/", 0), 0u) << *gpu.begin();

  const std::string one = R"("runs": [{"framework": "test", "variants": ["counting"],
                                        "apps": ["wordcount"], "presets": )";
  // An unknown preset, none, and a preset (full) that no run takes part in.
  for (const char* bad : {R"(["gpu", "fast"]}])", R"([]}])", R"(["ci", "gpu", "paper"]}])"}) {
    EXPECT_THROW(parse_experiment(spec_with(one + bad), "x"), UsageError) << bad;
  }
  EXPECT_NO_THROW(parse_experiment(spec_with(one + R"(["ci", "gpu", "full", "paper"]}])"), "x"));
}

nlohmann::json only_point(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in)["points"][0];
}

TEST_F(RunnerTest, MeasurementPolicyStopsForTheReasonItRecords) {
  const std::string runs =
      R"("runs": [{"framework": "test", "variants": ["counting"], "apps": ["wordcount"]}], )";
  RunOptions o;
  o.data_dir = dir_ / "data";
  o.out_path = dir_ / "policy.json";
  // Times 2, 3, 4 ... ms never settle: up to max_reps.
  run_experiment(
      parse_experiment(
          spec_with(runs + R"("measurement": {"max_reps": 6, "target_rel_spread": 1e-9})"), "x"),
      o);
  auto p = only_point(o.out_path);
  EXPECT_EQ(p["measurement"]["stopped"], "max_reps");
  ASSERT_EQ(p["repetitions"].size(), 6u);
  // Counters per repetition (the warm-up was run 1), the point's are their medians;
  // before_repetition ran once before every run, warm-up included.
  EXPECT_EQ(p["repetitions"][0]["counters"]["run"], 2.0);
  EXPECT_EQ(p["repetitions"][5]["counters"]["run"], 7.0);
  EXPECT_EQ(p["repetitions"][5]["counters"]["before"], 7.0);
  EXPECT_EQ(p["counters"]["run"], 4.5);
  EXPECT_EQ(
      nlohmann::json::parse(std::ifstream(o.out_path))["experiment"]["measurement"]["max_reps"], 6);

  // --reps fixes the count.
  o.reps = 3;
  run_experiment(
      parse_experiment(
          spec_with(runs + R"("measurement": {"max_reps": 6, "target_rel_spread": 1e-9})"), "x"),
      o);
  p = only_point(o.out_path);
  EXPECT_EQ(p["measurement"]["stopped"], "min_reps");
  EXPECT_EQ(p["repetitions"].size(), 3u);

  // A time limit ends it after the minimum.
  o.reps.reset();
  run_experiment(parse_experiment(spec_with(runs + R"("measurement": {"max_reps": 100,
      "target_rel_spread": 1e-9, "max_time_s": 1e-6, "warmup": 0})"),
                                  "x"),
                 o);
  p = only_point(o.out_path);
  EXPECT_EQ(p["measurement"]["stopped"], "max_time");
  EXPECT_EQ(p["repetitions"].size(), 2u);
  EXPECT_EQ(p["repetitions"][0]["counters"]["run"], 1.0);  // no warm-up

  // Steady times stop on the spread target at the minimum.
  const std::string steady =
      R"("runs": [{"framework": "test", "variants": ["steady"], "apps": ["wordcount"]}], )";
  run_experiment(parse_experiment(spec_with(steady + R"("measurement": {"max_reps": 50,
      "target_rel_spread": 0.01})"),
                                  "x"),
                 o);
  p = only_point(o.out_path);
  EXPECT_EQ(p["measurement"]["stopped"], "spread");
  EXPECT_EQ(p["repetitions"].size(), 2u);
}

TEST_F(RunnerTest, APointRecordsEveryDeviceItUsesOrIsSkipped) {
  if (backend::list_devices(backend::Kind::opencl).empty()) GTEST_SKIP() << "no OpenCL device";
  const std::string runs =
      R"("runs": [{"framework": "test", "variants": ["several-devices"], "apps": ["wordcount"]}], )";
  RunOptions o;
  o.data_dir = dir_ / "data";
  o.out_path = dir_ / "devices.json";
  o.ceilings = false;
  const int present = static_cast<int>(backend::list_devices(backend::Kind::opencl).size());
  RunSummary s =
      run_experiment(parse_experiment(spec_with(runs + R"("axes": {"gpus": [1, 99]})"), "x"), o);
  EXPECT_EQ(s.ok, 1);
  EXPECT_EQ(s.skipped, 1);
  nlohmann::json doc = read(o.out_path);
  for (const auto& p : doc["points"]) {
    if (p["axes"]["gpus"] == "1") {
      ASSERT_EQ(p["status"], "ok");
      EXPECT_EQ(p["counters"]["devices"], 1.0);  // the GPU-backend devices the point got
      ASSERT_EQ(p["devices"].size(), 2u);        // and the host beside it
      EXPECT_EQ(p["devices"][0]["backend"], "opencl");
      EXPECT_EQ(p["devices"][1]["backend"], "cpu");
    } else {
      EXPECT_EQ(p["status"], "skipped");
      EXPECT_NE(p["skip_reason"].get<std::string>().find("needs 99 opencl devices"),
                std::string::npos)
          << p["skip_reason"] << " (" << present << " present)";
    }
  }
}

TEST_F(RunnerTest, APointMeasuredEarlierInTheRunIsReusedOnlyWhenItsIdentityMatches) {
  auto experiment = [](const std::string& id, int reps, const std::string& b) {
    Experiment e = parse_experiment(
        spec_with(R"("runs": [{"framework": "test", "variants": ["counting"], "apps": ["wordcount"],
                               "params": {"b": ")" +
                  b + R"("}}])"),
        "inline");
    e.id = id;
    e.reps = {{"ci", reps}, {"gpu", reps}, {"paper", reps}};
    return e;
  };
  MeasuredPoints measured;
  RunOptions o;
  o.data_dir = dir_ / "data";
  o.measured = &measured;
  auto point = [&](const Experiment& e) {
    o.out_path = dir_ / (e.id + ".json");
    EXPECT_EQ(run_experiment(e, o).ok, 1);
    return read(o.out_path)["points"][0];
  };
  const nlohmann::json first = point(experiment("test.first", 2, "1"));
  EXPECT_FALSE(first.contains("reused_from"));
  // The same target, input and policies: a copy of the first, naming its experiment.
  const nlohmann::json same = point(experiment("test.same", 2, "1"));
  EXPECT_EQ(same["reused_from"], "test.first");
  EXPECT_EQ(same["repetitions"], first["repetitions"]);
  // Another repetition count or parameter value is measured again (each
  // CountingPoint starts its run counter at one).
  const nlohmann::json more_reps = point(experiment("test.reps", 3, "1"));
  EXPECT_FALSE(more_reps.contains("reused_from"));
  EXPECT_EQ(more_reps["repetitions"].size(), 3u);
  const nlohmann::json other_param = point(experiment("test.param", 2, "2"));
  EXPECT_FALSE(other_param.contains("reused_from"));
  // Without the run's record every point is measured.
  o.measured = nullptr;
  const nlohmann::json alone = point(experiment("test.alone", 2, "1"));
  EXPECT_FALSE(alone.contains("reused_from"));
  EXPECT_EQ(alone["key"], first["key"]);
}

TEST_F(RunnerTest, UnwritableResultsFailBeforeMeasuring) {
  Experiment e = find_experiment("mars.wordcount-smoke");
  RunOptions o;
  o.out_path = "/nonexistent-folder/results.json";
  EXPECT_THROW(run_experiment(e, o), RunError);
}

}  // namespace
}  // namespace harness
