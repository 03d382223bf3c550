// The memory family: the closed forms of its checksums against brute force;
// every variant at a tiny size on every kernel backend with a device (PoCL in
// CI): validated, rates positive and finite, the declared bytes exactly what
// the parameters say (and never fewer for a larger working set); a wrong
// expected checksum failing validation, and so a short or missing copy;
// skipped combinations with their reasons; the ceiling probes; the
// experiments' specs.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "datasets/dataset.h"
#include "harness/core/ceilings.h"
#include "harness/core/errors.h"
#include "harness/runner/runner.h"
#include "harness/suite/register_all.h"
#include "micro/memory/memory.h"

namespace harness {
namespace {

namespace fs = std::filesystem;
using backend::Kind;

TEST(MemorySums, FloorSumMatchesBruteForce) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::uint64_t n = rng() % 300, m = 1 + rng() % 1000, a = rng() % 3000, b = rng() % 3000;
    std::uint64_t brute = 0;
    for (std::uint64_t i = 0; i < n; ++i) brute += (a * i + b) / m;
    ASSERT_EQ(memory::floor_sum(n, m, a, b), brute) << n << " " << m << " " << a << " " << b;
  }
}

TEST(MemorySums, WalkSumMatchesBruteForceModulo32Bits) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::uint64_t modulus = 1 + rng() % (trial % 2 ? 100 : (std::uint64_t{1} << 31));
    const std::uint64_t start = rng() % modulus, stride = rng() % modulus, n = rng() % 500;
    std::uint32_t brute = 0;
    for (std::uint64_t i = 0; i < n; ++i)
      brute += static_cast<std::uint32_t>((start + i * stride) % modulus);
    ASSERT_EQ(memory::walk_sum(start, stride, modulus, n), brute);
  }
  // Large sums wrap modulo 2^32 like the kernels' u32 sums.
  std::uint32_t brute = 0;
  for (std::uint64_t i = 0; i < 4096; ++i)
    brute += static_cast<std::uint32_t>((123456789 + i * 270592) % 983040000);
  EXPECT_EQ(memory::walk_sum(123456789, 270592, 983040000, 4096), brute);
}

TEST(MemorySums, Read4SumMatchesBruteForce) {
  // Word w holds the u32s 4v..4v+3, v = (w - shift) mod modulus.
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 1000; ++trial) {
    const std::uint64_t modulus = 1 + rng() % 5000;
    const std::uint64_t start = rng() % modulus, stride = rng() % modulus, steps = rng() % 300;
    const std::uint64_t shift = rng() % (3 * modulus);
    std::uint32_t brute = 0;
    for (std::uint64_t i = 0; i < steps; ++i) {
      const std::uint64_t w = (start + i * stride) % modulus;
      const auto v = static_cast<std::uint32_t>((w + 3 * modulus - shift) % modulus);
      brute += (4 * v) + (4 * v + 1) + (4 * v + 2) + (4 * v + 3);
    }
    ASSERT_EQ(memory::read4_sum(start, stride, modulus, steps, shift), brute);
  }
}

TEST(MemorySums, CompareChecksumsNamesTheFirstDifferences) {
  EXPECT_EQ(memory::compare_checksums({1, 2, 3}, {1, 2, 3}), "");
  const std::string msg = memory::compare_checksums({1, 2, 3, 4, 5}, {1, 9, 3, 8, 7});
  EXPECT_NE(msg.find("3 of 5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[1] expected 2 got 9"), std::string::npos) << msg;
  EXPECT_NE(memory::compare_checksums({1}, {1, 2}).find("2 checksums, expected 1"),
            std::string::npos);
}

TEST(MemoryAutoSizes, GpuSizesFollowTheL2AndCpuSizesAreTiny) {
  backend::DeviceInfo gpu;
  gpu.type = "gpu";
  gpu.l2_cache_bytes = 60u << 20;
  const memory::AutoSizes g = memory::auto_sizes(gpu);
  EXPECT_EQ(g.l2_working_set, 15u << 20);
  EXPECT_EQ(g.dram_working_set, 480u << 20);
  EXPECT_EQ(g.global_steps % 8, 0u);
  backend::DeviceInfo cpu;
  cpu.type = "cpu";
  const memory::AutoSizes c = memory::auto_sizes(cpu);
  EXPECT_LT(c.dram_working_set, g.l2_working_set);
  EXPECT_LE(c.global_steps, 64u);
}

