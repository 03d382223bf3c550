#include "harness/runner/experiment.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "datasets/dataset.h"
#include "harness/core/embedded_files.h"
#include "harness/core/errors.h"
#include "harness/core/sizes.h"

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

// Every spec names ci, gpu and paper; `full` (the gpu preset's longer
// sweeps) is optional and takes the gpu preset's values wherever a spec does
// not name it.
const char* const kPresets[] = {"ci", "gpu", "paper"};
constexpr const char* kFull = "full";

template <class Map>
void full_defaults_to_gpu(Map& by_preset) {
  if (!by_preset.count(kFull) && by_preset.count("gpu")) by_preset[kFull] = by_preset.at("gpu");
}

// j's "sizes": preset -> non-empty list of valid size labels.
std::map<std::string, std::vector<std::string>> parse_sizes(const json& j,
                                                            const std::string& origin) {
  std::map<std::string, std::vector<std::string>> sizes;
  for (const auto& [preset, labels] : require(j, "sizes", json::value_t::object, origin).items()) {
    if (!labels.is_array() || labels.empty())
      throw UsageError(origin + ": sizes." + preset + " must be a non-empty list");
    for (const auto& l : labels) {
      if (!l.is_string())
        throw UsageError(origin + ": sizes." + preset + " must list size strings");
      // One spelling per size in keys and results: "1 MiB" and "1048576" are "1MiB".
      sizes[preset].push_back(harness::format_size(harness::parse_size(l.get<std::string>())));
    }
  }
  return sizes;
}

// A number as a parameter string: integers without a decimal point.
std::string param_text(const json& v, const std::string& where) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number_float()) return v.dump();
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  throw UsageError(where + ": axis values must be strings, numbers or booleans");
}

// `value` of the dataset parameter `name`: its declaration's rules, then the
// generator's own (kv-pairs' sizes are multiples of 4).
void check_dataset_value(const datasets::Generator& g, const std::string& name,
                         const std::string& value, const std::string& where) {
  try {
    g.with_params(datasets::dataset_params(g, {{name, value}}));
  } catch (const UsageError& bad) {
    throw UsageError(where + ": " + bad.what());
  }
}

long long integer(const json& v, const std::string& where) {
  if (!v.is_number_integer()) throw UsageError(where + " must list integers");
  return v.get<long long>();
}

// One axis form: a list, {"pow2": [lo, hi]} or {"range": [lo, hi, step]}.
std::vector<std::string> axis_values(const json& v, const std::string& where) {
  std::vector<std::string> out;
  if (v.is_array()) {
    for (const auto& x : v) out.push_back(param_text(x, where));
  } else if (v.is_object() && v.size() == 1 && (v.contains("pow2") || v.contains("range"))) {
    const bool pow2 = v.contains("pow2");
    const json& r = pow2 ? v.at("pow2") : v.at("range");
    const std::string form = where + (pow2 ? ".pow2" : ".range");
    if (!r.is_array() || r.size() < 2 || r.size() > (pow2 ? 2u : 3u))
      throw UsageError(form + (pow2 ? " must be [lo, hi]" : " must be [lo, hi] or [lo, hi, step]"));
    const long long lo = integer(r[0], form), hi = integer(r[1], form);
    const long long step = r.size() == 3 ? integer(r[2], form) : 1;
    if (lo > hi || step < 1 || (pow2 && (lo < 1 || (lo & (lo - 1)) != 0)))
      throw UsageError(form + ": need lo <= hi" +
                       (pow2 ? ", lo a power of two" : std::string(", step >= 1")));
    for (long long x = lo; x <= hi; x = pow2 ? x * 2 : x + step) {
      out.push_back(std::to_string(x));
      if (out.size() > 4096) throw UsageError(form + " expands to more than 4096 values");
    }
  } else {
    throw UsageError(where + " must be a list, {\"pow2\": [lo, hi]}, {\"range\": [lo, hi, step]}" +
                     " or an object of those per preset (ci, gpu, full, paper)");
  }
  if (out.empty()) throw UsageError(where + " has no values");
  return out;
}

Axis parse_axis(const std::string& name, const json& v, const std::string& origin) {
  Axis axis{name, {}};
  const std::string where = origin + ": axes." + name;
  const bool per_preset = v.is_object() && !v.contains("pow2") && !v.contains("range");
  for (const char* preset : kPresets) {
    if (!per_preset) {
      axis.values[preset] = axis_values(v, where);
    } else if (v.contains(preset)) {
      axis.values[preset] = axis_values(v.at(preset), where + "." + preset);
    } else {
      throw UsageError(where + " names no values for preset " + preset);
    }
  }
  if (per_preset && v.contains(kFull)) {
    axis.values[kFull] = axis_values(v.at(kFull), where + "." + kFull);
  }
  full_defaults_to_gpu(axis.values);
  if (per_preset) {
    for (const auto& [k, _] : v.items()) {
      if (!axis.values.count(k))
        throw UsageError(where + ": unknown preset '" + k + "' (known: ci, gpu, full, paper)");
    }
  }
  return axis;
}

