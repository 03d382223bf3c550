#include "harness/core/ceilings.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "harness/core/stats.h"

namespace harness {
nlohmann::json measure_ceilings(backend::Device& device, std::size_t bytes, int reps) {
  auto& q = device.queue();
  backend::Buffer a = device.allocate(bytes), b = device.allocate(bytes);
  backend::HostBuffer host = device.allocate_host(bytes, true);
  std::memset(host.data(), 1, bytes);
  q.write(a, 0, host.data(), bytes);  // first touch
  q.copy(b, 0, a, 0, bytes);
  q.finish();
  q.take_spans();
  std::vector<double> d2d, h2d;
  for (int r = 0; r < reps; ++r) {
    q.begin_span("d2d");
    q.copy(b, 0, a, 0, bytes);
    q.end_span();
    q.begin_span("h2d");
    q.write(a, 0, host.data(), bytes);
    q.end_span();
    for (auto& s : q.take_spans()) (s.name == "d2d" ? d2d : h2d).push_back(s.milliseconds);
  }
  const auto& info = device.info();
  auto entry = [&](const char* name, double gbps, std::string method) {
    return nlohmann::json{{"backend", backend::kind_name(info.kind)},
                          {"device_index", info.index},
                          {"name", name},
                          {"value", gbps},
                          {"unit", "GB/s"},
                          {"method", std::move(method)}};
  };
  const double gb = static_cast<double>(bytes) / 1e9;
  // A device whose queue reports no timing (0 ms) gives no ceiling rather than infinity.
  auto rate = [](double gigabytes, double ms) { return ms > 0 ? gigabytes / (ms / 1e3) : 0.0; };
  double mib = static_cast<double>(bytes) / 1048576.0;
  return nlohmann::json::array(
      {entry("d2d_copy", rate(2.0 * gb, stats::median(d2d)),
             fmt::format("device-to-device copy of {:.0f} MiB, bytes read + written, median of {}",
                         mib, reps)),
       entry("h2d_pinned", rate(gb, stats::median(h2d)),
             fmt::format("host-to-device copy of {:.0f} MiB from pinned host memory, median of {}",
                         mib, reps))});
}

}  // namespace harness
