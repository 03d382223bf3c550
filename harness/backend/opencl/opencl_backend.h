// OpenCL implementation of the backend layer (any platform: PoCL on CPUs,
// NVIDIA's driver, AMD). Devices of all platforms are numbered in one list.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "harness/backend/backend.h"

namespace harness::backend::opencl {

std::vector<DeviceInfo> list_devices(std::string* why_none);
std::unique_ptr<Device> open_device(int index);
// "CL_OUT_OF_RESOURCES" etc.
const char* error_name(int code);

}  // namespace harness::backend::opencl
