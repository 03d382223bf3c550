// Pieces every microbenchmark family shares (micro/memory, micro/atomics):
// launch-knob declarations, work-group checks, fill launches, probe timing and
// exact checksum comparison.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/core/registry.h"

namespace harness::micro {

// The launch knobs most micro variants declare: work-items per group and
// work-groups (0: one per compute unit).
ParamDecl group_size_param(std::uint64_t def = 256);
ParamDecl groups_param(std::uint64_t def = 0);
// The work-groups of a point: the `groups` parameter, 0 meaning one per compute unit.
std::uint32_t resolve_groups(const backend::DeviceInfo& info, std::uint32_t groups);
// "" when `group_size` can run on the device, else why not (for skip()).
std::string group_size_problem(const backend::DeviceInfo& info, std::uint32_t group_size);
// A launch that covers `items` with a grid-stride loop (fills): groups of up
// to 256 work-items, at most 4096 groups.
backend::LaunchShape fill_shape(const backend::DeviceInfo& info, std::uint64_t items);
// The device of a point; UsageError naming family/variant for the cpu backend.
backend::Device& point_device(const PointContext& ctx, const std::string& family,
                              const std::string& variant);

// Median device time of `launch` (ms) over `reps` runs after one warm-up;
// `reset` (untimed, may be empty) runs before each. RunError naming `what`
// when the device reports no time.
double median_kernel_ms(backend::Device& device, const std::function<void(backend::Queue&)>& launch,
                        const std::function<void(backend::Queue&)>& reset, int reps,
                        const std::string& what);

// Exact comparison of per-work-item checksums: "" when equal, else the count of
// differences and the first three (index, expected, got).
std::string compare_checksums(const std::vector<std::uint32_t>& expected,
                              const std::vector<std::uint32_t>& got);

}  // namespace harness::micro