MeasurementPolicy parse_measurement(const json& m, const std::string& origin) {
  const std::string where = origin + ": measurement";
  MeasurementPolicy p;
  for (const auto& [k, v] : m.items()) {
    if (k == "warmup" && v.is_number_integer() && v.get<int>() >= 0) {
      p.warmup = v.get<int>();
    } else if (k == "max_reps" && v.is_number_integer() && v.get<int>() >= 1) {
      p.max_reps = v.get<int>();
    } else if (k == "target_rel_spread" && v.is_number() && v.get<double>() > 0) {
      p.target_rel_spread = v.get<double>();
    } else if (k == "max_time_s" && v.is_number() && v.get<double>() > 0) {
      p.max_time_s = v.get<double>();
    } else if (k == "cold" && v.is_boolean()) {
      p.cold = v.get<bool>();
    } else {
      throw UsageError(where + ": bad field '" + k +
                       "' (warmup >= 0, max_reps >= 1, target_rel_spread > 0, max_time_s > 0, "
                       "cold true/false)");
    }
  }
  return p;
}

ValidationPolicy parse_validation(const json& v, const std::string& origin) {
  ValidationPolicy p;
  for (const auto& [k, x] : v.items()) {
    if (k == "kind" && x.is_string()) {
      p.kind = x.get<std::string>();
    } else if ((k == "rel" || k == "abs") && x.is_number()) {
      (k == "rel" ? p.rel : p.abs) = x.get<double>();
    } else {
      throw UsageError(origin + ": validation: bad field '" + k + "' (kind, rel, abs)");
    }
  }
  try {
    check_policy(p);
  } catch (const UsageError& e) {
    throw UsageError(origin + ": validation: " + e.what());
  }
  return p;
}

// Every required field a spec lacks, in one message (a spec written by hand
// should not take one run per missing field).
void check_required_fields(const json& j, const std::string& origin) {
  std::vector<std::string> missing;
  for (const char* key : kRequiredSpecFields) {
    if (!j.contains(key)) missing.emplace_back(key);
  }
  const bool no_input = j.contains("dataset") && j.at("dataset") == kNoInput;
  if (!no_input && !j.contains("sizes")) missing.emplace_back("sizes");
  if (j.contains("runs") && j.at("runs").is_array()) {
    for (std::size_t i = 0; i < j.at("runs").size(); ++i) {
      const json& r = j.at("runs")[i];
      if (!r.is_object()) continue;
      for (const char* key : {"framework", "variants", "apps"}) {
        if (!r.contains(key)) missing.push_back("runs[" + std::to_string(i) + "]." + key);
      }
    }
  }
  if (missing.empty()) return;
  std::string names;
  for (const auto& m : missing) names += (names.empty() ? "'" : ", '") + m + "'";
  std::string required;
  for (const char* key : kRequiredSpecFields)
    required += std::string(required.empty() ? "" : ", ") + key;
  throw UsageError(origin + ": missing field" + (missing.size() > 1 ? "s " : " ") + names +
                   " (a spec needs " + required +
                   ", and sizes unless \"dataset\": \"none\"; each run framework, variants, "
                   "apps; `harness new-spec` writes a minimal one)");
}

