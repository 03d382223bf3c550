#include "harness/core/rates.h"

namespace harness {
namespace {

// Preferred ceiling names per level or item kind, first measured one wins.
const std::map<std::string, std::vector<std::string>>& byte_ceilings() {
  static const std::map<std::string, std::vector<std::string>> m = {
      {level::dram, {"dram_read", "d2d_copy"}},
      {level::l2, {"l2_read"}},
      {level::shared, {"shared_read"}},
      {level::h2d, {"h2d_pinned"}},
      {level::d2h, {"d2h_pinned"}},
      {level::host, {"host_read"}},
  };
  return m;
}
const std::map<std::string, std::vector<std::string>>& item_ceilings() {
  static const std::map<std::string, std::vector<std::string>> m = {
      {"atomics", {"atomic_add_distinct"}},
      {"inserts", {"atomic_cas_random"}},
  };
  return m;
}

nlohmann::json rate_entry(const std::string& name, const std::string& kind, double value,
                          const std::string& over, const std::string& ceiling,
                          const std::map<std::string, double>& measured) {
  nlohmann::json r = {{"name", name},
                      {"kind", kind},
                      {"value", value},
                      {"unit", kind == "bytes" ? "GB/s" : "G/s"},
                      {"over", over},
                      {"ceiling", nullptr},
                      {"ceiling_value", nullptr},
                      {"fraction", nullptr}};
  auto it = ceiling.empty() ? measured.end() : measured.find(ceiling);
  if (it != measured.end() && it->second > 0) {
    r["ceiling"] = ceiling;
    r["ceiling_value"] = it->second;
    r["fraction"] = value / it->second;
  }
  return r;
}

}  // namespace

std::string ceiling_for(const std::string& name, bool is_bytes,
                        const std::map<std::string, double>& measured) {
  const auto& table = is_bytes ? byte_ceilings() : item_ceilings();
  auto it = table.find(name);
  if (it == table.end()) return "";
  for (const auto& c : it->second) {
    if (measured.count(c)) return c;
  }
  return "";
}

nlohmann::json compute_rates(const Work& work, const std::map<std::string, double>& median_ms,
                             const nlohmann::json& device_ceilings, const std::string& backend,
                             int device_index, const std::string& input_host_memory) {
  std::map<std::string, double> measured;
  for (const auto& c : device_ceilings) {
    if (c.value("backend", "") == backend && c.value("device_index", -1) == device_index)
      measured[c.value("name", "")] = c.value("value", 0.0);
  }
  auto seconds = [&](const std::string& phase) -> double {
    auto it = median_ms.find(phase == kTotal ? "total_ms" : phase);
    return it == median_ms.end() ? 0.0 : it->second / 1e3;
  };
  nlohmann::json out = nlohmann::json::array();
  for (const Traffic& t : work.traffic()) {
    const double s = seconds(t.phase);
    if (s <= 0) continue;
    const std::string name = t.phase == kTotal ? t.level : t.level + "@" + t.phase;
    std::string ceiling = t.ceiling.empty() ? ceiling_for(t.level, true, measured) : t.ceiling;
    if (t.ceiling.empty() && t.level == level::h2d && input_host_memory == "pageable")
      ceiling = "h2d_pageable";
    const double gbps = static_cast<double>(t.read + t.written) / 1e9 / s;
    out.push_back(rate_entry(name, "bytes", gbps, t.phase == kTotal ? "total_ms" : t.phase, ceiling,
                             measured));
  }
  for (const ItemCount& i : work.item_counts()) {
    const double s = seconds(i.phase);
    if (s <= 0) continue;
    const std::string name = i.phase == kTotal ? i.kind : i.kind + "@" + i.phase;
    out.push_back(rate_entry(name, "items", static_cast<double>(i.count) / 1e9 / s,
                             i.phase == kTotal ? "total_ms" : i.phase,
                             ceiling_for(i.kind, false, measured), measured));
  }
  return out;
}

}  // namespace harness
