// What S-L1's test files share: a point of the family run on a small launch
// (4 work-groups of 64 work-items), validated against the workload's
// reference on every repetition.
#pragma once

#include <map>
#include <string>

#include "frameworks/workloads/tests/family_point_testing.h"
#include "harness/backend/tests/device_fixture.h"

namespace harness::testing {

// 4 work-groups of 64: 256 work-items, each with about input / 256 bytes.
inline const std::map<std::string, std::string> kSmallLaunch = {{"groups", "4"},
                                                                {"group_size", "64"}};

class Sl1Test : public DeviceTest {
 protected:
  PointRun run(const std::string& variant, const std::string& app, const std::string& input,
               std::map<std::string, std::string> params = {}, int repetitions = 2) {
    Params all(kSmallLaunch.begin(), kSmallLaunch.end());
    for (const auto& [k, value] : params) all[k] = value;
    // upper's second run starts from the input again.
    return run_point(*device_, "sl1", variant, app, input, 0, all, repetitions);
  }
};

}  // namespace harness::testing