// The spec's "axes", each a parameter of the runs' variants or apps, or of
// the generator of an input (the dataset's, an app's own: Axis::of_dataset);
// every value of every preset checked before anything runs.
std::vector<Axis> parse_axes(const json& j, const Experiment& e, const std::string& origin) {
  std::vector<Axis> axes;
  if (!j.contains("axes")) return axes;
  const Registry& reg = Registry::instance();
  std::vector<const datasets::Generator*> generators;
  if (e.dataset != kNoInput) generators.push_back(&datasets::find_generator(e.dataset));
  for (const auto& [app, ad] : e.app_datasets)
    generators.push_back(&datasets::find_generator(ad.dataset));
  for (const auto& [name, v] : require(j, "axes", json::value_t::object, origin).items()) {
    if (name == "size")
      throw UsageError(origin + ": axes.size: dataset sizes are given by 'sizes' per preset");
    Axis axis = parse_axis(name, v, origin);
    bool someone_has_it = false;
    for (const auto& run : e.runs) {
      if (run.params.count(name))
        throw UsageError(origin + ": '" + name +
                         "' is both an axis and a fixed parameter of a run");
      for (const auto& vname : run.variants) {
        for (const auto& app : run.apps) {
          const ParamDecl* d =
              find_point_param(reg.find_variant(run.framework, vname), reg.find_app(app), name);
          if (!d) continue;
          someone_has_it = true;
          for (const auto& [preset_name, values] : axis.values) {
            for (const auto& value : values) {
              try {
                check_param(*d, value);
              } catch (const UsageError& bad) {
                throw UsageError(origin + ": axis '" + name + "' (" + preset_name + ", " +
                                 run.framework + "/" + vname + "): " + bad.what());
              }
            }
          }
        }
      }
    }
    for (const datasets::Generator* g : generators) {
      if (!find_param(g->params(), name)) continue;
      if (someone_has_it)
        throw UsageError(origin + ": axis '" + name + "' names both a parameter of a point and " +
                         "one of the dataset " + g->name());
      axis.of_dataset = true;
      for (const auto& [preset_name, values] : axis.values) {
        for (const auto& value : values)
          check_dataset_value(*g, name, value,
                              origin + ": axis '" + name + "' (" + preset_name + ")");
      }
    }
    if (!someone_has_it && !axis.of_dataset)
      throw UsageError(origin + ": axis '" + name +
                       "' is a parameter of no variant, app or dataset in 'runs'");
    axes.push_back(std::move(axis));
  }
  return axes;
}

// The spec's "dataset_params": parameters of the dataset's generator, a
// value per size of each preset (or one value for all), into e.dataset_params.
void parse_dataset_params(const json& j, Experiment& e, const std::string& origin) {
  if (!j.contains("dataset_params")) return;
  const std::string where = origin + ": dataset_params";
  if (e.dataset == kNoInput) throw UsageError(where + ": the experiment has no dataset");
  const datasets::Generator& g = datasets::find_generator(e.dataset);
  for (const auto& [name, v] :
       require(j, "dataset_params", json::value_t::object, origin).items()) {
    const std::string at = where + "." + name;
    if (!find_param(g.params(), name))
      throw UsageError(at + ": the dataset " + g.name() + " has no such parameter" +
                       (g.params().empty() ? std::string(" (it has none)") : ""));
    for (const Axis& axis : e.axes) {
      if (axis.name == name) throw UsageError(at + ": '" + name + "' is also an axis");
    }
    auto& by_preset = e.dataset_params[name];
    for (const auto& [preset, labels] : e.sizes) {
      if (!v.is_object()) {
        by_preset[preset].assign(labels.size(), param_text(v, at));
        continue;
      }
      // The full preset takes the gpu preset's values when the spec names
      // none for it (its sizes default to the gpu preset's too).
      const std::string from = v.contains(preset) || preset != kFull ? preset : "gpu";
      if (!v.contains(from)) throw UsageError(at + " names no values for preset " + preset);
      const json& list = v.at(from);
      if (!list.is_array() || list.size() != labels.size())
        throw UsageError(at + "." + from + " must list one value per size of sizes." + preset +
                         " (" + std::to_string(labels.size()) + ")");
      for (const auto& x : list) by_preset[preset].push_back(param_text(x, at));
    }
    if (v.is_object()) {
      for (const auto& [k, _] : v.items()) {
        if (!e.sizes.count(k)) throw UsageError(at + ": unknown preset '" + k + "'");
      }
    }
    for (const auto& [preset, values] : by_preset) {
      for (const auto& value : values)
        check_dataset_value(g, name, value, at + " (" + preset + ")");
    }
  }
}

}  // namespace

MeasurementPolicy Experiment::policy_for(const std::string& preset,
                                         std::optional<int> reps_override) const {
  MeasurementPolicy p = measurement;
  auto it = reps.find(preset);
  p.min_reps = reps_override.value_or(it == reps.end() ? 1 : it->second);
  p.max_reps = reps_override ? p.min_reps : std::max(p.min_reps, p.max_reps);
  return p;
}

