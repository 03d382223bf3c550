// The reduction family: the reference, every variant validated within the
// app's tolerance on every backend present, a too-tight tolerance failing,
// and the skip rule of reduction/tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "frameworks/reduction/reduction.h"
#include "harness/core/errors.h"
#include "harness/runner/runner.h"
#include "harness/suite/register_all.h"

namespace harness {
namespace {

namespace fs = std::filesystem;

TEST(ReductionReference, SumsEachSegmentInDouble) {
  const std::vector<float> v = {1, 2, 3, 4, 0.5f, 0.25f, 1e8f, 1};
  auto sums = reduction::reference_sums(v, 4);
  ASSERT_EQ(sums.size(), 2u);
  EXPECT_EQ(sums[0], 10.0);
  EXPECT_EQ(sums[1], 0.75 + 1e8 + 1);  // exact in double, not in float
}

class ReductionRun : public ::testing::Test {
 protected:
  void SetUp() override {
    register_all();
    dir_ = fs::temp_directory_path() / ("harness-reduction-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  nlohmann::json run(const std::string& variant, backend::Kind kind, Params params) {
    SinglePoint sp;
    sp.framework = "reduction";
    sp.variant = variant;
    sp.app = "segsum";
    sp.dataset = "uniform-f32";
    sp.size = "256KiB";
    sp.backend = kind;
    sp.reps = 2;
    sp.params = std::move(params);
    sp.data_dir = dir_ / "data";
    sp.out_path = dir_ / "point.json";
    sp.dump_output = dir_ / "sums.tsv";
    summary_ = run_single(sp);
    std::ifstream in(sp.out_path);
    return nlohmann::json::parse(in)["points"][0];
  }
  fs::path dir_;
  RunSummary summary_;
};

TEST_F(ReductionRun, EveryVariantValidatesOnEveryBackendPresent) {
  auto p = run("cpu", backend::Kind::cpu, {{"segment", "512"}});
  EXPECT_EQ(p["status"], "ok");
  EXPECT_EQ(p["validation"]["kind"], "tolerance");
  EXPECT_EQ(p["validation"]["tolerance"]["rel"], 1e-4);
  EXPECT_EQ(p["work"]["items"]["elements"], 65536);
  // 65536 values / 512 = 128 segments, one dumped line each.
  std::ifstream dump(dir_ / "sums.tsv");
  int lines = 0;
  for (std::string line; std::getline(dump, line);) ++lines;
  EXPECT_EQ(lines, 128);
  for (backend::Kind kind : backend::compiled_kinds()) {
    if (kind == backend::Kind::cpu || backend::list_devices(kind).empty()) continue;
    auto q = run("tree", kind, {{"segment", "1024"}, {"group_size", "128"}});
    EXPECT_EQ(q["status"], "ok") << backend::kind_name(kind) << ": " << q.dump();
    EXPECT_EQ(q["validation"]["status"], "passed");
    // The declared DRAM traffic of the kernel becomes a rate over its phase.
    bool found = false;
    for (const auto& r : q["rates"]) {
      if (r["name"] == "dram@reduce") {
        found = true;
        EXPECT_EQ(r["over"], "reduce");
        EXPECT_GT(r["value"].get<double>(), 0);
        // A single run with --out measures its device's ceilings, so the rate
        // comes with its fraction of the DRAM ceiling.
        ASSERT_FALSE(r["fraction"].is_null()) << r.dump();
        EXPECT_NEAR(r["fraction"].get<double>(),
                    r["value"].get<double>() / r["ceiling_value"].get<double>(), 1e-12);
      }
    }
    EXPECT_TRUE(found) << q["rates"].dump();
  }
}

TEST_F(ReductionRun, GroupLargerThanSegmentIsSkippedWithItsReason) {
  for (backend::Kind kind : backend::compiled_kinds()) {
    if (kind == backend::Kind::cpu || backend::list_devices(kind).empty()) continue;
    auto p = run("tree", kind, {{"segment", "64"}, {"group_size", "256"}});
    EXPECT_EQ(p["status"], "skipped");
    EXPECT_NE(p["skip_reason"].get<std::string>().find("larger than its segment of 64"),
              std::string::npos);
    EXPECT_EQ(summary_.skipped, 1);
    EXPECT_EQ(summary_.exit_code(), 0);
    return;
  }
  GTEST_SKIP() << "no kernel backend device";
}

TEST_F(ReductionRun, TooTightAToleranceFailsThePointNamingTheFirstDifferences) {
  const char* spec = R"({
    "id": "test.tight", "title": "t", "seed": "-", "claim": "-", "verdict_rule": "-",
    "verdict": {"kind": "all_valid"}, "dataset": "uniform-f32",
    "runs": [{"framework": "reduction", "variants": ["cpu"], "apps": ["segsum"],
              "params": {"segment": "16384"}}],
    "validation": {"kind": "tolerance", "rel": 1e-12},
    "sizes": {"ci": ["1MiB"], "gpu": ["1MiB"], "paper": ["1MiB"]},
    "reps": {"ci": 1, "gpu": 1, "paper": 1}})";
  RunOptions o;
  o.out_path = dir_ / "tight.json";
  o.data_dir = dir_ / "data";
  RunSummary s = run_experiment(parse_experiment(spec, "inline"), o);
  EXPECT_EQ(s.failed, 1);
  std::ifstream in(o.out_path);
  auto p = nlohmann::json::parse(in)["points"][0];
  EXPECT_EQ(p["status"], "failed");
  const std::string msg = p["validation"]["message"];
  EXPECT_NE(msg.find("outside rel 1e-12"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[0] expected"), std::string::npos) << msg;
}

}  // namespace
}  // namespace harness