std::vector<Kind> kinds_with_devices() {
  std::vector<Kind> out;
  for (Kind k : backend::compiled_kinds()) {
    if (k != Kind::cpu && !backend::list_devices(k).empty()) out.push_back(k);
  }
  return out;
}

bool runs_on(const std::string& variant, Kind kind) {
  const VariantInfo& v = Registry::instance().find_variant("memory", variant);
  return std::find(v.backends.begin(), v.backends.end(), kind) != v.backends.end();
}

const nlohmann::json* rate(const nlohmann::json& point, const std::string& name) {
  for (const auto& r : point["rates"]) {
    if (r["name"] == name) return &r;
  }
  return nullptr;
}

class MemoryRun : public ::testing::Test {
 protected:
  void SetUp() override {
    register_all();
    dir_ = fs::temp_directory_path() / ("harness-memory-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  nlohmann::json run(const std::string& variant, Kind kind, Params params, int reps = 2) {
    const VariantInfo& v = Registry::instance().find_variant("memory", variant);
    SinglePoint sp;
    sp.framework = "memory";
    sp.variant = variant;
    sp.app = v.apps.front();
    sp.dataset = "uniform-f32";
    sp.size = "4KiB";
    sp.backend = kind;
    sp.reps = reps;
    sp.params = std::move(params);
    sp.data_dir = dir_ / "data";
    sp.out_path = dir_ / "point.json";
    summary_ = run_single(sp);
    std::ifstream in(sp.out_path);
    return nlohmann::json::parse(in)["points"][0];
  }
  // Tiny sizes for every variant.
  static Params tiny(const std::string& variant) {
    if (variant == "l2" || variant == "dram")
      return {{"group_size", "64"},
              {"groups", "3"},
              {"coalescing", "4"},
              {"steps", "16"},
              {"working_set", "64KiB"}};
    if (variant == "shared") return {{"group_size", "64"}, {"groups", "3"}, {"steps", "64"}};
    if (variant == "copy") return {{"group_size", "64"}, {"groups", "3"}, {"working_set", "64KiB"}};
    return {{"group_size", "32"}, {"groups", "3"}, {"chunk", "256"}, {"working_set", "100000"}};
  }
  fs::path dir_;
  RunSummary summary_;
};

TEST_F(MemoryRun, EveryVariantValidatesWithSaneRatesOnEveryBackendPresent) {
  const std::map<std::string, std::string> level = {
      {"l2", "l2@kernel"},         {"dram", "dram@kernel"},      {"copy", "dram@kernel"},
      {"shared", "shared@kernel"}, {"scan-line", "dram@kernel"}, {"scan-l1", "dram@kernel"},
      {"scan-nol1", "dram@kernel"}};
  int ran = 0;
  for (Kind kind : kinds_with_devices()) {
    for (const auto& [variant, rate_name] : level) {
      if (!runs_on(variant, kind)) continue;
      SCOPED_TRACE(variant + " on " + backend::kind_name(kind));
      const nlohmann::json p = run(variant, kind, tiny(variant));
      ASSERT_EQ(p["status"], "ok") << p.dump();
      EXPECT_EQ(p["validation"]["status"], "passed");
      EXPECT_EQ(p["validation"]["kind"], "exact");
      // The copy's checksums are a second kernel's, over the destination.
      EXPECT_EQ(p["phase_order"], variant == "copy"
                                      ? (nlohmann::json{"kernel", "checksum", "copy_out"})
                                      : (nlohmann::json{"kernel", "copy_out"}));
      for (const std::string& name : {rate_name, std::string("bytes_used@kernel")}) {
        const nlohmann::json* r = rate(p, name);
        ASSERT_NE(r, nullptr) << name << " in " << p["rates"].dump();
        const double v = (*r)["value"].get<double>();
        EXPECT_TRUE(std::isfinite(v) && v > 0) << name << " = " << v;
        EXPECT_EQ((*r)["over"], "kernel");
      }
      EXPECT_GT(p["counters"]["threads"].get<double>(), 0);
      ++ran;
    }
  }
  if (ran == 0) GTEST_SKIP() << "no OpenCL or CUDA device";
}

TEST_F(MemoryRun, DeclaredBytesFollowTheParametersExactly) {
  for (Kind kind : kinds_with_devices()) {
    SCOPED_TRACE(backend::kind_name(kind));
    // 3 x 64 work-items, 16 steps: coalescing 1 delivers a 32-byte sector per
    // 4-byte word used, coalescing 32 a 128-byte unit per 32 words.
    for (const auto& [c, unit] : std::vector<std::pair<int, int>>{{1, 32}, {4, 32}, {32, 128}}) {
      Params params = tiny("l2");
      params["coalescing"] = std::to_string(c);
      const nlohmann::json p = run("l2", kind, params, 1);
      ASSERT_EQ(p["status"], "ok") << p.dump();
      const std::uint64_t threads = 3 * 64, steps = 16;
      EXPECT_EQ(p["work"]["bytes"][0]["read"], steps * threads / c * unit) << "coalescing " << c;
      EXPECT_EQ(p["work"]["items"]["bytes_used"], steps * threads * 4);
      // Twice the steps: exactly twice the bytes.
      params["steps"] = "32";
      const nlohmann::json q = run("l2", kind, params, 1);
      EXPECT_EQ(q["work"]["bytes"][0]["read"],
                2 * p["work"]["bytes"][0]["read"].get<std::uint64_t>());
    }
    // The copy reads and writes its working set once, judged against d2d_copy.
    Params copy = tiny("copy");
    copy["working_set"] = "200KiB";  // rounded down to a whole number of 64 KiB
    const nlohmann::json c = run("copy", kind, copy, 1);
    ASSERT_EQ(c["status"], "ok") << c.dump();
    ASSERT_EQ(c["work"]["bytes"].size(), 1u) << c["work"].dump();
    const nlohmann::json& traffic = c["work"]["bytes"][0];
    EXPECT_EQ(traffic["level"], "dram");
    EXPECT_EQ(traffic["read"], 192u << 10);
    EXPECT_EQ(traffic["written"], 192u << 10);
    EXPECT_EQ(traffic["ceiling"], "d2d_copy");
    EXPECT_EQ(c["work"]["items"]["bytes_delivered"], 2 * (192u << 10));
    EXPECT_EQ(c["counters"]["working_set_bytes"].get<double>(), 192.0 * 1024);
    // A larger working set never reports fewer bytes: the bytes are the walk's.
    std::uint64_t last = 0;
    for (const char* ws : {"16KiB", "64KiB", "1MiB"}) {
      Params params = tiny("dram");
      params["working_set"] = ws;
      const nlohmann::json p = run("dram", kind, params, 1);
      ASSERT_EQ(p["status"], "ok") << p.dump();
      const auto bytes = p["work"]["bytes"][0]["read"].get<std::uint64_t>();
      EXPECT_GE(bytes, last) << ws;
      last = bytes;
      EXPECT_EQ(p["counters"]["working_set_bytes"].get<double>(),
                static_cast<double>(harness::parse_size(ws)));
    }
    return;
  }
  GTEST_SKIP() << "no OpenCL or CUDA device";
}

TEST_F(MemoryRun, AWrongExpectedChecksumFailsValidation) {
  for (Kind kind : kinds_with_devices()) {
    for (const char* variant : {"l2", "copy", "shared", "scan-line"}) {
      SCOPED_TRACE(std::string(variant) + " on " + backend::kind_name(kind));
      std::unique_ptr<backend::Device> device = backend::open_device(kind, 0);
      const VariantInfo& v = Registry::instance().find_variant("memory", variant);
      PointContext ctx;
      ctx.device = device.get();
      ctx.devices = {device.get()};
      ctx.app = v.apps.front();
      ctx.params = point_defaults(v, Registry::instance().find_app(ctx.app));
      for (const auto& [k, val] : tiny(variant)) ctx.params[k] = val;
      std::unique_ptr<PointRunner> runner = v.make(ctx);
      runner->prepare();
      runner->before_repetition();
      runner->run_once();
      EXPECT_EQ(runner->validate_last(), "");
      auto* point = dynamic_cast<memory::KernelPoint*>(runner.get());
      ASSERT_NE(point, nullptr);
      EXPECT_GT(point->last_kernel_ms(), 0.0);
      runner->before_repetition();
      point->corrupt_expected(5);
      runner->run_once();
      const std::string msg = runner->validate_last();
      EXPECT_NE(msg.find("1 of"), std::string::npos) << msg;
      EXPECT_NE(msg.find("[5] expected"), std::string::npos) << msg;
    }
    return;
  }
  GTEST_SKIP() << "no OpenCL or CUDA device";
}

// The checker must see a copy that did not write the whole destination: each
// run moves the copy's offset on, so words a run leaves out hold what the run
// before wrote there for another offset (or the zeros of the first fill).
TEST_F(MemoryRun, AShortOrMissingCopyFailsValidation) {
  for (Kind kind : kinds_with_devices()) {
    SCOPED_TRACE(backend::kind_name(kind));
    std::unique_ptr<backend::Device> device = backend::open_device(kind, 0);
    const VariantInfo& v = Registry::instance().find_variant("memory", "copy");
    PointContext ctx;
    ctx.device = device.get();
    ctx.devices = {device.get()};
    ctx.app = v.apps.front();
    ctx.params = point_defaults(v, Registry::instance().find_app(ctx.app));
    for (const auto& [k, val] : tiny("copy")) ctx.params[k] = val;
    std::unique_ptr<PointRunner> runner = v.make(ctx);
    runner->prepare();
    const std::uint64_t words = (64u << 10) / 16;
    // First run short: the last words stay zero. Then a whole copy, then short
    // by one word, by a whole grid stride and by everything: the destination
    // keeps words of the previous offset. A whole copy validates again.
    for (const auto& [missing, should_pass] :
         std::vector<std::pair<std::uint64_t, bool>>{{1, false},
                                                     {0, true},
                                                     {1, false},
                                                     {0, true},
                                                     {3 * 64, false},
                                                     {words, false},
                                                     {0, true}}) {
      SCOPED_TRACE("missing " + std::to_string(missing));
      memory::short_copy_for_tests(*runner, missing);
      runner->before_repetition();
      runner->run_once();
      const std::string msg = runner->validate_last();
      if (should_pass) {
        EXPECT_EQ(msg, "");
      } else {
        EXPECT_NE(msg, "");
        EXPECT_NE(msg.find(" of "), std::string::npos) << msg;  // "N of M checksums differ"
      }
    }
    // Only the copy has the hook.
    const VariantInfo& l2 = Registry::instance().find_variant("memory", "l2");
    PointContext l2ctx = ctx;
    l2ctx.app = l2.apps.front();
    l2ctx.params = point_defaults(l2, Registry::instance().find_app(l2ctx.app));
    for (const auto& [k, val] : tiny("l2")) l2ctx.params[k] = val;
    std::unique_ptr<PointRunner> other = l2.make(l2ctx);
    EXPECT_THROW(memory::short_copy_for_tests(*other, 1), UsageError);
    return;
  }
  GTEST_SKIP() << "no OpenCL or CUDA device";
}

TEST_F(MemoryRun, CombinationsThatCannotRunAreSkippedWithTheirReasons) {
  for (Kind kind : kinds_with_devices()) {
    Params params = tiny("l2");
    params["group_size"] = "16";
    params["coalescing"] = "32";
    nlohmann::json p = run("l2", kind, params, 1);
    EXPECT_EQ(p["status"], "skipped");
    EXPECT_NE(p["skip_reason"].get<std::string>().find("not a whole number of 32-way"),
              std::string::npos);
    params = tiny("l2");
    params["working_set"] = "1KiB";  // 3 x 64 work-items read 6 KiB per step
    p = run("l2", kind, params, 1);
    EXPECT_EQ(p["status"], "skipped");
    EXPECT_NE(p["skip_reason"].get<std::string>().find("more than the working set"),
              std::string::npos);
    EXPECT_EQ(summary_.exit_code(), 0);
    params = tiny("l2");
    params["coalescing"] = "3";
    EXPECT_THROW(run("l2", kind, params, 1), UsageError);
    // The copy: more work-items than 16-byte words, and a buffer under 64 KiB.
    params = tiny("copy");
    params["groups"] = "100";  // 6400 work-items, 4096 words
    p = run("copy", kind, params, 1);
    EXPECT_EQ(p["status"], "skipped");
    EXPECT_NE(p["skip_reason"].get<std::string>().find("more than the 4096 16-byte words"),
              std::string::npos)
        << p["skip_reason"];
    params = tiny("copy");
    params["working_set"] = "60KiB";
    p = run("copy", kind, params, 1);
    EXPECT_EQ(p["status"], "skipped");
    EXPECT_NE(p["skip_reason"].get<std::string>().find("64 KiB granule"), std::string::npos)
        << p["skip_reason"];
    return;
  }
  GTEST_SKIP() << "no OpenCL or CUDA device";
}

TEST(MemoryProbes, CeilingProbesReturnPositiveNumbers) {
  register_all();
  const std::vector<std::string> names = ceiling_probe_names();
  for (const char* want : {"dram_read", "l2_read", "shared_read", "atomic_add_same",
                           "atomic_add_distinct", "atomic_cas_random"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  int measured = 0;
  for (Kind kind : kinds_with_devices()) {
    std::unique_ptr<backend::Device> device = backend::open_device(kind, 0);
    // A GPU is measured at the runner's gpu size: at 16 MiB the DRAM probe's
    // buffer would sit in a 50-60 MiB L2 and read as fast as the L2 probe.
    const bool gpu = device->info().type == "gpu";
    const nlohmann::json ceilings =
        measure_ceilings(*device, gpu ? (std::size_t{1} << 30) : (16u << 20), 2);
    std::map<std::string, double> value;
    for (const auto& c : ceilings) {
      value[c["name"]] = c["value"].get<double>();
      EXPECT_EQ(c["backend"], backend::kind_name(kind));
      EXPECT_FALSE(c["method"].get<std::string>().empty());
      EXPECT_EQ(c["unit"], c["name"].get<std::string>().rfind("atomic", 0) == 0 ? "G/s" : "GB/s");
    }
    for (const char* name : {"d2d_copy", "d2h_pageable", "dram_read", "l2_read", "shared_read",
                             "atomic_add_same", "atomic_add_distinct", "atomic_cas_random"}) {
      ASSERT_TRUE(value.count(name)) << name << " in " << ceilings.dump();
      EXPECT_TRUE(std::isfinite(value[name]) && value[name] > 0) << name;
      ++measured;
    }
    // On a GPU the read kernel reaches the copy engine's bandwidth (the
    // issue's 93%); a CPU device's numbers are only checked to be sane.
    if (gpu) {
      EXPECT_GE(value["dram_read"], 0.93 * value["d2d_copy"]) << ceilings.dump(2);
      EXPECT_GT(value["l2_read"], value["dram_read"]) << ceilings.dump(2);
    }
  }
  if (measured == 0) GTEST_SKIP() << "no OpenCL or CUDA device";
}

TEST(MemoryExperiments, SpecsParseWithSmallCiSweeps) {
  register_all();
  for (const char* id : {"thesis.fig5_1", "thesis.fig5_4", "thesis.fig5_5", "thesis.fig5_6",
                         "thesis.fig5_7", "thesis.fig5_13"}) {
    SCOPED_TRACE(id);
    const Experiment e = find_experiment(id);
    EXPECT_EQ(e.runs.front().framework, "memory");
    std::size_t ci = 1, gpu = 1;
    for (const Axis& a : e.axes) {
      ci *= a.values.at("ci").size();
      gpu *= a.values.at("gpu").size();
    }
    EXPECT_LE(ci, 16u);
    EXPECT_LE(gpu, 200u);
    EXPECT_FALSE(e.measurement.cold) << "cold runs would flush memory/l2's working set";
  }
}

}  // namespace
}  // namespace harness
