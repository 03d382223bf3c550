#include "harness/runner/experiment.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "datasets/dataset.h"
#include "harness/core/embedded_files.h"
#include "harness/core/errors.h"

namespace harness {
namespace {

using nlohmann::json;

const json& require(const json& j, const char* key, json::value_t type, const std::string& origin) {
  if (!j.contains(key)) throw UsageError(origin + ": missing field '" + key + "'");
  const json& v = j.at(key);
  bool ok = v.type() == type || (type == json::value_t::number_integer && v.is_number_integer());
  if (!ok) throw UsageError(origin + ": field '" + key + "' has the wrong type");
  return v;
}

std::string text_field(const json& j, const char* key, const std::string& origin) {
  return require(j, key, json::value_t::string, origin).get<std::string>();
}

std::vector<std::string> string_list(const json& j, const char* key, const std::string& origin) {
  const json& arr = require(j, key, json::value_t::array, origin);
  std::vector<std::string> out;
  for (const auto& v : arr) {
    if (!v.is_string()) throw UsageError(origin + ": '" + key + "' must list strings");
    out.push_back(v.get<std::string>());
  }
  if (out.empty()) throw UsageError(origin + ": '" + key + "' is empty");
  return out;
}

}  // namespace

Experiment parse_experiment(const std::string& text, const std::string& origin) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw UsageError(origin + ": malformed experiment spec: " + e.what());
  }
  if (!j.is_object()) throw UsageError(origin + ": an experiment spec must be a JSON object");
  Experiment e;
  e.id = text_field(j, "id", origin);
  e.title = text_field(j, "title", origin);
  e.seed = text_field(j, "seed", origin);
  e.claim = text_field(j, "claim", origin);
  e.verdict_rule = text_field(j, "verdict_rule", origin);
  e.verdict = require(j, "verdict", json::value_t::object, origin);
  if (j.contains("plot")) e.plot = require(j, "plot", json::value_t::object, origin);
  e.dataset = text_field(j, "dataset", origin);
  datasets::find_generator(e.dataset);  // throws for an unknown dataset
  if (j.contains("dataset_seed"))
    e.seed_value =
        require(j, "dataset_seed", json::value_t::number_integer, origin).get<std::uint64_t>();

  const Registry& reg = Registry::instance();
  for (const auto& r : require(j, "runs", json::value_t::array, origin)) {
    ExperimentRun run;
    run.framework = text_field(r, "framework", origin);
    run.variants = string_list(r, "variants", origin);
    run.apps = string_list(r, "apps", origin);
    if (r.contains("params")) {
      for (const auto& [k, v] : require(r, "params", json::value_t::object, origin).items()) {
        run.params[k] = v.is_string() ? v.get<std::string>() : v.dump();
      }
    }
    for (const auto& v : run.variants) {
      const VariantInfo& info = reg.find_variant(run.framework, v);
      for (const auto& app : run.apps) {
        reg.find_app(app);
        if (!info.runs_app(app))
          throw UsageError(origin + ": " + run.framework + "/" + v + " does not run app '" + app +
                           "'");
      }
      for (const auto& [k, _] : run.params) {
        if (!info.default_params.count(k)) {
          throw UsageError(origin + ": " + run.framework + "/" + v + " has no parameter '" + k +
                           "'");
        }
      }
    }
    e.runs.push_back(std::move(run));
  }
  if (e.runs.empty()) throw UsageError(origin + ": 'runs' is empty");

  for (const auto& [preset, labels] : require(j, "sizes", json::value_t::object, origin).items()) {
    if (!labels.is_array() || labels.empty())
      throw UsageError(origin + ": sizes." + preset + " must be a non-empty list");
    for (const auto& l : labels) {
      if (!l.is_string())
        throw UsageError(origin + ": sizes." + preset + " must list size strings");
      datasets::parse_size(l.get<std::string>());
      e.sizes[preset].push_back(l.get<std::string>());
    }
  }
  for (const auto& [preset, n] : require(j, "reps", json::value_t::object, origin).items()) {
    if (!n.is_number_integer() || n.get<int>() < 1)
      throw UsageError(origin + ": reps." + preset + " must be a positive integer");
    e.reps[preset] = n.get<int>();
  }
  for (const char* p : {"ci", "gpu", "paper"}) {
    if (!e.sizes.count(p) || !e.reps.count(p)) {
      throw UsageError(
          origin + ": sizes and reps must name the presets ci, gpu and paper (missing " + p + ")");
    }
  }
  return e;
}

std::vector<Experiment> embedded_experiments() {
  std::vector<Experiment> out;
  for (const auto& f : embedded_files()) {
    if (f.path.rfind("paper/experiments/", 0) == 0 && f.path.size() > 5 &&
        f.path.substr(f.path.size() - 5) == ".json") {
      out.push_back(parse_experiment(std::string(f.contents), std::string(f.path)));
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

Experiment find_experiment(const std::string& id_or_path) {
  if (id_or_path.size() > 5 && id_or_path.substr(id_or_path.size() - 5) == ".json") {
    std::ifstream in(id_or_path);
    if (!in) throw UsageError("cannot read experiment spec '" + id_or_path + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_experiment(ss.str(), id_or_path);
  }
  std::string known;
  for (auto& e : embedded_experiments()) {
    if (e.id == id_or_path) return e;
    known += (known.empty() ? "" : ", ") + e.id;
  }
  throw UsageError("unknown experiment '" + id_or_path + "' (known: " + known + ")");
}

}  // namespace harness
