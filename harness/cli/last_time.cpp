#include "harness/cli/last_time.h"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

namespace harness::cli {
namespace {

std::optional<std::time_t> parse_utc(const nlohmann::json& doc, const char* key) {
  if (!doc.contains(key) || !doc.at(key).is_string()) return std::nullopt;
  std::tm tm{};
  std::istringstream in(doc.at(key).get<std::string>());
  in >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%S");
  if (in.fail()) return std::nullopt;
  return timegm(&tm);
}

std::optional<nlohmann::json> read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  return doc;
}

}  // namespace

std::optional<double> document_wall_seconds(const nlohmann::json& doc) {
  if (doc.contains("wall_s") && doc.at("wall_s").is_number() && doc.at("wall_s").get<double>() >= 0)
    return doc.at("wall_s").get<double>();
  const auto start = parse_utc(doc, "started_at"), end = parse_utc(doc, "updated_at");
  if (!start || !end || *end < *start) return std::nullopt;
  return static_cast<double>(*end - *start);
}

LastTime last_wall_time(const std::string& id, const std::string& preset,
                        const std::string& backend, const std::string& out_path,
                        const std::string& reference_dir) {
  if (auto doc = read_json(out_path)) {
    if (auto s = document_wall_seconds(*doc)) return {s, out_path};
  }
  // The slowest document of each set of backends it ran on: a run
  // restricted to one backend is bounded by that backend's slowest; an
  // unrestricted run by its slowest whole run, or the sum of its backends'
  // slowest single-backend runs, whichever is more.
  std::map<std::string, LastTime> slowest;  // backends of a document -> its slowest
  std::error_code ec;
  const std::string prefix = id + "." + (backend.empty() ? "" : backend + ".");
  for (const auto& entry : std::filesystem::directory_iterator(reference_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || entry.path().extension() != ".json") continue;
    const auto doc = read_json(entry.path().string());
    if (!doc || !doc->contains("experiment") || !(*doc)["experiment"].is_object() ||
        (*doc)["experiment"].value("id", "") != id ||
        (*doc)["experiment"].value("preset", "") != preset)
      continue;
    const auto s = document_wall_seconds(*doc);
    if (!s) continue;
    std::set<std::string> ran;
    if (doc->contains("points") && (*doc)["points"].is_array()) {
      for (const auto& p : (*doc)["points"]) {
        if (p.is_object() && p.value("status", "") != "skipped")
          ran.insert(p.value("backend", "?"));
      }
    }
    std::string key;
    for (const auto& b : ran) key += (key.empty() ? "" : ",") + b;
    LastTime& best = slowest[key];
    if (!best.seconds || *s > *best.seconds) best = {s, entry.path().string()};
  }
  LastTime whole, singles;
  for (const auto& [key, t] : slowest) {
    if (key.find(',') != std::string::npos) {
      if (!whole.seconds || *t.seconds > *whole.seconds) whole = t;
    } else {
      singles.seconds = singles.seconds.value_or(0) + *t.seconds;
      singles.source += (singles.source.empty() ? "" : " + ") + t.source;
    }
  }
  if (!singles.seconds || (whole.seconds && *whole.seconds >= *singles.seconds)) return whole;
  return singles;
}

}  // namespace harness::cli
