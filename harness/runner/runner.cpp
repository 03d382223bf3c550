#include "harness/runner/runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>

#include "datasets/dataset.h"
#include "harness/core/ceilings.h"
#include "harness/core/environment.h"
#include "harness/core/errors.h"
#include "harness/core/host_ceilings.h"
#include "harness/core/results.h"
#include "harness/core/stopwatch.h"
#include "harness/runner/devices.h"
#include "harness/runner/point.h"

namespace harness {
namespace {

using backend::Kind;
using nlohmann::json;

void count(RunSummary& s, const json& point) {
  ++s.points;
  const std::string st = point["status"];
  if (st == "ok")
    ++s.ok;
  else if (st == "failed")
    ++s.failed;
  else if (st == "skipped")
    ++s.skipped;
  else
    ++s.errors;
}

json policy_json(const MeasurementPolicy& p) {
  return {{"warmup", p.warmup},
          {"min_reps", p.min_reps},
          {"max_reps", p.max_reps},
          {"target_rel_spread", p.target_rel_spread > 0 ? json(p.target_rel_spread) : json()},
          {"max_time_s", p.max_time_s > 0 ? json(p.max_time_s) : json()},
          {"cold", p.cold}};
}

json validation_json(const ValidationPolicy& v) {
  json j = {{"kind", v.kind}};
  if (v.kind == "tolerance") {
    j["rel"] = v.rel;
    j["abs"] = v.abs;
  }
  return j;
}

json experiment_json(const Experiment& e, const std::string& preset,
                     const MeasurementPolicy& policy, std::uint64_t gpu_memory_budget) {
  json axes = json::object();
  for (const auto& a : e.axes) axes[a.name] = a.values.at(preset);
  json j = {{"id", e.id},
            {"title", e.title},
            {"seed", e.seed},
            {"claim", e.claim},
            {"verdict_rule", e.verdict_rule},
            {"verdict", e.verdict},
            {"preset", preset},
            {"plot", e.plot},
            {"axes", axes},
            {"measurement", policy_json(policy)}};
  if (e.validation_given) j["validation"] = validation_json(e.validation);
  if (gpu_memory_budget > 0) j["gpu_memory_budget_bytes"] = gpu_memory_budget;
  return j;
}

// Ceilings are measured once per device (and size) in a process and shared
// by every experiment it runs: a reproduce of the whole suite would otherwise
// spend a few seconds per experiment and backend measuring the same limits.
// `measure` returns the entries, or null where they could not be measured
// (not kept, so they are tried again).
void add_measured_once(ResultsDocument& doc, const std::string& key,
                       const std::function<json()>& measure) {
  static std::map<std::string, json> measured;
  json& entries = measured[key];
  if (entries.is_null()) entries = measure();
  if (entries.is_array()) {
    for (const auto& c : entries) doc.add_ceiling(c);
  }
}

// Ceilings at the preset's size: small on ci, 1 GiB elsewhere (many times a
// GPU's L2); a single run ("-") sizes them by the device's type.
void add_ceilings(ResultsDocument& doc, backend::Device& device, const std::string& preset) {
  const bool small = preset == "ci" || (preset == "-" && device.info().type != "gpu");
  const std::size_t bytes = small ? (16u << 20) : (std::size_t{1} << 30);
  const std::string key = fmt::format("{}:{}:{}:{}", backend::kind_name(device.info().kind),
                                      device.info().index, device.info().name, bytes);
  add_measured_once(doc, key, [&] {
    // The ceilings are the device's, not the points': their buffers are outside the budget.
    const std::uint64_t budget = device.memory_budget();
    device.set_memory_budget(0);
    json entries;
    try {
      entries = measure_ceilings(device, bytes);
    } catch (const RunError& e) {
      std::cerr << "  (ceilings not measured on " << device.info().name << ": " << e.what()
                << ")\n";
    }
    device.set_memory_budget(budget);
    return entries;
  });
}

// The host's read bandwidth, for the CPU baselines' rates: 1 GiB in the gpu
// and paper presets, 256 MiB in ci and single runs (still past most
// last-level caches).
void add_host_ceilings(ResultsDocument& doc, const std::string& preset) {
  const bool small = preset == "ci" || preset == "-";
  const std::size_t bytes = small ? (std::size_t{256} << 20) : (std::size_t{1} << 30);
  add_measured_once(doc, fmt::format("host:{}", bytes), [&] {
    try {
      return measure_host_ceilings(bytes);
    } catch (const std::exception& e) {
      std::cerr << "  (host ceilings not measured: " << e.what() << ")\n";
      return json();
    }
  });
}

bool compiled(Kind kind) {
  for (Kind c : backend::compiled_kinds()) {
    if (c == kind) return true;
  }
  return false;
}

// The generator of an app's input in the experiment (null: no input).
const datasets::Generator* input_generator(const Experiment& e, const std::string& app) {
  const auto own = e.app_datasets.find(app);
  const std::string& name = own != e.app_datasets.end() ? own->second.dataset : e.dataset;
  return name == kNoInput ? nullptr : &datasets::find_generator(name);
}

// Every combination of the axes this variant has, in the experiment's axis
// order: a cartesian product; axes of parameters the point lacks (its
// variant's and app's `defaults`, its input's `generator`) are left out.
std::vector<std::vector<std::pair<std::string, std::string>>> axis_combinations(
    const Experiment& e, const Params& defaults, const datasets::Generator* generator,
    const std::string& preset) {
  std::vector<std::vector<std::pair<std::string, std::string>>> combos{{}};
  for (const Axis& axis : e.axes) {
    const bool has = axis.of_dataset ? generator && find_param(generator->params(), axis.name)
                                     : defaults.count(axis.name) > 0;
    if (!has) continue;
    std::vector<std::vector<std::pair<std::string, std::string>>> next;
    for (const auto& c : combos) {
      for (const auto& value : axis.values.at(preset)) {
        next.push_back(c);
        next.back().emplace_back(axis.name, value);
      }
    }
    combos = std::move(next);
  }
  return combos;
}

// The GPU devices a target uses, or an empty list and a reason.
std::vector<backend::Device*> target_devices(Devices& devices, const VariantInfo& v,
                                             const Params& params, Kind kind,
                                             std::optional<int> index, bool required,
                                             std::string* why) {
  int count = 1;
  if (!v.devices.count_param.empty()) {
    const std::int64_t asked =
        params.count(v.devices.count_param) ? param_int(params, v.devices.count_param) : 1;
    count = asked < 1 || asked > 1024 ? 0 : static_cast<int>(asked);
    if (count < 1)
      throw UsageError(fmt::format("{}/{}: parameter '{}' must be a positive integer", v.framework,
                                   v.name, v.devices.count_param));
  }
  if (count == 1) {
    backend::Device* d = devices.get(kind, index, required, why);
    return d ? std::vector<backend::Device*>{d} : std::vector<backend::Device*>{};
  }
  std::string short_of;
  auto found = devices.get_several(kind, index, count, &short_of);
  const auto share =
      v.devices.share_param.empty() ? params.end() : params.find(v.devices.share_param);
  const bool shared = share != params.end() && param_bool(params, share->first);
  if (!found.empty() && shared) return found;  // logical devices share the ones found
  if (why && !short_of.empty()) {
    *why = short_of;
    if (!v.devices.share_param.empty() && !found.empty())
      *why += fmt::format(" ({}=1 runs them as logical devices on those present)",
                          v.devices.share_param);
  }
  return found;
}

}  // namespace

const MeasuredPoints::Entry* MeasuredPoints::find(const std::string& identity) const {
  auto it = points_.find(identity);
  return it == points_.end() ? nullptr : &it->second;
}

void MeasuredPoints::remember(const std::string& identity, const std::string& experiment,
                              json point) {
  points_[identity] = Entry{experiment, std::move(point)};
}

int MeasuredPoints::remember_document(const json& doc, const std::string& experiment) {
  int kept = 0;
  for (const auto& p : doc.value("points", json::array())) {
    if (!p.is_object() || p.value("status", "") != "ok" || !p.contains("identity") ||
        !p["identity"].is_string())
      continue;
    json copy = p;
    const std::string measured_in = copy.value("reused_from", experiment);
    const std::string identity = copy["identity"].get<std::string>();
    copy.erase("reused_from");
    remember(identity, measured_in, std::move(copy));
    ++kept;
  }
  return kept;
}

std::string default_preset() {
  for (Kind k : backend::compiled_kinds()) {
    if (k == Kind::cpu) continue;
    for (const auto& d : backend::list_devices(k)) {
      if (d.type == "gpu") return "gpu";
    }
  }
  return "ci";
}

RunSummary run_experiment(const Experiment& e, const RunOptions& o) {
  if (!e.sizes.count(o.preset))
    throw UsageError("unknown preset '" + o.preset + "' (known: ci, gpu, full, paper)");
  if (o.reps && *o.reps < 1) throw UsageError("--reps must be at least 1");
  const MeasurementPolicy policy = e.policy_for(o.preset, o.reps);
  const auto spec_budget = e.gpu_memory_budget.find(o.preset);
  const std::uint64_t budget = o.gpu_memory_budget                        ? *o.gpu_memory_budget
                               : spec_budget != e.gpu_memory_budget.end() ? spec_budget->second
                                                                          : 0;
  ResultsDocument doc(o.out_path, experiment_json(e, o.preset, policy, budget), environment_json());
  std::cerr << fmt::format(
      "experiment {} (preset {}, {} repetitions{}) -> {}\n", e.id, o.preset, policy.min_reps,
      policy.max_reps > policy.min_reps ? fmt::format(" up to {}", policy.max_reps) : std::string(),
      o.out_path);

  // Expand runs x variants x backends x axis values into targets on devices.
  Devices devices;
  devices.set_memory_budget(budget);
  std::vector<Target> targets;
  std::vector<backend::Device*> used;
  for (const auto& run : e.runs) {
    if (!run.in_preset(o.preset)) continue;
    for (const auto& vname : run.variants) {
      const VariantInfo& v = Registry::instance().find_variant(run.framework, vname);
      // The variant's targets on one backend: apps x axis values.
      const auto expand = [&](Kind kind, const std::string& skip) {
        std::vector<Target> out;
        for (const auto& app : run.apps) {
          const Params defaults = point_defaults(v, Registry::instance().find_app(app));
          const datasets::Generator* generator = input_generator(e, app);
          for (const auto& combo : axis_combinations(e, defaults, generator, o.preset)) {
            Params params = defaults, dataset_params;
            for (const auto& [k, val] : run.params) params[k] = val;
            for (const auto& [k, val] : combo)
              (defaults.count(k) ? params : dataset_params)[k] = val;
            out.push_back(Target{&v, app, params, combo, kind, {}, skip, dataset_params});
          }
        }
        return out;
      };
      std::vector<std::string> elsewhere;  // why each backend of the variant does not run here
      bool placed = false;
      for (Kind kind : v.backends) {
        const std::string name = backend::kind_name(kind);
        if (!compiled(kind)) {
          elsewhere.push_back(fmt::format("{} is not compiled into this binary (-DHARNESS_{}=ON)",
                                          name, kind == Kind::cuda ? "CUDA" : "OPENCL"));
          continue;
        }
        if (o.backend && kind != Kind::cpu && *o.backend != kind) {
          elsewhere.push_back(fmt::format("this run is restricted to --backend {}",
                                          backend::kind_name(*o.backend)));
          continue;
        }
        for (Target& t : expand(kind, "")) {
          if (kind != Kind::cpu) {
            std::string why;
            t.devices =
                target_devices(devices, v, t.params, kind, o.device, o.backend.has_value(), &why);
            if (t.devices.empty()) {
              std::cerr << fmt::format("  {}/{} on {}: not run ({})\n", v.framework, v.name, name,
                                       why);
              elsewhere.push_back(why);
              break;  // no device of this backend: nothing of it runs
            }
            t.skip_reason = why;
            for (backend::Device* d : t.devices) {
              if (std::find(used.begin(), used.end(), d) == used.end()) used.push_back(d);
            }
          }
          targets.push_back(std::move(t));
          placed = true;
        }
      }
      // A variant that runs nowhere in this run is recorded, point by point, as
      // skipped on its first backend with the reason (not silently left out).
      if (!placed && !v.backends.empty()) {
        std::vector<std::string> names;
        for (Kind k : v.backends) names.push_back(backend::kind_name(k));
        std::vector<std::string> why;
        for (const auto& w : elsewhere) {
          if (std::find(why.begin(), why.end(), w) == why.end()) why.push_back(w);
        }
        const std::string reason =
            fmt::format("{}/{} runs on {}{}: {}", v.framework, v.name, fmt::join(names, ", "),
                        names.size() == 1 ? " only" : "", fmt::join(why, "; "));
        for (Target& t : expand(v.backends.front(), reason)) targets.push_back(std::move(t));
      }
    }
  }
  if (o.ceilings) {
    for (backend::Device* d : used) add_ceilings(doc, *d, o.preset);
    if (std::any_of(targets.begin(), targets.end(),
                    [](const Target& t) { return t.kind == Kind::cpu; }))
      add_host_ceilings(doc, o.preset);
  }

  RunSummary summary;
  const std::string cache = o.data_dir.empty() ? datasets::default_cache_dir() : o.data_dir;
  // Inputs: the experiment's dataset for most apps, an app's own where the
  // spec gives one (app_datasets); each group of targets runs on its sizes.
  std::vector<std::pair<std::string, const AppDataset*>> groups = {{"", nullptr}};
  for (const auto& [app, ad] : e.app_datasets) groups.emplace_back(app, &ad);
  for (const auto& [group_app, ad] : groups) {
    const std::string& dataset = ad ? ad->dataset : e.dataset;
    const auto& sizes = ad ? ad->sizes : e.sizes;
    auto in_group = [&](const Target& t) {
      return ad ? t.app == group_app : e.app_datasets.count(t.app) == 0;
    };
    if (std::none_of(targets.begin(), targets.end(), in_group) || !sizes.count(o.preset)) continue;
    const std::vector<std::string>& labels = sizes.at(o.preset);
    for (std::size_t at = 0; at < labels.size(); ++at) {
      const std::string& label = labels[at];
      // The generator parameters of the experiment's dataset tied to this size.
      Params at_size;
      if (!ad) {
        for (const auto& [name, by_preset] : e.dataset_params)
          at_size[name] = by_preset.at(o.preset)[at];
      }
      // One input per set of generator parameters the targets need (axes of
      // the dataset), in the order the targets first need it: only one is
      // in memory at a time.
      std::vector<std::pair<Params, std::vector<const Target*>>> inputs;
      for (const Target& t : targets) {
        if (!in_group(t)) continue;
        Params params = at_size;
        for (const auto& [k, val] : t.dataset_params) params[k] = val;
        auto it = std::find_if(inputs.begin(), inputs.end(),
                               [&](const auto& input) { return input.first == params; });
        if (it == inputs.end()) it = inputs.insert(inputs.end(), {params, {}});
        it->second.push_back(&t);
      }
      for (const auto& [params, members] : inputs) {
        Input in = Input::none();
        // Points that are all skipped need no data: their dataset is described, not made.
        const bool all_skipped = std::all_of(members.begin(), members.end(), [](const Target* t) {
          return !t->skip_reason.empty();
        });
        const auto described = [&] {
          datasets::DatasetFile d;
          d.generator = dataset;
          d.size_bytes = harness::parse_size(label);
          d.seed = e.seed_value;
          d.params = datasets::dataset_params(datasets::find_generator(dataset), params);
          return d;
        };
        std::string given;
        for (const auto& [k, val] : params) given += fmt::format(" {}={}", k, val);
        if (dataset != kNoInput && all_skipped) {
          in = Input(described(), label);
        } else if (dataset != kNoInput) {
          datasets::DatasetSpec spec{dataset, harness::parse_size(label), e.seed_value, params};
          Stopwatch gen;
          try {
            datasets::DatasetFile file = datasets::materialize(spec, cache);
            std::cerr << fmt::format(" dataset {} {}{} ({}, {:.1f} s)\n", dataset, label, given,
                                     file.from_cache ? "cached" : "generated",
                                     gen.elapsed_ms() / 1e3);
            in = Input(std::move(file), label);
          } catch (const RunError& err) {
            // An input that cannot be made (no room for it, say) fails its
            // points with the cause; the other inputs' points still run.
            std::cerr << fmt::format(" dataset {} {}{}: not made, its points fail\n", dataset,
                                     label, given);
            in = Input::unavailable(described(), label, err.what());
          }
        }
        for (const Target* target : members) {
          const Target& t = *target;
          PointSettings settings;
          settings.policy = policy;
          settings.validation =
              e.validation_given ? e.validation : Registry::instance().find_app(t.app).validation;
          settings.validation_given = e.validation_given;
          settings.ceilings = &doc.json()["ceilings"];
          settings.devices = &devices;
          const std::string identity = point_identity(t, in, settings);
          json p;
          if (const MeasuredPoints::Entry* earlier =
                  o.measured ? o.measured->find(identity) : nullptr) {
            p = earlier->point;
            p["reused_from"] = earlier->experiment;
            std::cerr << fmt::format("  {} ... ok, measured in {} (median {:.3f} ms), reused\n",
                                     p["key"].get<std::string>(), earlier->experiment,
                                     p["summary"]["total_ms"]["median"].get<double>());
          } else {
            p = run_point(t, in, settings);
            p["identity"] = identity;
            if (o.measured && p["status"] == "ok") o.measured->remember(identity, e.id, p);
          }
          count(summary, p);
          doc.add_point(std::move(p));
        }
      }
    }
  }
  doc.finish();
  std::cerr << fmt::format(
      "{} points: {} ok, {} wrong results, {} errors, {} skipped; results in {}\n", summary.points,
      summary.ok, summary.failed, summary.errors, summary.skipped, o.out_path);
  return summary;
}

RunSummary run_single(const SinglePoint& sp) {
  const VariantInfo& v = Registry::instance().find_variant(sp.framework, sp.variant);
  const AppInfo& app = Registry::instance().find_app(sp.app);
  if (!v.runs_app(sp.app)) {
    throw UsageError(fmt::format("{}/{} does not run app '{}'", sp.framework, sp.variant, sp.app));
  }
  if (std::find(v.backends.begin(), v.backends.end(), sp.backend) == v.backends.end()) {
    std::string names;
    for (Kind k : v.backends)
      names += (names.empty() ? "" : ", ") + std::string(backend::kind_name(k));
    throw UsageError(fmt::format("{}/{} does not run on backend {} (runs on: {})", sp.framework,
                                 sp.variant, backend::kind_name(sp.backend), names));
  }
  check_point_params(v, app, sp.params);
  if (!sp.input_path.empty()) {
    // A file that is not there is the caller's mistake, found before anything runs.
    std::error_code ec;
    if (std::filesystem::is_directory(sp.input_path, ec))
      throw UsageError("cannot read input file '" + sp.input_path + "': it is a directory");
    std::ifstream probe(sp.input_path, std::ios::binary);
    if (!probe)
      throw UsageError("cannot read input file '" + sp.input_path + "': " + std::strerror(errno));
  }
  if (!sp.size.empty()) harness::parse_size(sp.size);  // a bad --size is a usage error
  if (!sp.dataset_params.empty() && sp.dataset.empty())
    throw UsageError("--dataset-param goes with --dataset D --size S");
  Params params = point_defaults(v, app);
  for (const auto& [k, val] : sp.params) params[k] = val;
  if (sp.reps < 1) throw UsageError("--reps must be at least 1");
  // Check that the outputs can be written before measuring anything.
  if (!sp.dump_output.empty()) {
    std::ofstream probe(sp.dump_output, std::ios::app);
    if (!probe)
      throw RunError("cannot write output to '" + sp.dump_output + "': " + std::strerror(errno));
  }
  Experiment e;
  e.id = "single";
  e.title = fmt::format("{}/{} on {}", sp.framework, sp.variant, sp.app);
  e.seed = "-";
  e.claim = "-";
  e.verdict_rule = "every run validates";
  e.verdict = {{"kind", "all_valid"}};
  MeasurementPolicy policy;
  policy.min_reps = policy.max_reps = sp.reps;
  std::unique_ptr<ResultsDocument> doc;
  if (!sp.out_path.empty())
    doc = std::make_unique<ResultsDocument>(
        sp.out_path, experiment_json(e, "-", policy, sp.gpu_memory_budget), environment_json());

  Devices devices;
  devices.set_memory_budget(sp.gpu_memory_budget);
  Target t{&v, sp.app, params, {}, sp.backend, {}, "", {}};
  if (sp.backend != Kind::cpu) {
    std::string why;
    t.devices =
        target_devices(devices, v, params, sp.backend,
                       sp.device >= 0 ? std::optional<int>(sp.device) : std::nullopt, true, &why);
    // A single run asking for more devices than present is the caller's error.
    if (!why.empty()) throw UsageError(fmt::format("{}/{}: {}", sp.framework, sp.variant, why));
  }
  datasets::DatasetFile file;
  std::string label = kNoInputLabel;
  if (sp.input_path.empty() && sp.dataset.empty()) {
    if (app.reads_input)
      throw UsageError("app '" + sp.app +
                       "' reads an input: give --input FILE or --dataset D --size S");
  } else if (!sp.input_path.empty()) {
    file = datasets::describe_user_file(sp.input_path);
    label = harness::format_size(file.size_bytes);
  } else {
    const std::uint64_t bytes = harness::parse_size(sp.size);
    const datasets::DatasetSpec spec{sp.dataset, bytes, 42, sp.dataset_params};
    datasets::generator_for(spec);  // an unknown dataset or parameter is a usage error
    file = datasets::materialize(spec,
                                 sp.data_dir.empty() ? datasets::default_cache_dir() : sp.data_dir);
    label = harness::format_size(bytes);  // one spelling in keys: "1 MiB" -> 1MiB
    const bool decimal = label.size() > 2 && label.back() == 'B' &&
                         std::string("KMGT").find(label[label.size() - 2]) != std::string::npos;
    if (decimal) {
      const std::string binary = label.substr(0, label.size() - 1) + "iB";  // 1MB -> 1MiB
      std::cerr << fmt::format("note: --size {} is {} bytes, keyed {}; {} is {} bytes\n", sp.size,
                               bytes, label, binary, harness::parse_size(binary));
    }
  }
  if (doc && sp.ceilings) {
    for (backend::Device* d : t.devices) add_ceilings(*doc, *d, "-");
    if (sp.backend == Kind::cpu) add_host_ceilings(*doc, "-");
  }
  Input in = file.path.empty() ? Input::none() : Input(std::move(file), label);
  PointSettings settings;
  settings.policy = policy;
  settings.validation = app.validation;
  settings.devices = &devices;
  if (doc) settings.ceilings = &doc->json()["ceilings"];
  std::unique_ptr<PointRunner> runner;
  json p = run_point(t, in, settings, &runner);
  RunSummary summary;
  count(summary, p);
  if (doc) {
    doc->add_point(p);
    doc->finish();
  }
  if (!sp.dump_output.empty() && runner) {
    std::ofstream out(sp.dump_output, std::ios::trunc);
    runner->dump_output(out);
    if (!out.flush()) throw RunError("cannot write output to '" + sp.dump_output + "'");
    std::cerr << "output written to " << sp.dump_output << "\n";
  }
  return summary;
}

}  // namespace harness
