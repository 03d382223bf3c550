// The walk every measurement of a PointRunner takes (registry.h): the runner's
// points (harness/runner/point.cpp) and the Google Benchmark binaries
// (micro/bench_memory.cpp, micro/bench_atomics.cpp) all measure through
// drive_point, so a point is made, prepared, warmed up, repeated and validated
// the same way wherever it runs; the callers differ only in the hooks.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/core/registry.h"

namespace harness {

// One measured run.
struct Repetition {
  Measurement measurement;
  std::string failure;  // "" when validate_last passed, else its reason
};

struct DriveHooks {
  // Runs before the repetitions, each reset, run and validated like one, and
  // not recorded (first touch, lazy allocation, caches).
  int warmup = 1;
  // Untimed, before every run (warm-up and repetitions), after
  // before_repetition: the runner flushes L2 for cold runs and settles the
  // host heap. Optional.
  std::function<void()> before_run;
  // Asked before each repetition, with the repetitions so far and the seconds
  // since the warm-up ended: whether to run another (the runner's measurement
  // policy; Google Benchmark's state.KeepRunning()). Required.
  std::function<bool(const std::vector<Repetition>& done, double elapsed_s)> another;
  // After each repetition is validated, before `another` is asked again (the
  // runner records it; Google Benchmark takes its manual time). Optional.
  std::function<void(PointRunner& runner, const Repetition& repetition)> after_repetition;
  // true (Google Benchmark): a failed validation ends the walk: a failed
  // warm-up throws RunError("warm-up: <reason>") before any repetition, a
  // failed repetition is the last one (after_repetition sees it). false (the
  // runner): every run is made and the failures are recorded.
  bool stop_at_failure = false;
};

struct DrivenPoint {
  std::unique_ptr<PointRunner> runner;
  std::vector<Repetition> repetitions;  // the measured runs in order; not the warm-up
  // The first failed validation, "warm-up: <reason>" or "repetition <n>:
  // <reason>" (n from 1); "" when every run passed.
  std::string first_failure;
  Work work;  // runner->work() after the last run
  // Wall seconds spent in make() + prepare(), in the runs (warm-up included:
  // before_repetition, hooks.before_run and run_once) and in validate_last.
  double prepare_s = 0, runs_s = 0, validation_s = 0;
};

// make() → prepare() → for each warm-up run and then each repetition while
// hooks.another says so: before_repetition(), hooks.before_run, run_once(),
// validate_last() (hooks.after_repetition for repetitions) → work().
// Exceptions from the runner or the hooks propagate (SkipPoint from make or
// prepare included); what after_repetition saw stays with the caller.
DrivenPoint drive_point(const std::function<std::unique_ptr<PointRunner>()>& make,
                        const DriveHooks& hooks);

}  // namespace harness
