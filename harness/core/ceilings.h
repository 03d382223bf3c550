// Ceilings measured on the device in the same run, so results can be stated as
// fractions of the limit: device-to-device copy bandwidth, host-to-device copy
// bandwidth from pinned and from pageable host memory, and device-to-host into
// pinned memory (GB/s = 1e9 bytes/s, bytes read + written for the D2D copy).
#pragma once

#include <nlohmann/json.hpp>

#include "harness/backend/backend.h"

namespace harness {
// Entries, in order: d2d_copy, h2d_pinned, h2d_pageable, d2h_pinned; each
// {backend, device_index, name, value, unit, method}, and the host copies also
// {host_memory: "pinned"|"pageable"} (the memory actually used: pinned memory
// too large for the backend to pin falls back to pageable). `bytes` is the copy
// size (the median of `reps` timed copies after one warm-up).
nlohmann::json measure_ceilings(backend::Device& device, std::size_t bytes, int reps = 5);
}  // namespace harness
