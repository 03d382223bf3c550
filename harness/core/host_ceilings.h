// The host's own ceiling: memory read bandwidth on every core (host_read),
// the limit the CPU baselines' rates are judged against (level::host).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>

namespace harness {

// Entries {backend: "cpu", device_index: 0, name: "host_read", value (GB/s),
// unit, method}: all hardware threads sum disjoint slices of a `bytes`
// buffer (first touched by the thread that reads it), the median of `reps`
// timed passes after one warm-up.
nlohmann::json measure_host_ceilings(std::size_t bytes, int reps = 5);

}  // namespace harness
