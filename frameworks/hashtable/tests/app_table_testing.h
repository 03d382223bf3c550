// What the tests of one app on the SePo table share (word-count,
// page-view-count): a point of a hashtable variant on the app, run the way
// the runner does (family_point_testing.h) under a GPU memory budget, and its
// counters.
#pragma once

#include <ostream>
#include <string>
#include <utility>

#include "frameworks/workloads/tests/family_point_testing.h"
#include "harness/backend/tests/device_fixture.h"

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

 private:
  std::string app_;
};

}  // namespace harness::testing
