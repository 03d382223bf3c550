// Runs a test once per GPU-style backend device present (PoCL counts: it is
// how CI runs portable kernels); backends without a device are skipped.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
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

// The backend's first GPU-type device, else its first device; null (with the
// reason in `why`) when it has none.
inline std::unique_ptr<backend::Device> open_test_device(backend::Kind kind, std::string& why) {
  auto devices = backend::list_devices(kind, &why);
  if (devices.empty()) return nullptr;
  int index = devices.front().index;
  for (const auto& d : devices) {
    if (d.type == "gpu") {
      index = d.index;
      break;
    }
  }
  return backend::open_device(kind, index);
}

class DeviceTest : public ::testing::TestWithParam<backend::Kind> {
 protected:
  void SetUp() override {
    std::string why;
    device_ = open_test_device(GetParam(), why);
    if (!device_) GTEST_SKIP() << why;
  }
  std::unique_ptr<backend::Device> device_;
};

// A test per (kernel backend, MapReduce app): every app on every backend present.
class DeviceAppTest : public ::testing::TestWithParam<std::tuple<backend::Kind, std::string>> {
 protected:
  void SetUp() override {
    std::string why;
    device_ = open_test_device(std::get<0>(GetParam()), why);
    if (!device_) GTEST_SKIP() << why;
  }
  const std::string& app_name() const { return std::get<1>(GetParam()); }
  std::unique_ptr<backend::Device> device_;
};

inline std::string backend_app_test_name(
    const ::testing::TestParamInfo<std::tuple<backend::Kind, std::string>>& i) {
  return std::string(backend::kind_name(std::get<0>(i.param))) + "_" + std::get<1>(i.param);
}

}  // namespace harness::testing
