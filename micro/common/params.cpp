// Launch-knob declarations and checksum comparison shared by the micro families.
#include "micro/common/params.h"

#include <fmt/format.h>

#include <algorithm>

#include "datasets/dataset.h"
#include "harness/core/errors.h"
#include "harness/core/stats.h"

namespace harness::micro {

ParamDecl group_size_param(std::uint64_t def) {
  return unsigned_param("group_size", def, 1, 1024, "work-items per work-group");
}

ParamDecl groups_param(std::uint64_t def) {
  return unsigned_param("groups", def, 0, UINT32_MAX, "work-groups; 0: one per compute unit");
}

std::uint32_t resolve_groups(const backend::DeviceInfo& info, std::uint32_t groups) {
  return groups ? groups : static_cast<std::uint32_t>(std::max(1, info.compute_units));
}

std::string group_size_problem(const backend::DeviceInfo& info, std::uint32_t group_size) {
  if (group_size == 0) throw UsageError("group_size must be at least 1");
  if (info.max_work_group_size > 0 &&
      group_size > static_cast<std::uint32_t>(info.max_work_group_size))
    return fmt::format("{} allows at most {} work-items per group", info.name,
                       info.max_work_group_size);
  return "";
}

backend::LaunchShape fill_shape(const backend::DeviceInfo& info, std::uint64_t items) {
  const std::uint32_t group =
      info.max_work_group_size > 0
          ? std::min<std::uint32_t>(256, static_cast<std::uint32_t>(info.max_work_group_size))
          : 256;
  const std::uint64_t groups = std::clamp<std::uint64_t>((items + group - 1) / group, 1, 4096);
  return {static_cast<std::uint32_t>(groups), group};
}

backend::Device& point_device(const PointContext& ctx, const std::string& family,
                              const std::string& variant) {
  if (!ctx.device)
    throw UsageError(family + "/" + variant + " needs a GPU backend (opencl or cuda)");
  return *ctx.device;
}

std::string compare_checksums(const std::vector<std::uint32_t>& expected,
                              const std::vector<std::uint32_t>& got) {
  if (expected.size() != got.size())
    return fmt::format("{} checksums, expected {}", got.size(), expected.size());
  std::size_t wrong = 0;
  std::string first;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] == got[i]) continue;
    if (++wrong <= 3)
      first +=
          fmt::format("{}[{}] expected {} got {}", wrong > 1 ? "; " : "", i, expected[i], got[i]);
  }
  if (wrong == 0) return "";
  return fmt::format("{} of {} work-item checksums differ from the closed form: {}", wrong,
                     expected.size(), first);
}

double median_kernel_ms(backend::Device& device, const std::function<void(backend::Queue&)>& launch,
                        const std::function<void(backend::Queue&)>& reset, int reps,
                        const std::string& what) {
  auto& q = device.queue();
  std::vector<double> ms;
  for (int r = 0; r <= reps; ++r) {
    if (reset) reset(q);
    q.finish();
    q.take_spans();
    q.begin_span("probe");
    launch(q);
    q.end_span();
    for (auto& s : q.take_spans()) {
      if (r > 0) ms.push_back(s.milliseconds);
    }
  }
  const double m = stats::median(ms);
  if (!(m > 0)) throw RunError(what + ": the device reported no time for its kernel");
  return m;
}

}  // namespace harness::micro