Experiment parse_experiment(const std::string& text, const std::string& origin) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw UsageError(origin + ": malformed experiment spec: " + e.what());
  }
  if (!j.is_object()) throw UsageError(origin + ": an experiment spec must be a JSON object");
  check_required_fields(j, origin);
  Experiment e;
  e.id = text_field(j, "id", origin);
  e.title = text_field(j, "title", origin);
  e.seed = text_field(j, "seed", origin);
  e.claim = text_field(j, "claim", origin);
  e.verdict_rule = text_field(j, "verdict_rule", origin);
  e.verdict = require(j, "verdict", json::value_t::object, origin);
  if (j.contains("plot")) e.plot = require(j, "plot", json::value_t::object, origin);
  e.dataset = text_field(j, "dataset", origin);
  if (e.dataset != kNoInput) datasets::find_generator(e.dataset);  // throws for an unknown one
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
    if (r.contains("presets")) {
      run.presets = string_list(r, "presets", origin);
      for (const auto& p : run.presets) {
        const bool known = p == kFull || std::any_of(std::begin(kPresets), std::end(kPresets),
                                                     [&](const char* k) { return p == k; });
        if (!known)
          throw UsageError(origin + ": runs[" + std::to_string(e.runs.size()) +
                           "].presets: unknown preset '" + p + "' (known: ci, gpu, full, paper)");
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
      for (const auto& [k, value] : run.params) {
        bool known = false;
        for (const auto& app : run.apps) {
          const ParamDecl* d = find_point_param(info, reg.find_app(app), k);
          if (!d) continue;
          known = true;
          try {
            check_param(*d, value);
          } catch (const UsageError& bad) {
            throw UsageError(origin + ": " + run.framework + "/" + v + ": " + bad.what());
          }
        }
        if (!known) {
          throw UsageError(origin + ": " + run.framework + "/" + v + " has no parameter '" + k +
                           "'");
        }
      }
    }
    e.runs.push_back(std::move(run));
  }
  if (e.runs.empty()) throw UsageError(origin + ": 'runs' is empty");
  for (const char* preset : {"ci", "gpu", kFull, "paper"}) {
    if (std::none_of(e.runs.begin(), e.runs.end(),
                     [&](const ExperimentRun& r) { return r.in_preset(preset); }))
      throw UsageError(origin + ": no run takes part in the " + preset + " preset (runs' presets)");
  }

  if (j.contains("measurement"))
    e.measurement =
        parse_measurement(require(j, "measurement", json::value_t::object, origin), origin);
  if (j.contains("validation")) {
    e.validation =
        parse_validation(require(j, "validation", json::value_t::object, origin), origin);
    e.validation_given = true;
  }

  if (e.dataset == kNoInput) {
    // Apps that make their own data: no sizes, every app must say so.
    if (j.contains("sizes"))
      throw UsageError(origin + ": 'sizes' does not go with \"dataset\": \"none\"");
    for (const auto& run : e.runs) {
      for (const auto& app : run.apps) {
        if (reg.find_app(app).reads_input && !j.contains("app_datasets"))
          throw UsageError(origin + ": app '" + app +
                           "' reads an input: give a dataset instead of \"none\"");
      }
    }
    for (const char* preset : kPresets) e.sizes[preset] = {kNoInputLabel};
  } else {
    e.sizes = parse_sizes(j, origin);
  }
  if (j.contains("gpu_memory_budget")) {
    for (const auto& [preset, v] :
         require(j, "gpu_memory_budget", json::value_t::object, origin).items()) {
      if (!v.is_string())
        throw UsageError(origin + ": gpu_memory_budget." + preset + " must be a size string");
      try {
        e.gpu_memory_budget[preset] = harness::parse_size(v.get<std::string>());
      } catch (const UsageError& bad) {
        throw UsageError(origin + ": gpu_memory_budget." + preset + ": " + bad.what());
      }
    }
  }
  for (const auto& [preset, n] : require(j, "reps", json::value_t::object, origin).items()) {
    if (!n.is_number_integer() || n.get<int>() < 1)
      throw UsageError(origin + ": reps." + preset + " must be a positive integer");
    e.reps[preset] = n.get<int>();
  }
  if (j.contains("app_datasets")) {
    for (const auto& [app, d] : require(j, "app_datasets", json::value_t::object, origin).items()) {
      const std::string where = origin + ": app_datasets." + app;
      bool used = false;
      for (const auto& run : e.runs) {
        used = used || std::find(run.apps.begin(), run.apps.end(), app) != run.apps.end();
      }
      if (!used) throw UsageError(where + ": no run runs this app");
      if (!d.is_object()) throw UsageError(where + " must be an object");
      AppDataset ad;
      ad.dataset = text_field(d, "dataset", where);
      datasets::find_generator(ad.dataset);
      ad.sizes = parse_sizes(d, where);
      for (const char* p : kPresets) {
        if (!ad.sizes.count(p)) throw UsageError(where + ": sizes must name the preset " + p);
      }
      full_defaults_to_gpu(ad.sizes);
      e.app_datasets[app] = std::move(ad);
    }
  }
  for (const char* p : kPresets) {
    if (!e.sizes.count(p) || !e.reps.count(p)) {
      throw UsageError(
          origin + ": sizes and reps must name the presets ci, gpu and paper (missing " + p + ")");
    }
  }
  full_defaults_to_gpu(e.sizes);
  full_defaults_to_gpu(e.reps);
  full_defaults_to_gpu(e.gpu_memory_budget);
  e.axes = parse_axes(j, e, origin);
  parse_dataset_params(j, e, origin);
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

