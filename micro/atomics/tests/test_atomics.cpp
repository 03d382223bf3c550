// The atomics family: the model's equations, the validation helpers, every
// variant on every app at a tiny size on every kernel backend with a device
// (PoCL in CI): validated, rates positive and finite; the software atomic's
// return values under divergence and with several shared variables; a
// corrupted expectation failing validation; the experiments' specs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "harness/core/errors.h"
#include "harness/runner/experiment.h"
#include "harness/runner/runner.h"
#include "harness/suite/register_all.h"
#include "micro/atomics/atomics.h"

namespace harness {
namespace {

namespace fs = std::filesystem;
using backend::Kind;

TEST(AtomicsModel, EquationsFollowThePaper) {
  atomics::ModelParams p;
  p.t_fast_ns = 2;
  p.t_comp_ns = 8;   // x = 4
  p.t_local_ns = 1;  // x_l = 0.5
  // eq 4: Nc * Ncwg * x * t_fast = 64 * 8 * 4 * 2
  EXPECT_DOUBLE_EQ(atomics::model_system_ns(p, 64, 8), 4096);
  // eq 3: ((2 Nc + Ncwg + Nwg / 2) x_l + 9) t_fast = ((128 + 8 + 4) 0.5 + 9) 2
  EXPECT_DOUBLE_EQ(atomics::model_software_ns(p, 64, 8, 8), 158);
  EXPECT_DOUBLE_EQ(atomics::model_speedup(p, 64, 8, 8), 4096.0 / 158);
  // The speedup grows with the work-groups (section V's conclusion).
  double last = 0;
  for (double g : {2, 4, 8, 16, 32, 64, 128}) {
    const double s = atomics::model_speedup(p, 64, g, g);
    EXPECT_GT(s, last) << g;
    last = s;
  }
}

TEST(AtomicsValidation, OldValuesMustChainToTheFinalValue) {
  // Callers added 3, 5, 1, 2 in the order 2, 0, 3, 1 starting from 10.
  const std::vector<std::uint32_t> incs = {3, 5, 1, 2};
  const std::vector<std::uint32_t> olds = {11, 16, 10, 14};
  EXPECT_EQ(atomics::check_old_values(olds, incs, 10, 21), "");
  EXPECT_NE(atomics::check_old_values(olds, incs, 10, 22).find("holds 22"), std::string::npos);
  EXPECT_NE(atomics::check_old_values({11, 11, 10, 14}, incs, 10, 21).find("do not chain"),
            std::string::npos);
  EXPECT_NE(atomics::check_old_values({11}, incs, 10, 21), "");
  EXPECT_EQ(atomics::check_old_values({}, {}, 5, 5), "");
  // Wrapping past 2^32 is fine while the sum of the increments stays below it.
  EXPECT_EQ(atomics::check_old_values({0xfffffffeu, 0}, {2, 7}, 0xfffffffeu, 7), "");
}

TEST(AtomicsValidation, KeywordsAndTheirPositions) {
  const std::string text = "alpha beta beta gamma gamma gamma, betamax delta";
  EXPECT_EQ(atomics::word_near_count(text, 3), "gamma");
  EXPECT_EQ(atomics::word_near_count(text, 1), "alpha");
  EXPECT_EQ(atomics::find_all(text, "beta"), (std::vector<std::uint32_t>{6, 11, 35}));
  EXPECT_EQ(atomics::find_all("aaaa", "aa"), (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_TRUE(atomics::find_all(text, "zeta").empty());
}

std::vector<Kind> kinds_with_devices() {
  std::vector<Kind> out;
  for (Kind k : backend::compiled_kinds()) {
    if (k != Kind::cpu && !backend::list_devices(k).empty()) out.push_back(k);
  }
  return out;
}

// Every (variant, app) the family registers, with tiny parameters.
struct Case {
  std::string variant, app;
  Params params;
};

std::vector<Case> cases() {
  const Params small = {{"group_size", "64"}, {"groups", "1"}, {"wave", "32"}};
  auto with = [&](Params extra) {
    Params p = small;
    for (auto& [k, v] : extra) p[k] = v;
    return p;
  };
  std::vector<Case> out;
  for (const char* v : {"copy-plain", "copy-never", "copy-thread", "copy-wave"})
    out.push_back({v, "path-copy", with({{"groups", "2"}, {"elements", "10000"}})});
  for (const char* v : {"fig3-atomic", "fig3-memory", "fig3-both", "fig3-ideal"})
    out.push_back({v, "path-fig3", with({{"groups", "3"}})});
  for (const char* v : {"system", "software"}) {
    out.push_back({v, "atomic-add", small});
    out.push_back({v, "atomic-add-mem", small});
    out.push_back({v, "scalar-product", with({{"per_thread", "3"}})});
    out.push_back({v, "keyword-match", with({{"query", "q3"}})});
  }
  for (const char* v : {"system", "wave", "software"}) {
    out.push_back({v, "mm-map", with({{"n", "12"}})});
    out.push_back({v, "kmeans-map", with({{"points", "300"}, {"clusters", "5"}})});
  }
  out.push_back({"model", "atomic-add", small});
  return out;
}

// The software atomic (and the model, which runs it) is refused on CPU
// devices: PoCL does not guarantee forward progress between work-groups.
bool software_refused(const Case& c, Kind kind) {
  if (c.variant != "software" && c.variant != "model") return false;
  std::unique_ptr<backend::Device> device = backend::open_device(kind, 0);
  return device->info().type != "gpu";
}

class AtomicsRun : public ::testing::Test {
 protected:
  void SetUp() override {
    register_all();
    dir_ = fs::temp_directory_path() / ("harness-atomics-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  nlohmann::json run(const Case& c, Kind kind, int reps = 2) {
    SinglePoint sp;
    sp.framework = "atomics";
    sp.variant = c.variant;
    sp.app = c.app;
    sp.dataset = Registry::instance().find_app(c.app).default_dataset;
    sp.size = c.app == "keyword-match" ? "64KiB" : "4KiB";
    sp.backend = kind;
    sp.reps = reps;
    sp.params = c.params;
    sp.data_dir = dir_ / "data";
    if (const char* d = std::getenv("HARNESS_DATA_DIR")) sp.data_dir = d;
    sp.out_path = dir_ / "point.json";
    sp.ceilings = false;
    summary_ = run_single(sp);
    std::ifstream in(sp.out_path);
    return nlohmann::json::parse(in)["points"][0];
  }
  // A runner of `c` on `device`, prepared.
  std::unique_ptr<PointRunner> runner(const Case& c, backend::Device& device,
                                      std::vector<std::uint8_t>* input) {
    const VariantInfo& v = Registry::instance().find_variant("atomics", c.variant);
    PointContext ctx;
    ctx.device = &device;
    ctx.devices = {&device};
    ctx.app = c.app;
    ctx.params = point_defaults(v, Registry::instance().find_app(c.app));
    for (const auto& [k, val] : c.params) ctx.params[k] = val;
    if (c.app == "keyword-match") {
      const std::string text = "the cat sat on the mat with the other cat; cats and the thee ";
      for (int i = 0; i < 200; ++i) input->insert(input->end(), text.begin(), text.end());
      ctx.input = input->data();
      ctx.input_size = input->size();
      ctx.input_checksum = "test";
    }
    std::unique_ptr<PointRunner> r = v.make(ctx);
    r->prepare();
    return r;
  }
  fs::path dir_;
  RunSummary summary_;
};

TEST_F(AtomicsRun, EveryVariantValidatesWithSaneRatesOnEveryBackendPresent) {
  int ran = 0;
  for (Kind kind : kinds_with_devices()) {
    for (const Case& c : cases()) {
      SCOPED_TRACE(c.variant + " " + c.app + " on " + backend::kind_name(kind));
      const nlohmann::json p = run(c, kind);
      if (p["status"] == "skipped" && software_refused(c, kind)) {
        // Refused where forward progress between work-groups does not hold (PoCL).
        EXPECT_NE(p["skip_reason"].get<std::string>().find("forward progress"), std::string::npos)
            << p["skip_reason"];
        continue;
      }
      ASSERT_EQ(p["status"], "ok") << p.dump();
      EXPECT_EQ(p["validation"]["status"], "passed");
      EXPECT_EQ(p["validation"]["kind"], "exact");
      for (const auto& r : p["rates"]) {
        const double v = r["value"].get<double>();
        EXPECT_TRUE(std::isfinite(v) && v > 0) << r.dump();
      }
      EXPECT_FALSE(p["rates"].empty()) << p.dump();
      if (c.variant == "model") {
        for (const char* k : {"t_fast_ns", "t_comp_ns", "t_local_ns", "speedup_measured",
                              "speedup_predicted", "model_rel_error"}) {
          const double v = p["counters"][k].get<double>();
          EXPECT_TRUE(std::isfinite(v) && v >= 0) << k << " = " << v;
        }
      }
      ++ran;
    }
  }
  if (ran == 0) GTEST_SKIP() << "no OpenCL or CUDA device";
}

TEST_F(AtomicsRun, SoftwareAtomicReturnsDistinctValidPrefixesUnderDivergenceAndSeveralVariables) {
  int ran = 0;
  for (Kind kind : kinds_with_devices()) {
    std::unique_ptr<backend::Device> device = backend::open_device(kind, 0);
    for (const char* variant : {"software", "system"}) {
      // 2 wavefronts of 16 per group on 3 variables, every third work-item
      // not adding: wavefronts share variables, some callers are absent.
      for (const char* skip : {"0", "3", "2"}) {
        SCOPED_TRACE(std::string(variant) + " skip_every=" + skip + " on " +
                     backend::kind_name(kind));
        const Case c{variant,
                     "atomic-add-mem",
                     {{"group_size", "64"},
                      {"groups", "1"},
                      {"wave", "16"},
                      {"vars", "3"},
                      {"skip_every", skip}}};
        std::unique_ptr<PointRunner> r;
        try {
          r = runner(c, *device, nullptr);
        } catch (const SkipPoint& e) {
          // Only the software atomic may be refused, and only where forward
          // progress between work-groups is not guaranteed (CPU devices).
          ASSERT_TRUE(software_refused(c, kind)) << e.what();
          EXPECT_NE(std::string(e.what()).find("forward progress"), std::string::npos);
          continue;
        }
        for (int rep = 0; rep < 3; ++rep) {
          r->before_repetition();
          r->run_once();
          // validate_last checks each variable's final value and that the old
          // values of its callers chain from 0 to it (check_old_values).
          EXPECT_EQ(r->validate_last(), "");
        }
        ++ran;
      }
    }
  }
  if (ran == 0) GTEST_SKIP() << "no OpenCL or CUDA device";
}

TEST_F(AtomicsRun, ACorruptedExpectationFailsValidation) {
  int ran = 0;
  for (Kind kind : kinds_with_devices()) {
    std::unique_ptr<backend::Device> device = backend::open_device(kind, 0);
    for (const Case& c : cases()) {
      SCOPED_TRACE(c.variant + " " + c.app + " on " + backend::kind_name(kind));
      std::vector<std::uint8_t> input;
      std::unique_ptr<PointRunner> r;
      try {
        r = runner(c, *device, &input);
      } catch (const SkipPoint& e) {
        ASSERT_TRUE(software_refused(c, kind)) << e.what();
        continue;
      }
      r->before_repetition();
      r->run_once();
      ASSERT_EQ(r->validate_last(), "");
      auto* point = dynamic_cast<atomics::AtomicsPoint*>(r.get());
      ASSERT_NE(point, nullptr);
      EXPECT_GT(point->last_kernel_ms(), 0.0);
      point->corrupt_expected();
      r->before_repetition();
      r->run_once();
      EXPECT_NE(r->validate_last(), "");
      ++ran;
    }
  }
  if (ran == 0) GTEST_SKIP() << "no OpenCL or CUDA device";
}

TEST_F(AtomicsRun, CombinationsThatCannotRunAreSkippedWithTheirReasons) {
  for (Kind kind : kinds_with_devices()) {
    // Not a whole number of wavefronts.
    nlohmann::json p =
        run({"system", "atomic-add", {{"group_size", "48"}, {"wave", "32"}}}, kind, 1);
    EXPECT_EQ(p["status"], "skipped");
    EXPECT_NE(p["skip_reason"].get<std::string>().find("whole number of wavefronts"),
              std::string::npos);
    // More work-groups than can be resident at once: refused with the limit
    // (on a CPU device: refused for want of forward progress; on NVIDIA
    // OpenCL the coordinator's local memory for that many requests runs out
    // first).
    p = run({"software", "atomic-add", {{"group_size", "64"}, {"groups", "10000"}}}, kind, 1);
    EXPECT_EQ(p["status"], "skipped") << p.dump();
    const std::string why = p["skip_reason"].get<std::string>();
    EXPECT_TRUE(why.find("resident at once") != std::string::npos ||
                why.find("forward progress") != std::string::npos ||
                why.find("bytes of local memory") != std::string::npos)
        << why;
    EXPECT_EQ(summary_.exit_code(), 0);
    return;
  }
  GTEST_SKIP() << "no OpenCL or CUDA device";
}

TEST(AtomicsExperiments, SpecsParseWithSmallCiSweeps) {
  register_all();
  for (const char* id :
       {"atomics.fig1", "atomics.fig4", "atomics.fig8", "atomics.fig9", "atomics.fig10",
        "atomics.fig11", "atomics.fig12", "atomics.fig13", "atomics.fig14", "atomics.model"}) {
    SCOPED_TRACE(id);
    const Experiment e = find_experiment(id);
    EXPECT_EQ(e.runs.front().framework, "atomics");
    std::size_t ci = 1;
    for (const Axis& a : e.axes) ci *= a.values.at("ci").size();
    EXPECT_LE(ci, 24u);
    for (const Axis& a : e.axes) {
      EXPECT_TRUE(a.values.count("gpu")) << a.name;
      EXPECT_TRUE(a.values.count("paper")) << a.name;
    }
  }
}

}  // namespace
}  // namespace harness
