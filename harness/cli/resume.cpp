#include "harness/cli/resume.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <utility>
#include <vector>

#include "harness/core/registry.h"

namespace harness::cli {
namespace {

using nlohmann::json;

std::string text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  return v.is_null() ? "none" : v.dump();
}

// (index, name) of a document's devices of one backend, by index.
std::vector<std::pair<long long, std::string>> devices_of(const json& env, const std::string& b) {
  std::vector<std::pair<long long, std::string>> out;
  const json* list = env.is_object() && env.contains("devices") ? &env.at("devices") : nullptr;
  if (!list || !list->is_array()) return out;
  for (const auto& d : *list) {
    if (!d.is_object() || d.value("backend", json()) != b) continue;
    const json& i = d.value("index", json());
    out.emplace_back(i.is_number_integer() ? i.get<long long>() : -1,
                     text(d.value("name", json())));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string describe(const std::vector<std::pair<long long, std::string>>& devices) {
  if (devices.empty()) return "none";
  std::string s;
  for (const auto& [i, name] : devices) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", i, name);
  return s;
}

ResumeCheck rerun(std::string why) { return {false, std::move(why), {}}; }

}  // namespace

ResumeCheck check_resume(const json& doc, const ResumeTarget& t) {
  auto has = [&doc](const char* key, json::value_t type) {
    return doc.contains(key) && doc.at(key).type() == type;
  };
  if (!doc.is_object() || !doc.contains("complete") || !has("experiment", json::value_t::object) ||
      !has("environment", json::value_t::object) || !has("points", json::value_t::array)) {
    return rerun("the file is not a results document");
  }
  if (doc.at("complete") != true) return rerun("the results document is incomplete");
  const json& exp = doc.at("experiment");
  if (exp.value("id", json()) != t.experiment_id) {
    return rerun(fmt::format("the document holds experiment {}", text(exp.value("id", json()))));
  }
  const json& env = doc.at("environment");
  for (const char* key : {"harness_version", "git_sha", "build_type"}) {
    const json then = env.value(key, json()), now = t.environment.value(key, json());
    if (then != now) {
      return rerun(
          fmt::format("made by another build ({} {}, now {})", key, text(then), text(now)));
    }
  }
  const json preset = exp.value("preset", json());
  if (preset != t.preset) {
    return rerun(fmt::format("made at preset {}, not {}", text(preset), t.preset));
  }
  for (const auto& b : t.backends) {
    auto then = devices_of(env, b), now = devices_of(t.environment, b);
    if (then != now) {
      return rerun(fmt::format("the {} devices differ (then: {}; now: {})", b, describe(then),
                               describe(now)));
    }
  }
  const std::string restriction =
      t.backend ? fmt::format("under --backend {}", *t.backend) : "without --backend";
  std::set<std::string> measured;
  for (const auto& p : doc.at("points")) {
    const json b = p.is_object() ? p.value("backend", json()) : json();
    // A variant that runs nowhere in such a run is recorded as skipped on its own backend.
    const bool skipped = p.is_object() && p.value("status", json()) == "skipped";
    if (skipped && b.is_string() && !t.backends.count(b.get<std::string>())) continue;
    if (!b.is_string() || !t.backends.count(b.get<std::string>())) {
      return rerun(
          fmt::format("it has points on {}, which a run {} does not use", text(b), restriction));
    }
    measured.insert(b.get<std::string>());
  }
  for (const auto& b : t.backends) {
    if (!measured.count(b) && !devices_of(t.environment, b).empty()) {
      return rerun(fmt::format("it has no point on {}, which a run {} uses", b, restriction));
    }
  }
  return {true, "", {}};
}

ResumeCheck check_resume_file(const std::string& path, const ResumeTarget& t) {
  std::ifstream in(path);
  if (!in) return {false, "", {}};
  json doc = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return rerun("the file is not valid JSON");
  ResumeCheck check = check_resume(doc, t);
  if (check.skip) check.doc = std::move(doc);
  return check;
}

ResumeTarget resume_target(const Experiment& e, const std::string& preset,
                           std::optional<backend::Kind> backend, nlohmann::json environment) {
  std::optional<std::string> restriction;
  if (backend) restriction = backend::kind_name(*backend);
  return ResumeTarget{e.id, preset, backends_used(e, preset, backend), restriction,
                      std::move(environment)};
}

std::set<std::string> backends_used(const Experiment& e, const std::string& preset,
                                    std::optional<backend::Kind> restriction) {
  using backend::Kind;
  const auto compiled = backend::compiled_kinds();
  std::set<std::string> out;
  for (const auto& run : e.runs) {
    if (!run.in_preset(preset)) continue;
    for (const auto& vname : run.variants) {
      const VariantInfo& v = Registry::instance().find_variant(run.framework, vname);
      for (Kind kind : v.backends) {
        if (std::find(compiled.begin(), compiled.end(), kind) == compiled.end()) continue;
        if (restriction && kind != Kind::cpu && *restriction != kind) continue;
        if (restriction && *restriction == Kind::cpu && kind != Kind::cpu) continue;
        out.insert(backend::kind_name(kind));
      }
    }
  }
  return out;
}

std::string results_file_name(const std::string& id, std::optional<backend::Kind> restriction) {
  return restriction ? fmt::format("{}@{}.json", id, backend::kind_name(*restriction))
                     : id + ".json";
}

}  // namespace harness::cli