std::string new_spec(const NewSpec& n) {
  const Registry& reg = Registry::instance();
  const AppInfo& app = reg.find_app(n.app);
  for (const auto& v : n.variants) {
    if (!reg.find_variant(n.framework, v).runs_app(n.app))
      throw UsageError(n.framework + "/" + v + " does not run app '" + n.app + "'");
  }
  const std::string dataset = app.reads_input ? app.default_dataset : kNoInput;
  // Sizes that the embedded experiments give this app on this dataset: per
  // preset the one they use most often (ties: the smaller), so they are known to run.
  json sizes = {{"ci", {"1MiB"}}, {"gpu", {"256MiB"}}, {"paper", {"256MiB"}}};
  std::map<std::string, std::map<std::string, int>> seen;  // preset -> size -> count
  for (const auto& e : embedded_experiments()) {
    const bool runs_app = std::any_of(e.runs.begin(), e.runs.end(), [&](const ExperimentRun& r) {
      return std::find(r.apps.begin(), r.apps.end(), n.app) != r.apps.end();
    });
    const std::map<std::string, std::vector<std::string>>* by_preset = nullptr;
    if (auto it = e.app_datasets.find(n.app); it != e.app_datasets.end()) {
      if (it->second.dataset == dataset) by_preset = &it->second.sizes;
    } else if (e.dataset == dataset && dataset != kNoInput) {
      by_preset = &e.sizes;
    }
    if (!runs_app || !by_preset) continue;
    for (const auto& [preset, labels] : *by_preset) {
      for (const auto& l : labels) ++seen[preset][l];
    }
  }
  for (const auto& [preset, counts] : seen) {
    std::string best;
    for (const auto& [label, count] : counts) {
      const int have = best.empty() ? -1 : counts.at(best);
      if (count > have || (count == have && parse_size(label) < parse_size(best))) best = label;
    }
    sizes[preset] = {best};
  }
  const std::string fw = n.framework;
  const std::string base = fw + "/" + n.variants.front(), cand = fw + "/" + n.variants.back();
  const bool two = n.variants.size() > 1;
  json j = json::object();
  j["id"] = n.id;
  j["title"] = two ? cand + " against " + base + " on " + n.app : base + " on " + n.app;
  j["seed"] = "own";
  j["claim"] = two ? cand + " is faster than " + base + " on " + n.app + " (write your claim here)"
                   : base + " computes " + n.app + " correctly (write your claim here)";
  if (two) {
    j["verdict_rule"] = "holds if " + cand + " is faster than " + base +
                        " (total_ms) at the largest size: the 95% bootstrap interval of the "
                        "speedup is above 1x";
    j["verdict"] = {{"kind", "faster"},
                    {"candidate", {{"framework", fw}, {"variant", n.variants.back()}}},
                    {"baseline", {{"framework", fw}, {"variant", n.variants.front()}}},
                    {"metric", "total_ms"},
                    {"at", "largest"},
                    {"min_speedup", 1.0}};
  } else {
    j["verdict_rule"] = "holds if every run validates";
    j["verdict"] = {{"kind", "all_valid"}};
  }
  j["dataset"] = dataset;
  j["runs"] = json::array({{{"framework", fw}, {"variants", n.variants}, {"apps", {n.app}}}});
  if (dataset != kNoInput) j["sizes"] = sizes;
  j["reps"] = {{"ci", 5}, {"gpu", 5}, {"paper", 5}};
  // Field order as in paper/experiments/*.json (nlohmann sorts keys; a spec reads better this way).
  std::string text = "{\n";
  const char* order[] = {"id",      "title",   "seed", "claim", "verdict_rule",
                         "verdict", "dataset", "runs", "sizes", "reps"};
  bool first = true;
  for (const char* key : order) {
    if (!j.contains(key)) continue;
    text += std::string(first ? "" : ",\n") + "  " + json(key).dump() + ": " + j.at(key).dump();
    first = false;
  }
  text += "\n}\n";
  parse_experiment(text, "new-spec");  // what it writes must run
  return text;
}

}  // namespace harness
