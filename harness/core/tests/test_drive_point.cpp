// drive_point (harness/core/drive_point.h): the order of the calls, the
// warm-up left out of the repetitions, failed validations recorded (the
// runner) or ending the walk (Google Benchmark), and the hooks' arguments.
#include <gtest/gtest.h>

#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "harness/core/drive_point.h"
#include "harness/core/errors.h"

namespace harness {
namespace {

// Logs every call; run i (from 1, warm-up included) measures i ms and fails
// validation when i is in `failing`.
class FakeRunner : public PointRunner {
 public:
  FakeRunner(std::vector<std::string>& log, std::set<int> failing)
      : log_(log), failing_(std::move(failing)) {}
  void prepare() override { log_.push_back("prepare"); }
  void before_repetition() override { log_.push_back("before_repetition"); }
  Measurement run_once() override {
    ++runs_;
    log_.push_back("run_once " + std::to_string(runs_));
    Measurement m;
    m.total_ms = runs_;
    m.counters["run"] = runs_;
    return m;
  }
  std::string validate_last() override {
    log_.push_back("validate_last");
    return failing_.count(runs_) ? "bad run " + std::to_string(runs_) : "";
  }
  Work work() const override {
    log_.push_back("work");
    Work w;
    w.input_bytes = 42;
    return w;
  }
  void dump_output(std::ostream&) const override {}

 private:
  std::vector<std::string>& log_;
  std::set<int> failing_;
  int runs_ = 0;
};

struct Walk {
  std::vector<std::string> log;
  DriveHooks hooks;
  int max_reps = 2;
  std::vector<std::size_t> asked;  // repetitions done when `another` was asked

  explicit Walk(int warmup) {
    hooks.warmup = warmup;
    hooks.before_run = [this] { log.push_back("before_run"); };
    hooks.another = [this](const std::vector<Repetition>& done, double elapsed_s) {
      EXPECT_GE(elapsed_s, 0.0);
      asked.push_back(done.size());
      log.push_back("another");
      return static_cast<int>(done.size()) < max_reps;
    };
    hooks.after_repetition = [this](PointRunner&, const Repetition& r) {
      log.push_back("after_repetition " + std::to_string(static_cast<int>(r.measurement.total_ms)) +
                    (r.failure.empty() ? "" : " failed"));
    };
  }
  DrivenPoint drive(std::set<int> failing = {}) {
    return drive_point(
        [&] {
          log.push_back("make");
          return std::make_unique<FakeRunner>(log, failing);
        },
        hooks);
  }
};

std::vector<std::string> one_run(int i) {
  return {"before_repetition", "before_run", "run_once " + std::to_string(i), "validate_last"};
}

std::vector<std::string> concat(std::initializer_list<std::vector<std::string>> parts) {
  std::vector<std::string> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

TEST(DrivePoint, CallsInOrderAndLeavesTheWarmUpOut) {
  Walk w(1);
  DrivenPoint d = w.drive();
  EXPECT_EQ(w.log, concat({{"make", "prepare"},
                           one_run(1),
                           {"another"},
                           one_run(2),
                           {"after_repetition 2", "another"},
                           one_run(3),
                           {"after_repetition 3", "another", "work"}}));
  ASSERT_EQ(d.repetitions.size(), 2u);  // runs 2 and 3: the warm-up (run 1) is not recorded
  EXPECT_EQ(d.repetitions[0].measurement.total_ms, 2);
  EXPECT_EQ(d.repetitions[1].measurement.counters.at("run"), 3);
  EXPECT_EQ(d.repetitions[1].failure, "");
  EXPECT_EQ(d.first_failure, "");
  EXPECT_EQ(w.asked, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(d.work.input_bytes, 42u);
  ASSERT_NE(d.runner, nullptr);
}

TEST(DrivePoint, SeveralWarmUpsOrNone) {
  Walk three(3);
  DrivenPoint d = three.drive();
  ASSERT_EQ(d.repetitions.size(), 2u);
  EXPECT_EQ(d.repetitions[0].measurement.total_ms, 4);
  Walk none(0);
  none.max_reps = 1;
  DrivenPoint e = none.drive();
  EXPECT_EQ(none.log, concat({{"make", "prepare", "another"},
                              one_run(1),
                              {"after_repetition 1", "another", "work"}}));
  EXPECT_EQ(e.repetitions.size(), 1u);
}

// The runner: a failed validation is recorded, the first one named, and the
// walk goes on to the repetitions the policy asks for.
TEST(DrivePoint, FailuresAreRecordedAndTheWalkGoesOn) {
  Walk w(1);
  w.max_reps = 3;
  DrivenPoint d = w.drive({3, 4});
  ASSERT_EQ(d.repetitions.size(), 3u);
  EXPECT_EQ(d.repetitions[0].failure, "");
  EXPECT_EQ(d.repetitions[1].failure, "bad run 3");
  EXPECT_EQ(d.repetitions[2].failure, "bad run 4");
  EXPECT_EQ(d.first_failure, "repetition 2: bad run 3");
  EXPECT_EQ(w.log.back(), "work");

  Walk warm(1);
  DrivenPoint e = warm.drive({1});
  EXPECT_EQ(e.first_failure, "warm-up: bad run 1");
  ASSERT_EQ(e.repetitions.size(), 2u);
  EXPECT_EQ(e.repetitions[0].failure, "");
}

// Google Benchmark: a failed warm-up throws before any repetition; a failed
// repetition is the last, seen by after_repetition, and `another` is not
// asked again.
TEST(DrivePoint, StopAtFailureEndsTheWalk) {
  Walk warm(1);
  warm.hooks.stop_at_failure = true;
  try {
    warm.drive({1});
    ADD_FAILURE() << "no RunError";
  } catch (const RunError& e) {
    EXPECT_EQ(std::string(e.what()), "warm-up: bad run 1");
  }
  EXPECT_EQ(warm.asked.size(), 0u);
  EXPECT_EQ(warm.log.back(), "validate_last");

  Walk rep(1);
  rep.hooks.stop_at_failure = true;
  rep.max_reps = 5;
  DrivenPoint d = rep.drive({3});
  ASSERT_EQ(d.repetitions.size(), 2u);
  EXPECT_EQ(d.repetitions[1].failure, "bad run 3");
  EXPECT_EQ(d.first_failure, "repetition 2: bad run 3");
  EXPECT_EQ(rep.asked, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(rep.log, concat({{"make", "prepare"},
                             one_run(1),
                             {"another"},
                             one_run(2),
                             {"after_repetition 2", "another"},
                             one_run(3),
                             {"after_repetition 3 failed", "work"}}));
}

TEST(DrivePoint, ErrorsPropagate) {
  Walk skip(1);
  EXPECT_THROW(
      drive_point([]() -> std::unique_ptr<PointRunner> { throw SkipPoint("no"); }, skip.hooks),
      SkipPoint);
  Walk broken(1);
  broken.hooks.after_repetition = [](PointRunner&, const Repetition&) { throw RunError("hook"); };
  EXPECT_THROW(broken.drive(), RunError);
  DriveHooks none;
  EXPECT_THROW(drive_point([] { return std::unique_ptr<PointRunner>(); }, none), std::logic_error);
}

}  // namespace
}  // namespace harness
