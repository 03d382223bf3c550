// Runs a test once per GPU-style backend device present (PoCL counts: it is
// how CI runs portable kernels); backends without a device are skipped.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "harness/backend/backend.h"

namespace harness::testing {

inline std::vector<backend::Kind> kernel_backends() {
  std::vector<backend::Kind> kinds;
  for (backend::Kind k : backend::compiled_kinds()) {
    if (k != backend::Kind::cpu) kinds.push_back(k);
  }
  return kinds;
}

inline std::string backend_test_name(const ::testing::TestParamInfo<backend::Kind>& info) {
  return backend::kind_name(info.param);
}

class DeviceTest : public ::testing::TestWithParam<backend::Kind> {
 protected:
  void SetUp() override {
    std::string why;
    auto devices = backend::list_devices(GetParam(), &why);
    if (devices.empty()) GTEST_SKIP() << why;
    int index = 0;
    for (const auto& d : devices) {
      if (d.type == "gpu") {
        index = d.index;
        break;
      }
    }
    device_ = backend::open_device(GetParam(), index);
  }
  std::unique_ptr<backend::Device> device_;
};

}  // namespace harness::testing
