// KernelPoint (what every memory point shares) and the sizes "0" stands for
// (the parameter helpers are in micro/common/params.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <ostream>

#include "datasets/dataset.h"
#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"
#include "harness/core/validation.h"
#include "micro/memory/internal.h"

namespace harness::memory {

AutoSizes auto_sizes(const backend::DeviceInfo& info) {
  AutoSizes s{};
  if (info.type == "gpu") {
    const std::uint64_t l2 = info.l2_cache_bytes ? info.l2_cache_bytes : (std::uint64_t{48} << 20);
    s.l2_working_set = l2 / 4;    // H200: 15 MiB of 60; a quarter stays clear of both L2 halves
    s.dram_working_set = l2 * 8;  // H200: 480 MiB
    s.scan_input = std::uint64_t{1} << 31;  // 2 GiB: every work-item of 264 x 1024 has chunks
    s.global_steps = 4096;
    s.shared_steps = 16384;
  } else {  // PoCL and other CPU devices: sizes for CI
    s.l2_working_set = std::uint64_t{128} << 10;
    s.dram_working_set = std::uint64_t{8} << 20;
    s.scan_input = std::uint64_t{1} << 20;
    s.global_steps = 64;
    s.shared_steps = 256;
  }
  return s;
}

KernelPoint::KernelPoint(const PointContext& ctx)
    : device_(*ctx.device),
      group_size_(param_u32(ctx.params, "group_size")),
      groups_(resolve_groups(ctx.device->info(), param_u32(ctx.params, "groups"))) {}

KernelPoint::KernelPoint(const PointContext& ctx, std::uint32_t groups)
    : device_(*ctx.device), group_size_(param_u32(ctx.params, "group_size")), groups_(groups) {}

void KernelPoint::allocate_output(std::uint64_t checksums) {
  got_.assign(checksums ? checksums : threads(), 0);
  d_out_ = device_.allocate(got_.size() * 4);
}

void KernelPoint::before_repetition() {
  std::fill(got_.begin(), got_.end(), 0xffffffffu);
  auto& q = device_.queue();
  q.write(d_out_, 0, got_.data(), got_.size() * 4);
  q.finish();
  q.take_spans();
}

Measurement KernelPoint::run_once() {
  auto& q = device_.queue();
  Measurement m;
  Stopwatch total;
  q.begin_span("kernel");
  launch(q);
  q.end_span();
  if (has_checksum_kernel()) {
    q.begin_span("checksum");
    launch_checksum(q);
    q.end_span();
  }
  q.begin_span("copy_out");
  q.read(got_.data(), d_out_, 0, got_.size() * 4);
  q.end_span();
  q.finish();
  m.total_ms = total.elapsed_ms();
  kernel_ms_ = 0;
  for (auto& s : q.take_spans()) {
    if (s.name == "kernel") kernel_ms_ = s.milliseconds;
    m.phases.push_back({s.name, s.milliseconds});
  }
  add_counters(m);
  return m;
}

std::string KernelPoint::validate_last() {
  if (std::string bad = compare_checksums(expected_, got_); !bad.empty()) return bad;
  const double seconds = kernel_ms_ / 1e3;
  const double gb = static_cast<double>(delivered_bytes()) / 1e9;
  return check_sane(
      {{"kernel_ms", kernel_ms_},
       {"delivered_gbps", seconds > 0 ? gb / seconds : 0.0},
       {"used_gbps", seconds > 0 ? static_cast<double>(used_bytes()) / 1e9 / seconds : 0.0}});
}

void KernelPoint::dump_output(std::ostream& out) const {
  for (std::size_t i = 0; i < got_.size(); ++i) out << i << '\t' << got_[i] << '\n';
}

}  // namespace harness::memory
