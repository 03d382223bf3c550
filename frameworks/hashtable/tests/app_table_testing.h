// What the tests of one app on the SePo table share (word-count,
// page-view-count, key-counts): a point of a hashtable variant on the app,
// run the way the runner does (family_point_testing.h) under a GPU memory
// budget, its counters, and the checks of hand-made inputs every variant
// must validate or refuse.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "frameworks/workloads/tests/family_point_testing.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"

namespace harness::testing {

// A budget with room for any of these tests' tables in one iteration.
inline constexpr std::uint64_t kRoomy = 64 << 20;
// Small heap pages and bucket groups, so small inputs fill several pages.
inline const Params kSmallPages = {{"page_bytes", "1024"}, {"bucket_group", "64"}};

class AppTableTest : public DeviceTest {
 protected:
  explicit AppTableTest(std::string app) : app_(std::move(app)) {}
  PointRun run(const std::string& variant, const std::string& input, std::uint64_t budget,
               const Params& params = {}, int repetitions = 2, std::ostream* dump = nullptr) {
    return run_point(*device_, "hashtable", variant, app_, input, budget, params, repetitions,
                     dump);
  }
  static double counter(const PointRun& r, const std::string& name) {
    return r.measurement.counters.at(name);
  }
  // Every input validates on every variant (one repetition, a roomy budget).
  void expect_all_validate(const std::vector<std::string>& inputs,
                           std::initializer_list<const char*> variants) {
    for (const std::string& input : inputs)
      for (const char* variant : variants) {
        const PointRun r = run(variant, input, kRoomy, {}, 1);
        EXPECT_EQ(r.validation, "") << variant << " on '" << input << "'";
      }
  }
  // Every variant refuses `input` with a one-line RunError naming `cause`.
  void expect_refused(const std::string& input, std::initializer_list<const char*> variants,
                      const std::string& cause) {
    for (const char* variant : variants) {
      try {
        run(variant, input, kRoomy, {}, 1);
        ADD_FAILURE() << variant << ": no error";
      } catch (const RunError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(cause), std::string::npos) << variant << ": " << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << variant << ": " << what;
      }
    }
  }

 private:
  std::string app_;
};

}  // namespace harness::testing
