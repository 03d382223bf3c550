// OpenCL implementation of the backend layer (any platform: PoCL on CPUs,
// NVIDIA's driver, AMD). Devices of all platforms are numbered in one list.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/backend/backend.h"

namespace harness::backend::opencl {

std::vector<DeviceInfo> list_devices(std::string* why_none);
// `refine` (when given) adjusts the device's DeviceInfo before it is opened;
// backend.cpp uses it to correct NVIDIA's L2 size from the CUDA device.
std::unique_ptr<Device> open_device(int index, const std::function<void(DeviceInfo&)>& refine = {});
// "CL_OUT_OF_RESOURCES" etc.
const char* error_name(int code);

}  // namespace harness::backend::opencl
