#include "harness/runner/runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "datasets/dataset.h"
#include "harness/backend/cpu_device.h"
#include "harness/core/ceilings.h"
#include "harness/core/environment.h"
#include "harness/core/errors.h"
#include "harness/core/results.h"
#include "harness/core/stats.h"
#include "harness/core/stopwatch.h"

namespace harness {
namespace {

using backend::Kind;
using nlohmann::json;

json stats_json(const std::vector<double>& samples) {
  stats::Summary s = stats::summarize(samples);
  return {{"median", s.median}, {"min", s.min},       {"max", s.max},
          {"mean", s.mean},     {"stddev", s.stddev}, {"n", s.n}};
}

// The devices a run uses, opened once and shared by all its points.
class Devices {
 public:
  // The device of `kind` to use: `index` when given, else the first GPU-type
  // device (OpenCL lists PoCL beside NVIDIA), else device 0. Null when the
  // backend has none and `required` is false; NoDevice when it is true.
  backend::Device* get(Kind kind, std::optional<int> index, bool required, std::string* why) {
    auto key = std::make_pair(kind, index.value_or(-1));
    auto it = open_.find(key);
    if (it != open_.end()) return it->second.get();
    std::string none;
    auto list = backend::list_devices(kind, &none);
    int chosen = index.value_or(-1);
    if (chosen < 0) {
      for (const auto& d : list) {
        if (d.type == "gpu") {
          chosen = d.index;
          break;
        }
      }
      if (chosen < 0 && !list.empty()) chosen = 0;
    }
    if (chosen < 0 || chosen >= static_cast<int>(list.size())) {
      std::string msg = list.empty()
                            ? fmt::format("no {} device: {}", backend::kind_name(kind), none)
                            : fmt::format("no {} device {} (found {})", backend::kind_name(kind),
                                          chosen, list.size());
      if (required) throw NoDevice(msg);
      if (why) *why = msg;
      return nullptr;
    }
    auto dev = backend::open_device(kind, chosen);
    backend::Device* raw = dev.get();
    open_[key] = std::move(dev);
    return raw;
  }
  // Pinned host memory from a CUDA device when one is open (faster copies), else plain.
  backend::HostBuffer host_buffer(std::size_t bytes) {
    for (auto& [key, dev] : open_) {
      if (key.first == Kind::cuda) return dev->allocate_host(bytes, true);
    }
    return backend::cpu::open_device(0)->allocate_host(bytes, false);
  }

