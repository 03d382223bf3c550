// bench_memory: the memory family's runners (micro/memory) as Google Benchmark
// benchmarks, for Google Benchmark's own tooling (compare.py, JSON output).
//
//   bench_memory [--backend=cuda|opencl] [--device=N] [Google Benchmark flags]
//   bench_memory --benchmark_filter='memory/l2/.*' --benchmark_format=json
//
// Each benchmark is one point of a memory variant (the parameters in its name,
// e.g. memory/l2/group_size:256/coalescing:4; "0" sizes are chosen for the
// device as in the harness), run through the same PointRunner the harness
// uses and the same walk (harness/core/drive_point.h): prepared once, one
// validated warm-up, then per iteration reset, run and validated exactly as
// the harness does (a wrong result skips the benchmark with its reason); the
// iteration time is the kernel's device time (UseManualTime), bytes processed
// are the bytes the kernel moved at its memory level, and the counters
// delivered_GBps / used_GBps are the bytes delivered to and used by the SMs
// over the summed kernel time. The context
// block names the device, its driver and the backend. Without --backend the
// first of cuda and opencl with a device is used (a GPU-type device first).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/core/drive_point.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "micro/bench_driver.h"
#include "micro/memory/memory.h"

namespace {

using harness::Params;
using harness::backend::Kind;

// The parameter sets registered per variant (the rest are the variant's defaults).
std::vector<Params> parameter_sets(const std::string& variant) {
  if (variant == "l2" || variant == "dram") {
    return {{{"group_size", "256"}, {"coalescing", "4"}},
            {{"group_size", "1024"}, {"coalescing", "4"}},
            {{"group_size", "1024"}, {"coalescing", "32"}}};
  }
  if (variant == "copy") return {{{"group_size", "256"}}, {{"group_size", "1024"}}};
  if (variant == "shared") return {{{"group_size", "256"}}, {{"group_size", "1024"}}};
  return {{{"group_size", "256"}, {"chunk", "4096"}}};
}

std::string benchmark_name(const harness::VariantInfo& v, const Params& set) {
  std::string name = v.framework + "/" + v.name;
  for (const auto& [k, val] : set) name += "/" + k + ":" + val;
  return name;
}

void run_point(benchmark::State& state, const harness::VariantInfo* variant, Params params,
               harness::backend::Device* device) {
  const harness::AppInfo& app = harness::Registry::instance().find_app(variant->apps.front());
  harness::PointContext ctx;
  ctx.device = device;
  ctx.devices = {device};
  ctx.app = app.name;
  ctx.params = harness::point_defaults(*variant, app);
  for (const auto& [k, val] : params) ctx.params[k] = val;
  ctx.validation = app.validation;
  harness::memory::KernelPoint* point = nullptr;
  double kernel_s = 0;
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
    kernel_s += point->last_kernel_ms() / 1e3;
    state.SetIterationTime(point->last_kernel_ms() / 1e3);
  };
  harness::DrivenPoint driven;  // owns the runner `point` is
  try {
    if (variant->skip) {
      if (std::string why = variant->skip(ctx); !why.empty()) throw harness::SkipPoint(why);
    }
    driven = harness::drive_point(
        [&] {
          std::unique_ptr<harness::PointRunner> runner = variant->make(ctx);
          point = dynamic_cast<harness::memory::KernelPoint*>(runner.get());
          if (!point) throw harness::RunError("not a memory kernel point");
          return runner;
        },
        hooks);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  const auto n = static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(point->delivered_bytes()) * state.iterations());
  if (kernel_s > 0) {
    state.counters["delivered_GBps"] =
        static_cast<double>(point->delivered_bytes()) * n / 1e9 / kernel_s;
    state.counters["used_GBps"] = static_cast<double>(point->used_bytes()) * n / 1e9 / kernel_s;
  }
  state.counters["work_items"] = static_cast<double>(point->threads());
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  std::unique_ptr<harness::backend::Device> device =
      harness::micro::start_benchmarks("bench_memory", argc, argv, exit_code);
  if (!device) return exit_code;
  harness::memory::register_family();
  const harness::backend::DeviceInfo& info = device->info();
  for (const harness::VariantInfo& v : harness::Registry::instance().variants()) {
    if (v.framework != "memory") continue;
    if (std::find(v.backends.begin(), v.backends.end(), info.kind) == v.backends.end()) continue;
    for (const Params& set : parameter_sets(v.name)) {
      benchmark::RegisterBenchmark(benchmark_name(v, set).c_str(), run_point, &v, set, device.get())
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
