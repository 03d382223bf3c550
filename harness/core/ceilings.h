// Ceilings measured on the device in the same run, so results can be stated as
// fractions of the limit: device-to-device copy and host-to-device copy
// bandwidth (GB/s = 1e9 bytes/s, bytes read + written for the D2D copy).
#pragma once

#include <nlohmann/json.hpp>

#include "harness/backend/backend.h"

namespace harness {
// Each entry: {backend, device_index, name, value, unit, method}. `bytes` is the
// copy size (the median of `reps` timed copies after one warm-up).
nlohmann::json measure_ceilings(backend::Device& device, std::size_t bytes, int reps = 5);
}  // namespace harness
