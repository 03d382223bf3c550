#include "harness/core/work.h"

namespace harness {

Work& Work::items(const std::string& kind, std::uint64_t n, const std::string& phase) {
  for (auto& i : items_) {
    if (i.kind == kind && i.phase == phase) {
      i.count += n;
      return *this;
    }
  }
  items_.push_back({kind, n, phase});
  return *this;
}

Traffic& Work::entry(const std::string& lvl, const std::string& phase, const std::string& ceiling) {
  for (auto& t : traffic_) {
    if (t.level == lvl && t.phase == phase && t.ceiling == ceiling) return t;
  }
  traffic_.push_back({lvl, 0, 0, phase, ceiling});
  return traffic_.back();
}

Work& Work::reads(const std::string& lvl, std::uint64_t bytes, const std::string& phase,
                  const std::string& ceiling) {
  entry(lvl, phase, ceiling).read += bytes;
  return *this;
}

Work& Work::writes(const std::string& lvl, std::uint64_t bytes, const std::string& phase,
                   const std::string& ceiling) {
  entry(lvl, phase, ceiling).written += bytes;
  return *this;
}

Work& Work::add(const Work& other) {
  for (const ItemCount& c : other.items_) items(c.kind, c.count, c.phase);
  for (const Traffic& t : other.traffic_) {
    if (t.read == 0 && t.written == 0) continue;
    Traffic& into = entry(t.level, t.phase, t.ceiling);
    into.read += t.read;
    into.written += t.written;
  }
  return *this;
}

std::uint64_t Work::item(const std::string& kind) const {
  std::uint64_t n = 0;
  for (const auto& i : items_) n += i.kind == kind ? i.count : 0;
  return n;
}

nlohmann::json Work::to_json() const {
  nlohmann::json items = nlohmann::json::object(), phases = nlohmann::json::object();
  for (const auto& i : items_) {
    items[i.kind] = item(i.kind);
    if (i.phase != kTotal) phases[i.kind] = i.phase;
  }
  nlohmann::json bytes = nlohmann::json::array();
  for (const auto& t : traffic_) {
    nlohmann::json b = {
        {"level", t.level}, {"read", t.read}, {"written", t.written}, {"phase", t.phase}};
    if (!t.ceiling.empty()) b["ceiling"] = t.ceiling;
    bytes.push_back(std::move(b));
  }
  nlohmann::json out = {{"input_bytes", input_bytes}, {"items", items}, {"bytes", bytes}};
  if (!phases.empty()) out["item_phases"] = phases;
  return out;
}

}  // namespace harness