 private:
  std::map<std::pair<Kind, int>, std::unique_ptr<backend::Device>> open_;
};

struct Target {
  const VariantInfo* variant;
  std::string app;
  Params params;
  Kind kind;
  backend::Device* device;  // null for cpu
};

struct Input {
  datasets::DatasetFile file;
  std::string label;
  backend::HostBuffer bytes;
};

json dataset_json(const Input& in) {
  json j = {{"label", in.label},
            {"path", in.file.path},
            {"size_bytes", in.file.size_bytes},
            {"checksum", in.file.checksum}};
  j["generator"] = in.file.generator.empty() ? json(nullptr) : json(in.file.generator);
  j["seed"] = in.file.generator.empty() ? json(nullptr) : json(in.file.seed);
  return j;
}

std::string device_name(const Target& t) {
  return t.device ? t.device->info().name : backend::cpu::cpu_model_name();
}

// Runs one point: prepare, one validated warm-up, `reps` validated repetitions.
// Errors become the point's status; only UsageError escapes.
json run_point(const Target& t, const Input& in, int reps,
               std::unique_ptr<PointRunner>* keep = nullptr) {
  const int device_index = t.device ? t.device->info().index : 0;
  json p = {{"key", fmt::format("{}/{}/{}/{}:{}/{}/{}", t.variant->framework, t.variant->name,
                                t.app, backend::kind_name(t.kind), device_index,
                                in.file.generator.empty() ? "file" : in.file.generator, in.label)},
            {"framework", t.variant->framework},
            {"variant", t.variant->name},
            {"app", t.app},
            {"backend", backend::kind_name(t.kind)},
            {"device_index", device_index},
            {"device_name", device_name(t)},
            {"dataset", dataset_json(in)},
            {"params", t.params},
            {"warmup", 1},
            {"repetitions", json::array()},
            {"status", "ok"},
            {"error", nullptr}};
  std::cerr << fmt::format("  {} ... ", p["key"].get<std::string>()) << std::flush;
  std::vector<double> totals;
  std::map<std::string, std::vector<double>> phases;
  std::vector<std::string> order;
  std::string first_failure;
  try {
    PointContext ctx;
    ctx.device = t.device;
    ctx.app = t.app;
    ctx.input = static_cast<const std::uint8_t*>(in.bytes.data());
    ctx.input_size = in.file.size_bytes;
    ctx.params = t.params;
    std::unique_ptr<PointRunner> runner = t.variant->make(ctx);
    runner->prepare();
    runner->run_once();  // warm-up: first-touch, lazy allocation, caches
    if (std::string bad = runner->validate_last(); !bad.empty()) first_failure = "warm-up: " + bad;
    for (int r = 0; r < reps; ++r) {
      Measurement m = runner->run_once();
      std::string bad = runner->validate_last();
      if (!bad.empty() && first_failure.empty())
        first_failure = fmt::format("repetition {}: {}", r + 1, bad);
      json phase_ms = json::object();
      for (const auto& ph : m.phases) {
        phase_ms[ph.name] = ph.ms;
        if (!phases.count(ph.name)) order.push_back(ph.name);
        phases[ph.name].push_back(ph.ms);
      }
      totals.push_back(m.total_ms);
      p["repetitions"].push_back({{"total_ms", m.total_ms},
                                  {"phases_ms", phase_ms},
                                  {"validation", bad.empty() ? "passed" : "failed"}});
      json counters = json::object();
      for (const auto& [k, v] : m.counters) counters[k] = v;
      p["counters"] = counters;
    }
    Work w = runner->work();
    p["work"] = {{"input_bytes", w.input_bytes},
                 {"records", w.records},
                 {"intermediate_pairs", w.intermediate_pairs},
                 {"output_keys", w.output_keys},
                 {"bytes_read", w.bytes_read},
                 {"bytes_written", w.bytes_written},
                 {"atomics", w.atomics}};
    p["validation"] = {
        {"status", first_failure.empty() ? "passed" : "failed"},
        {"message", first_failure.empty() ? "output equals the CPU reference" : first_failure},
        {"reference", t.app + " CPU reference"}};
    if (!first_failure.empty()) p["status"] = "failed";
    if (keep) *keep = std::move(runner);
  } catch (const UsageError&) {
    throw;
  } catch (const KernelBuildError& e) {
    std::cerr << "\n" << e.log() << "\n";
    p["status"] = "error";
    p["error"] = e.what();
  } catch (const std::exception& e) {
    p["status"] = "error";
    p["error"] = e.what();
  }
  if (!p.contains("validation")) {
    p["validation"] = {{"status", "not_run"},
                       {"message", "the point did not run"},
                       {"reference", t.app + " CPU reference"}};
  }
  p["phase_order"] = order;
  if (!totals.empty()) {
    json ph = json::object();
    for (const auto& name : order) ph[name] = stats_json(phases[name]);
    std::vector<double> gbps;
    for (double ms : totals)
      gbps.push_back(static_cast<double>(in.file.size_bytes) / 1e9 / (ms / 1e3));
    stats::Summary g = stats::summarize(gbps);
    p["summary"] = {{"total_ms", stats_json(totals)},
                    {"phases_ms", ph},
                    {"throughput_gbps", {{"median", g.median}, {"min", g.min}, {"max", g.max}}}};
  }
  if (p["status"] == "ok") {
    std::cerr << fmt::format("ok, median {:.3f} ms ({:.3f} GB/s), validated\n",
                             p["summary"]["total_ms"]["median"].get<double>(),
                             p["summary"]["throughput_gbps"]["median"].get<double>());
  } else if (p["status"] == "failed") {
    std::cerr << "WRONG RESULT: " << first_failure << "\n";
  } else {
    std::cerr << "ERROR: " << p["error"].get<std::string>() << "\n";
  }
  return p;
}

void count(RunSummary& s, const json& point) {
  ++s.points;
  const std::string st = point["status"];
  if (st == "ok")
    ++s.ok;
  else if (st == "failed")
    ++s.failed;
  else
    ++s.errors;
}

Input load_input(Devices& devices, datasets::DatasetFile file, std::string label) {
  Input in;
  in.file = std::move(file);
  in.label = std::move(label);
  in.bytes = devices.host_buffer(in.file.size_bytes);
  datasets::load_file(in.file.path, in.bytes.data(), in.file.size_bytes);
  return in;
}

json experiment_json(const Experiment& e, const std::string& preset) {
  return {{"id", e.id},
          {"title", e.title},
          {"seed", e.seed},
          {"claim", e.claim},
          {"verdict_rule", e.verdict_rule},
          {"verdict", e.verdict},
          {"preset", preset},
          {"plot", e.plot}};
}

void add_ceilings(ResultsDocument& doc, backend::Device& device, const std::string& preset) {
  const std::size_t bytes = preset == "ci" ? (16u << 20) : (std::size_t{1} << 30);
  try {
    for (auto& c : measure_ceilings(device, bytes)) doc.add_ceiling(c);
  } catch (const RunError& e) {
    std::cerr << "  (ceilings not measured on " << device.info().name << ": " << e.what() << ")\n";
  }
}

}  // namespace

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
    throw UsageError("unknown preset '" + o.preset + "' (known: ci, gpu, paper)");
  const int reps = o.reps.value_or(e.reps.at(o.preset));
  if (reps < 1) throw UsageError("--reps must be at least 1");
  ResultsDocument doc(o.out_path, experiment_json(e, o.preset), environment_json());
  std::cerr << fmt::format("experiment {} (preset {}, {} repetitions) -> {}\n", e.id, o.preset,
                           reps, o.out_path);

