#include "harness/cli/commands.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "datasets/dataset.h"
#include "harness/backend/backend.h"
#include "harness/cli/args.h"
#include "harness/cli/report.h"
#include "harness/core/ceilings.h"
#include "harness/core/compare.h"
#include "harness/core/environment.h"
#include "harness/core/registry.h"
#include "harness/runner/experiment.h"
#include "harness/runner/runner.h"

namespace harness::cli {

int cmd_env(const std::vector<std::string>& argv) {
  Args a(argv, {}, {"ceilings", "json"});
  nlohmann::json env = environment_json();
  if (a.flag("ceilings")) {
    env["ceilings"] = nlohmann::json::array();
    for (const auto& d : env["devices"]) {
      if (d["backend"] == "cpu") continue;
      auto dev = backend::open_device(backend::parse_kind(d["backend"]), d["index"]);
      std::size_t bytes = d["type"] == "gpu" ? (std::size_t{1} << 30) : (std::size_t{64} << 20);
      for (auto& c : measure_ceilings(*dev, bytes)) env["ceilings"].push_back(c);
    }
  }
  if (a.flag("json")) {
    std::cout << env.dump(2) << "\n";
    return 0;
  }
  const auto& h = env["host"];
  std::cout << fmt::format(
      "harness {} ({}), git {}, {} build, {}\n", env["harness_version"].get<std::string>(),
      fmt::join(env["backends_compiled"], ", "), env["git_sha"].get<std::string>(),
      env["build_type"].get<std::string>(), env["compiler"].get<std::string>());
  std::cout << fmt::format(
      "host: {} cores, {} ({:.1f} GiB), {}\n", h["cores"].get<int>(), h["cpu"].get<std::string>(),
      h["memory_bytes"].get<double>() / 1073741824.0, h["os"].get<std::string>());
  for (const auto& d : env["devices"]) {
    std::cout << fmt::format(
        "{:>6} {}: {} [{}] {:.1f} GiB, {} compute units", d["backend"].get<std::string>(),
        d["index"].get<int>(), d["name"].get<std::string>(), d["type"].get<std::string>(),
        d["global_memory_bytes"].get<double>() / 1073741824.0, d["compute_units"].get<int>());
    if (d["backend"] != "cpu") {
      std::cout << fmt::format(", driver {}, {}, {}", d["driver_version"].get<std::string>(),
                               d["api_version"].get<std::string>(),
                               d["platform"].get<std::string>());
    }
    std::cout << "\n";
  }
  for (const auto& [k, why] : env["backends_without_devices"].items()) {
    std::cout << fmt::format("{:>6}: no device ({})\n", k, why.get<std::string>());
  }
  if (env.contains("ceilings")) {
    for (const auto& c : env["ceilings"]) {
      std::cout << fmt::format("ceiling {} {}: {} = {:.1f} {} ({})\n",
                               c["backend"].get<std::string>(), c["device_index"].get<int>(),
                               c["name"].get<std::string>(), c["value"].get<double>(),
                               c["unit"].get<std::string>(), c["method"].get<std::string>());
    }
  }
  return 0;
}

namespace {
// One line per declared parameter: name, type, default, range or choices, description.
void print_params(const ParamDecls& decls) {
  for (const ParamDecl& d : decls) {
    std::cout << fmt::format("        {:<18} {:<8} {:<10} {:<22} {}\n", d.name,
                             param_type_name(d.type), "=" + d.default_value, d.range_text(),
                             d.description);
  }
}
}  // namespace

int cmd_list(const std::vector<std::string>& argv) {
  Args a(argv, {}, {});
  const Registry& reg = Registry::instance();
  std::cout << "frameworks and variants:\n";
  for (const auto& v : reg.variants()) {
    std::vector<std::string> backends;
    for (auto k : v.backends) backends.push_back(backend::kind_name(k));
    std::cout << fmt::format("  {}/{:<14} [{}] {}\n      apps: {}\n", v.framework, v.name,
                             fmt::join(backends, ","), v.description, fmt::join(v.apps, ", "));
    if (!v.params.empty()) {
      std::cout << "      params (name, type, default, range, what):\n";
      print_params(v.params);
    }
  }
  std::cout << "apps:\n";
  for (const auto& app : reg.apps()) {
    std::string validation = app.validation.kind;
    if (app.validation.kind == "tolerance")
      validation += fmt::format(" rel {:g} abs {:g}", app.validation.rel, app.validation.abs);
    std::cout << fmt::format("  {:<12} ({}, dataset {}, validation {}) {}\n", app.name, app.kind,
                             app.default_dataset, validation, app.description);
    if (!app.params.empty()) {
      std::cout << "      params (name, type, default, range, what):\n";
      print_params(app.params);
    }
  }
  std::cout << "datasets:\n";
  for (const auto* g : datasets::generators()) {
    std::cout << fmt::format("  {:<12} {}\n", g->name(), g->description());
    if (!g->params().empty()) {
      std::cout << "      params (name, type, default, range, what; --dataset-param):\n";
      print_params(g->params());
    }
  }
  std::cout << "experiments:\n";
  for (const auto& e : embedded_experiments())
    std::cout << fmt::format("  {:<24} {}\n", e.id, e.title);
  return 0;
}

namespace {
// --variant's default: the framework's "default" variant, else the one variant
// that runs the app on the backend; a usage error naming the choices otherwise.
std::string default_variant(const std::string& framework, const std::string& app,
                            backend::Kind kind) {
  const Registry& reg = Registry::instance();
  std::vector<const VariantInfo*> all, fits;
  for (const auto& v : reg.variants()) {
    if (v.framework != framework) continue;
    if (v.name == "default") return v.name;
    all.push_back(&v);
    if (v.runs_app(app) &&
        std::find(v.backends.begin(), v.backends.end(), kind) != v.backends.end())
      fits.push_back(&v);
  }
  if (all.empty()) reg.find_variant(framework, "default");  // throws: unknown framework
  if (all.size() == 1) return all.front()->name;
  if (fits.size() == 1) return fits.front()->name;
  std::string choices;
  for (const VariantInfo* v : fits.empty() ? all : fits) {
    std::vector<std::string> backends;
    for (auto k : v->backends) backends.push_back(backend::kind_name(k));
    choices +=
        fmt::format("{}{} ({})", choices.empty() ? "" : ", ", v->name, fmt::join(backends, ", "));
  }
  throw UsageError(fmt::format(
      "framework '{}' has no variant 'default' and {} of its variants run "
      "app '{}' on {}: give --variant (one of: {})",
      framework, fits.empty() ? "none" : "several", app, backend::kind_name(kind), choices));
}
}  // namespace

int cmd_run(const std::vector<std::string>& argv) {
  Args a(argv,
         {"experiment", "backend", "device", "preset", "reps", "out", "data-dir", "framework",
          "variant", "app", "input", "dataset", "size", "dump-output", "gpu-memory-budget"},
         {"no-ceilings"}, {"param", "dataset-param"});
  if (!a.positional().empty()) throw UsageError("unexpected argument '" + a.positional()[0] + "'");
  if (auto id = a.get("experiment")) {
    for (const char* o :
         {"framework", "variant", "app", "input", "dataset", "size", "dump-output"}) {
      if (a.get(o)) throw UsageError(std::string("--") + o + " does not go with --experiment");
    }
    if (!a.all("dataset-param").empty())
      throw UsageError("--dataset-param does not go with --experiment");
    Experiment e = find_experiment(*id);
    RunOptions o;
    o.preset = a.get_or("preset", "ci");
    if (auto b = a.get("backend")) o.backend = backend::parse_kind(*b);
    if (auto d = a.get("device")) o.device = Args::to_int("device", *d);
    if (auto r = a.get("reps")) o.reps = Args::to_int("reps", *r);
    o.out_path = a.get_or("out", e.id + ".json");
    o.data_dir = a.get_or("data-dir", "");
    o.ceilings = !a.flag("no-ceilings");
    if (auto m = a.get("gpu-memory-budget"))
      o.gpu_memory_budget = Args::to_size("gpu-memory-budget", *m);
    const int status = run_experiment(e, o).exit_code();
    print_verdicts(o.out_path);  // the report's verdict lines, at the end of the run
    return status;
  }
  SinglePoint sp;
  sp.framework = a.require("framework");
  sp.app = a.require("app");
  sp.backend = backend::parse_kind(a.require("backend"));
  sp.variant =
      a.get("variant") ? *a.get("variant") : default_variant(sp.framework, sp.app, sp.backend);
  if (auto d = a.get("device")) sp.device = Args::to_int("device", *d);
  if (auto r = a.get("reps")) sp.reps = Args::to_int("reps", *r);
  sp.input_path = a.get_or("input", "");
  sp.dataset = a.get_or("dataset", "");
  sp.size = a.get_or("size", "");
  if (!sp.input_path.empty() && !sp.dataset.empty())
    throw UsageError("give either --input FILE or --dataset D --size S, not both");
  if (!sp.dataset.empty() && sp.size.empty()) throw UsageError("--dataset needs --size");
  for (const char* option : {"param", "dataset-param"}) {
    for (const auto& kv : a.all(option)) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        throw UsageError(fmt::format("--{} needs KEY=VALUE, not '{}'", option, kv));
      (option == std::string("param") ? sp.params : sp.dataset_params)[kv.substr(0, eq)] =
          kv.substr(eq + 1);
    }
  }
  sp.dump_output = a.get_or("dump-output", "");
  sp.out_path = a.get_or("out", "");
  sp.data_dir = a.get_or("data-dir", "");
  sp.ceilings = !a.flag("no-ceilings");
  if (auto m = a.get("gpu-memory-budget"))
    sp.gpu_memory_budget = Args::to_size("gpu-memory-budget", *m);
  return run_single(sp).exit_code();
}

