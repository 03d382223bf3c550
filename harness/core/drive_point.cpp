#include "harness/core/drive_point.h"

#include <fmt/format.h>

#include <stdexcept>
#include <utility>

#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"

namespace harness {

DrivenPoint drive_point(const std::function<std::unique_ptr<PointRunner>()>& make,
                        const DriveHooks& hooks) {
  if (!hooks.another) throw std::logic_error("drive_point: DriveHooks::another is required");
  DrivenPoint d;
  Stopwatch preparing;
  d.runner = make();
  if (!d.runner) throw std::logic_error("drive_point: make() returned no runner");
  PointRunner& runner = *d.runner;
  runner.prepare();
  d.prepare_s = preparing.elapsed_ms() / 1e3;
  // Resets, runs and validates once; returns "" or the reason validation failed.
  auto run = [&](Measurement& m) {
    Stopwatch running;
    runner.before_repetition();
    if (hooks.before_run) hooks.before_run();
    m = runner.run_once();
    d.runs_s += running.elapsed_ms() / 1e3;
    Stopwatch validating;
    std::string bad = runner.validate_last();
    d.validation_s += validating.elapsed_ms() / 1e3;
    return bad;
  };
  for (int w = 0; w < hooks.warmup; ++w) {
    Measurement ignored;
    if (std::string bad = run(ignored); !bad.empty()) {
      if (hooks.stop_at_failure) throw RunError("warm-up: " + bad);
      if (d.first_failure.empty()) d.first_failure = "warm-up: " + bad;
    }
  }
  Stopwatch measuring;
  while (hooks.another(d.repetitions, measuring.elapsed_ms() / 1e3)) {
    Repetition r;
    r.failure = run(r.measurement);
    if (!r.failure.empty() && d.first_failure.empty())
      d.first_failure = fmt::format("repetition {}: {}", d.repetitions.size() + 1, r.failure);
    d.repetitions.push_back(std::move(r));
    if (hooks.after_repetition) hooks.after_repetition(runner, d.repetitions.back());
    if (hooks.stop_at_failure && !d.repetitions.back().failure.empty()) break;
  }
  d.work = runner.work();
  return d;
}

}  // namespace harness
