#include "harness/core/ceilings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/stats.h"

namespace harness {
namespace {

struct Probes {
  std::mutex mutex;
  std::vector<std::pair<std::string, CeilingProbe>> list;
};

Probes& probes() {
  static Probes p;
  return p;
}

}  // namespace

nlohmann::json measure_copies(backend::Device& device, std::size_t bytes, int reps) {
  auto& q = device.queue();
  backend::Buffer a = device.allocate(bytes), b = device.allocate(bytes);
  // Pinned on every backend that can pin (OpenCL too); kind() says what was had.
  backend::HostBuffer pinned = device.allocate_host(bytes, backend::HostMemory::pinned);
  backend::HostBuffer pageable = device.allocate_host(bytes, backend::HostMemory::pageable);
  std::memset(pinned.data(), 1, bytes);
  std::memset(pageable.data(), 2, bytes);
  q.write(a, 0, pinned.data(), bytes);  // first touch
  q.copy(b, 0, a, 0, bytes);
  q.read(pinned.data(), b, 0, bytes);
  q.write(a, 0, pageable.data(), bytes);
  q.read(pageable.data(), b, 0, bytes);
  q.finish();
  q.take_spans();
  std::map<std::string, std::vector<double>> ms;
  for (int r = 0; r < reps; ++r) {
    q.begin_span("d2d_copy");
    q.copy(b, 0, a, 0, bytes);
    q.end_span();
    q.begin_span("h2d_pinned");
    q.write(a, 0, pinned.data(), bytes);
    q.end_span();
    q.begin_span("h2d_pageable");
    q.write(a, 0, pageable.data(), bytes);
    q.end_span();
    q.begin_span("d2h_pinned");
    q.read(pinned.data(), b, 0, bytes);
    q.end_span();
    q.begin_span("d2h_pageable");
    q.read(pageable.data(), b, 0, bytes);
    q.end_span();
    for (auto& s : q.take_spans()) ms[s.name].push_back(s.milliseconds);
  }
  auto entry = [&](const char* name, double gbps, std::string method) {
    return nlohmann::json{
        {"name", name}, {"value", gbps}, {"unit", "GB/s"}, {"method", std::move(method)}};
  };
  const double gb = static_cast<double>(bytes) / 1e9;
  // A device whose queue reports no timing (0 ms) gives no ceiling rather than infinity.
  auto rate = [](double gigabytes, double milliseconds) {
    return milliseconds > 0 ? gigabytes / (milliseconds / 1e3) : 0.0;
  };
  double mib = static_cast<double>(bytes) / 1048576.0;
  // Host copies: the host memory they used ("pinned" or "pageable", as allocated).
  auto host_copy = [&](const char* name, const char* direction, const backend::HostBuffer& host) {
    const char* memory = backend::host_memory_name(host.kind());
    nlohmann::json e =
        entry(name, rate(gb, stats::median(ms[name])),
              fmt::format("{} copy of {:.0f} MiB {} {} host memory, median of {}", direction, mib,
                          direction[0] == 'h' ? "from" : "into", memory, reps));
    e["host_memory"] = memory;
    return e;
  };
  return nlohmann::json::array(
      {entry("d2d_copy", rate(2.0 * gb, stats::median(ms["d2d_copy"])),
             fmt::format("device-to-device copy of {:.0f} MiB, bytes read + written, median of {}",
                         mib, reps)),
       host_copy("h2d_pinned", "host-to-device", pinned),
       host_copy("h2d_pageable", "host-to-device", pageable),
       host_copy("d2h_pinned", "device-to-host", pinned),
       host_copy("d2h_pageable", "device-to-host", pageable)});
}

void register_ceiling_probe(const std::string& name, CeilingProbe probe) {
  Probes& p = probes();
  std::lock_guard lock(p.mutex);
  for (auto& [n, f] : p.list) {
    if (n == name) {
      f = std::move(probe);
      return;
    }
  }
  p.list.emplace_back(name, std::move(probe));
}

std::vector<std::string> ceiling_probe_names() {
  Probes& p = probes();
  std::lock_guard lock(p.mutex);
  std::vector<std::string> names;
  for (const auto& [n, f] : p.list) names.push_back(n);
  return names;
}

nlohmann::json measure_ceilings(backend::Device& device, std::size_t bytes, int reps) {
  nlohmann::json out = measure_copies(device, bytes, reps);
  std::vector<std::pair<std::string, CeilingProbe>> list;
  {
    Probes& p = probes();
    std::lock_guard lock(p.mutex);
    list = p.list;
  }
  for (const auto& [name, probe] : list) {
    try {
      nlohmann::json got = probe(device, bytes);
      if (got.is_object()) got = nlohmann::json::array({got});
      for (auto& e : got) out.push_back(std::move(e));
    } catch (const std::exception& e) {
      std::cerr << fmt::format("  (ceiling probe {} failed on {}: {}; skipped)\n", name,
                               device.info().name, e.what());
    }
  }
  const auto& info = device.info();
  nlohmann::json tagged = nlohmann::json::array();
  for (auto& e : out) {
    nlohmann::json t = {{"backend", backend::kind_name(info.kind)}, {"device_index", info.index}};
    for (auto& [k, v] : e.items()) t[k] = v;
    tagged.push_back(std::move(t));
  }
  return tagged;
}

}  // namespace harness