  // Expand the matrix into targets on devices.
  Devices devices;
  std::vector<Target> targets;
  std::vector<backend::Device*> used;
  for (const auto& run : e.runs) {
    for (const auto& vname : run.variants) {
      const VariantInfo& v = Registry::instance().find_variant(run.framework, vname);
      Params params = v.default_params;
      for (const auto& [k, val] : run.params) params[k] = val;
      for (Kind kind : v.backends) {
        bool compiled = false;
        for (Kind c : backend::compiled_kinds()) compiled = compiled || c == kind;
        if (!compiled) continue;
        if (o.backend && kind != Kind::cpu && *o.backend != kind) continue;
        if (o.backend && *o.backend == Kind::cpu && kind != Kind::cpu) continue;
        backend::Device* dev = nullptr;
        if (kind != Kind::cpu) {
          std::string why;
          dev = devices.get(kind, o.device, o.backend.has_value(), &why);
          if (!dev) {
            std::cerr << fmt::format("  {}/{} on {}: not run ({})\n", v.framework, v.name,
                                     backend::kind_name(kind), why);
            continue;
          }
          if (std::find(used.begin(), used.end(), dev) == used.end()) used.push_back(dev);
        }
        for (const auto& app : run.apps) targets.push_back({&v, app, params, kind, dev});
      }
    }
  }
  if (o.ceilings) {
    for (backend::Device* d : used) add_ceilings(doc, *d, o.preset);
  }

  RunSummary summary;
  const std::string cache = o.data_dir.empty() ? datasets::default_cache_dir() : o.data_dir;
  for (const auto& label : e.sizes.at(o.preset)) {
    datasets::DatasetSpec spec{e.dataset, datasets::parse_size(label), e.seed_value};
    Stopwatch gen;
    datasets::DatasetFile file = datasets::materialize(spec, cache);
    std::cerr << fmt::format(" dataset {} {} ({}, {:.1f} s)\n", e.dataset, label,
                             file.from_cache ? "cached" : "generated", gen.elapsed_ms() / 1e3);
    Input in = load_input(devices, std::move(file), label);
    for (const auto& t : targets) {
      json p = run_point(t, in, reps);
      count(summary, p);
      doc.add_point(std::move(p));
    }
  }
  doc.finish();
  std::cerr << fmt::format("{} points: {} ok, {} wrong results, {} errors; results in {}\n",
                           summary.points, summary.ok, summary.failed, summary.errors, o.out_path);
  return summary;
}

RunSummary run_single(const SinglePoint& sp) {
  const VariantInfo& v = Registry::instance().find_variant(sp.framework, sp.variant);
  Registry::instance().find_app(sp.app);
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
  Params params = v.default_params;
  for (const auto& [k, val] : sp.params) {
    if (!params.count(k))
      throw UsageError(fmt::format("{}/{} has no parameter '{}'", sp.framework, sp.variant, k));
    params[k] = val;
  }
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
  std::unique_ptr<ResultsDocument> doc;
  if (!sp.out_path.empty())
    doc =
        std::make_unique<ResultsDocument>(sp.out_path, experiment_json(e, "-"), environment_json());

  Devices devices;
  backend::Device* dev = nullptr;
  if (sp.backend != Kind::cpu) {
    dev = devices.get(sp.backend, sp.device >= 0 ? std::optional<int>(sp.device) : std::nullopt,
                      true, nullptr);
  }
  datasets::DatasetFile file;
  std::string label;
  if (!sp.input_path.empty()) {
    file = datasets::describe_user_file(sp.input_path);
    label = datasets::format_size(file.size_bytes);
  } else {
    datasets::find_generator(sp.dataset);
    file = datasets::materialize({sp.dataset, datasets::parse_size(sp.size), 42},
                                 sp.data_dir.empty() ? datasets::default_cache_dir() : sp.data_dir);
    label = sp.size;
  }
  Input in = load_input(devices, std::move(file), label);
  Target t{&v, sp.app, params, sp.backend, dev};
  std::unique_ptr<PointRunner> runner;
  json p = run_point(t, in, sp.reps, &runner);
  RunSummary summary;
  count(summary, p);
  if (doc) {
    doc->add_point(p);
    doc->finish();
  }
  if (!sp.dump_output.empty() && runner) {
    std::ofstream out(sp.dump_output, std::ios::trunc);
    runner->write_output_tsv(out);
    if (!out.flush()) throw RunError("cannot write output to '" + sp.dump_output + "'");
    std::cerr << "output written to " << sp.dump_output << "\n";
  }
  return summary;
}

}  // namespace harness
