// bench_atomics: the atomics family's runners (micro/atomics) as Google
// Benchmark benchmarks, for Google Benchmark's own tooling (compare.py, JSON).
//
//   bench_atomics [--backend=cuda|opencl] [--device=N] [Google Benchmark flags]
//   bench_atomics --benchmark_filter='atomics/software/atomic-add/.*' --benchmark_format=json
//
// Each benchmark is one point, named atomics/<variant>/<app>/<param>:<value>...,
// run through the same PointRunner the harness uses and the same walk
// (harness/core/drive_point.h): prepared once, one validated warm-up, then
// per iteration reset, run and validated exactly (a wrong result skips the
// benchmark with its reason); the iteration time is the device time of its
// timed kernels (UseManualTime). Bytes processed are the bytes the point
// declares (Work), items processed its first item count (atomics, elements,
// records, matches); keyword-match runs on 4 MiB of text-zipf. The context
// block names the device, its driver and the backend.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "datasets/text_zipf.h"
#include "harness/backend/backend.h"
#include "harness/core/drive_point.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "micro/atomics/atomics.h"
#include "micro/bench_driver.h"

namespace {

using harness::Params;
using harness::backend::Kind;

struct Bench {
  std::string variant, app;
  Params params;
};

std::vector<Bench> benches() {
  std::vector<Bench> out;
  for (const char* v : {"copy-plain", "copy-never", "copy-thread", "copy-wave"})
    out.push_back({v, "path-copy", {{"group_size", "256"}}});
  for (const char* v : {"fig3-atomic", "fig3-memory", "fig3-both", "fig3-ideal"})
    for (const char* g : {"8", "256"}) out.push_back({v, "path-fig3", {{"groups", g}}});
  for (const char* v : {"system", "software"}) {
    for (const char* app : {"atomic-add", "atomic-add-mem"})
      for (const char* g : {"2", "32"}) out.push_back({v, app, {{"groups", g}}});
    out.push_back({v, "scalar-product", {{"groups", "32"}}});
    for (const char* q : {"q1", "q4"}) out.push_back({v, "keyword-match", {{"query", q}}});
  }
  for (const char* v : {"system", "wave", "software"}) {
    out.push_back({v, "mm-map", {{"n", "64"}}});
    out.push_back({v, "kmeans-map", {{"points", "4096"}}});
  }
  out.push_back({"model", "atomic-add", {{"groups", "32"}}});
  return out;
}

std::string benchmark_name(const Bench& b) {
  std::string name = "atomics/" + b.variant + "/" + b.app;
  for (const auto& [k, val] : b.params) name += "/" + k + ":" + val;
  return name;
}

const std::string& text() {
  static const std::string t = [] {
    std::ostringstream out;
    harness::datasets::generate_text_zipf(std::uint64_t{4} << 20, 42, out, 0);
    return out.str();
  }();
  return t;
}

void run_point(benchmark::State& state, Bench b, harness::backend::Device* device) {
  const harness::VariantInfo& variant =
      harness::Registry::instance().find_variant("atomics", b.variant);
  const harness::AppInfo& app = harness::Registry::instance().find_app(b.app);
  harness::PointContext ctx;
  ctx.device = device;
  ctx.devices = {device};
  ctx.app = app.name;
  ctx.params = harness::point_defaults(variant, app);
  for (const auto& [k, val] : b.params) ctx.params[k] = val;
  ctx.validation = app.validation;
  if (b.app == "keyword-match") {
    ctx.input = reinterpret_cast<const std::uint8_t*>(text().data());
    ctx.input_size = text().size();
    ctx.input_checksum = "text-zipf-4MiB-seed42";
  }
  harness::atomics::AtomicsPoint* point = nullptr;
  harness::DriveHooks hooks;
  hooks.warmup = 1;              // validated like every run
  hooks.stop_at_failure = true;  // a wrong result skips the benchmark with its reason
  hooks.another = [&state](const std::vector<harness::Repetition>&, double) {
    return state.KeepRunning();
  };
  hooks.after_repetition = [&](harness::PointRunner&, const harness::Repetition& r) {
    if (!r.failure.empty()) {
      state.SkipWithError(r.failure.c_str());
      return;
    }
    state.SetIterationTime(point->last_kernel_ms() / 1e3);
  };
  harness::DrivenPoint driven;
  try {
    if (variant.skip) {
      if (std::string why = variant.skip(ctx); !why.empty()) throw harness::SkipPoint(why);
    }
    driven = harness::drive_point(
        [&] {
          std::unique_ptr<harness::PointRunner> runner = variant.make(ctx);
          point = dynamic_cast<harness::atomics::AtomicsPoint*>(runner.get());
          if (!point) throw harness::RunError("not an atomics point");
          return runner;
        },
        hooks);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  const harness::Work& work = driven.work;
  std::uint64_t bytes = 0;
  for (const auto& t : work.traffic()) bytes += t.read + t.written;
  if (bytes) state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
  if (!work.item_counts().empty())
    state.SetItemsProcessed(static_cast<std::int64_t>(work.item_counts().front().count) *
                            state.iterations());
  state.counters["work_items"] = static_cast<double>(point->threads());
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  std::unique_ptr<harness::backend::Device> device =
      harness::micro::start_benchmarks("bench_atomics", argc, argv, exit_code);
  if (!device) return exit_code;
  harness::atomics::register_family();
  for (const Bench& b : benches()) {
    benchmark::RegisterBenchmark(benchmark_name(b).c_str(), run_point, b, device.get())
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