int cmd_compare(const std::vector<std::string>& argv) {
  Args a(argv, {"metric", "by", "a", "b"}, {});
  CompareOptions o;
  o.metric = a.get_or("metric", "total_ms");
  o.by = a.get_or("by", "");
  o.a = a.get_or("a", "");
  o.b = a.get_or("b", "");
  const auto& files = a.positional();
  if (o.by.empty() && (!o.a.empty() || !o.b.empty()))
    throw UsageError(
        "--a and --b name values of --by (e.g. --by variant --a mars/default --b "
        "mars/radix)");
  if (files.size() != 2 && !(files.size() == 1 && !o.by.empty())) {
    throw UsageError(
        "compare needs two result files (harness compare A.json B.json), or one or two with "
        "--by (harness compare R.json --by variant --a mars/default --b mars/radix)");
  }
  const int status = compare_results(files, o, std::cout);
  if (status != 0) {
    std::cerr << "harness: compare: no point of A matches a point of B (the nearest keys are "
                 "above)\n";
  }
  return status;
}

int cmd_new_spec(const std::vector<std::string>& argv) {
  Args a(argv, {"id", "framework", "variants", "app", "out"}, {});
  if (!a.positional().empty()) throw UsageError("unexpected argument '" + a.positional()[0] + "'");
  NewSpec n;
  n.id = a.get_or("id", "my.experiment");
  n.framework = a.get_or("framework", "mars");
  n.app = a.get_or("app", "wordcount");
  const std::string variants = a.get_or("variants", "default");
  std::stringstream ss(variants);
  n.variants.clear();
  for (std::string v; std::getline(ss, v, ',');) {
    if (!v.empty()) n.variants.push_back(v);
  }
  if (n.variants.empty()) throw UsageError("--variants lists no variant");
  const std::string text = new_spec(n);
  if (auto out = a.get("out")) {
    std::ofstream f(*out, std::ios::trunc);
    f << text;
    if (!f.flush()) throw RunError("cannot write the spec to '" + *out + "'");
    std::cerr << fmt::format("spec written to {}; run it: harness run --experiment {}\n", *out,
                             *out);
  } else {
    std::cout << text;
  }
  return 0;
}

}  // namespace harness::cli
