#include "harness/runner/point.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <map>

#include "harness/backend/cpu_device.h"
#include "harness/core/drive_point.h"
#include "harness/core/errors.h"
#include "harness/core/rates.h"
#include "harness/core/stats.h"
#include "harness/core/stopwatch.h"
#include "harness/runner/host_heap.h"

namespace harness {
namespace {

using nlohmann::json;

json stats_json(const std::vector<double>& samples) {
  stats::Summary s = stats::summarize(samples);
  return {{"median", s.median}, {"min", s.min},       {"max", s.max},
          {"mean", s.mean},     {"stddev", s.stddev}, {"n", s.n}};
}

json dataset_json(Input& in) {
  if (in.is_none()) {
    return {{"label", in.label()}, {"generator", nullptr}, {"path", nullptr},
            {"size_bytes", 0},     {"seed", nullptr},      {"checksum", nullptr}};
  }
  // A dataset that skipped points describe has no file and no checksum.
  const auto or_null = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
  json j = {{"label", in.label()},
            {"path", or_null(in.file().path)},
            {"size_bytes", in.file().size_bytes},
            {"checksum", or_null(in.file().checksum)}};
  j["generator"] = in.file().generator.empty() ? json(nullptr) : json(in.file().generator);
  j["seed"] = in.file().generator.empty() ? json(nullptr) : json(in.file().seed);
  if (!in.file().params.empty()) j["params"] = in.file().params;
  return j;
}

std::string point_key(const Target& t, const Input& in) {
  const backend::Device* dev = t.device();
  std::string key = fmt::format("{}/{}/{}/{}:{}/{}/{}", t.variant->framework, t.variant->name,
                                t.app, backend::kind_name(t.kind), dev ? dev->info().index : 0,
                                in.is_none()                  ? "none"
                                : in.file().generator.empty() ? "file"
                                                              : in.file().generator,
                                in.label());
  for (const auto& [name, value] : t.axes) key += "/" + name + "=" + value;
  return key;
}

}  // namespace

std::string point_identity(const Target& t, const Input& in, const PointSettings& settings) {
  const MeasurementPolicy& m = settings.policy;
  const ValidationPolicy& v = settings.validation;
  std::string id =
      fmt::format("{}|{}|warmup={} reps={}..{} spread={} time={} cold={}|{} {} {}",
                  point_key(t, in), in.file().checksum, m.warmup, m.min_reps, m.max_reps,
                  m.target_rel_spread, m.max_time_s, m.cold, v.kind, v.rel, v.abs);
  for (const auto& [k, val] : t.params) id += "|" + k + "=" + val;
  for (const backend::Device* d : t.devices) {
    id += fmt::format("|{}:{}:{}:{}", backend::kind_name(d->info().kind), d->info().index,
                      d->info().name, d->memory_budget());
  }
  return datasets::format_checksum(datasets::xxh64(id.data(), id.size()));
}

namespace {

json devices_json(const Target& t) {
  json out = json::array();
  if (t.devices.empty() && t.kind != backend::Kind::cpu) return out;  // skipped: no device
  if (t.devices.empty()) {
    out.push_back({{"backend", "cpu"}, {"index", 0}, {"name", backend::cpu::cpu_model_name()}});
    return out;
  }
  for (const backend::Device* d : t.devices) {
    out.push_back({{"backend", backend::kind_name(d->info().kind)},
                   {"index", d->info().index},
                   {"name", d->info().name}});
  }
  if (t.variant->devices.with_host)
    out.push_back({{"backend", "cpu"}, {"index", 0}, {"name", backend::cpu::cpu_model_name()}});
  return out;
}

double rel_spread(const std::vector<double>& totals) {
  if (totals.size() < 2) return 0;
  stats::Summary s = stats::summarize(totals);
  return s.mean > 0 ? s.stddev / s.mean : 0;
}

// Repetitions go on past the minimum until the spread target, max_reps or
// the time limit; returns why they stopped, or "" to go on.
std::string stop_reason(const MeasurementPolicy& p, const std::vector<double>& totals,
                        double elapsed_s) {
  const int n = static_cast<int>(totals.size());
  if (n < p.min_reps) return "";
  if (p.max_reps <= p.min_reps) return "min_reps";
  if (p.target_rel_spread > 0 && n >= 2 && rel_spread(totals) <= p.target_rel_spread)
    return "spread";
  if (n >= p.max_reps) return "max_reps";
  if (p.max_time_s > 0 && elapsed_s >= p.max_time_s) return "max_time";
  return "";
}

void flush_if_cold(const Target& t, const PointSettings& s) {
  if (!s.policy.cold || !s.devices) return;
  for (backend::Device* d : t.devices) s.devices->flush_l2(*d);
}

}  // namespace

Input Input::none() { return Input(datasets::DatasetFile{}, "-"); }

Input Input::unavailable(datasets::DatasetFile described, std::string label, std::string why) {
  Input in(std::move(described), std::move(label));
  in.unavailable_ = std::move(why);
  return in;
}

const backend::HostBuffer& Input::for_backend(backend::Kind kind, Devices& devices) {
  if (is_none()) {
    static const backend::HostBuffer empty;
    return empty;
  }
  if (!unavailable_.empty()) throw RunError(unavailable_);
  auto it = copies_.find(kind);
  if (it != copies_.end()) return it->second;
  // An input the host cannot hold fails this point with its cause instead
  // of swapping or being killed (the thesis' mapped arrays live in host
  // memory: a larger one needs a larger host).
  const std::uint64_t available = backend::cpu::host_memory_available();
  if (available && file_.size_bytes > available) {
    throw RunError(fmt::format(
        "the input {} ({} bytes) does not fit the host's available memory ({} bytes{}): every "
        "backend reads its input from a copy in host memory",
        label_, file_.size_bytes, available,
        copies_.empty() ? "" : fmt::format(", with {} other copies of it held", copies_.size())));
  }
  backend::HostBuffer buffer = devices.host_buffer(kind, file_.size_bytes);
  if (copies_.empty()) {
    datasets::load_file(file_.path, buffer.data(), file_.size_bytes);
  } else if (file_.size_bytes > 0) {
    std::memcpy(buffer.data(), copies_.begin()->second.data(), file_.size_bytes);
  }
  return copies_.emplace(kind, std::move(buffer)).first->second;
}

json run_point(const Target& t, Input& in, const PointSettings& settings,
               std::unique_ptr<PointRunner>* keep) {
  const backend::Device* dev = t.device();
  const MeasurementPolicy& policy = settings.policy;
  json params = json::object(), axes = json::object();
  for (const auto& [k, v] : t.params) params[k] = v;
  for (const auto& [k, v] : t.axes) axes[k] = v;
  json p = {{"key", point_key(t, in)},
            {"framework", t.variant->framework},
            {"variant", t.variant->name},
            {"app", t.app},
            {"backend", backend::kind_name(t.kind)},
            {"device_index", dev ? dev->info().index : 0},
            {"device_name", dev                            ? dev->info().name
                            : t.kind == backend::Kind::cpu ? backend::cpu::cpu_model_name()
                                                           : std::string()},
            {"dataset", dataset_json(in)},
            {"params", params},
            {"axes", axes},
            {"warmup", policy.warmup},
            {"repetitions", json::array()},
            {"status", "ok"},
            {"error", nullptr}};
  if (json d = devices_json(t); !d.empty()) p["devices"] = d;
  const std::string reference = t.app + " CPU reference";
  json validation_base = {{"kind", settings.validation.kind}, {"reference", reference}};
  if (settings.validation.kind == "tolerance")
    validation_base["tolerance"] = {{"rel", settings.validation.rel},
                                    {"abs", settings.validation.abs}};
  std::cerr << fmt::format("  {} ... ", p["key"].get<std::string>()) << std::flush;
  // Where the point's wall time went (the suite's time budget is spent here).
  Stopwatch point_wall;
  json wall = json::object();

  std::vector<double> totals;
  std::map<std::string, std::vector<double>> phases, counters;
  std::vector<std::string> phase_order, counter_order;
  std::string first_failure, stopped;
  PointContext ctx;
  ctx.device = t.device();
  ctx.devices = t.devices;
  ctx.app = t.app;
  ctx.input_size = in.file().size_bytes;
  ctx.input_checksum = in.file().checksum;
  ctx.params = t.params;
  ctx.validation = settings.validation;
  try {
    if (!t.skip_reason.empty()) throw SkipPoint(t.skip_reason);
    if (t.variant->skip) {
      if (std::string why = t.variant->skip(ctx); !why.empty()) throw SkipPoint(why);
    }
    Stopwatch loading;
    const backend::HostBuffer& bytes = in.for_backend(t.kind, *settings.devices);
    wall["input"] = loading.elapsed_ms() / 1e3;
    if (!in.is_none()) p["dataset"]["host_memory"] = backend::host_memory_name(bytes.kind());
    ctx.input = static_cast<const std::uint8_t*>(bytes.data());
    DriveHooks hooks;
    hooks.warmup = policy.warmup;  // first-touch, lazy allocation, caches
    hooks.before_run = [&] {
      flush_if_cold(t, settings);
      settle_host_heap();
    };
    hooks.another = [&](const std::vector<Repetition>&, double elapsed_s) {
      stopped = stop_reason(policy, totals, elapsed_s);
      return stopped.empty();
    };
    hooks.after_repetition = [&](PointRunner&, const Repetition& r) {
      const Measurement& m = r.measurement;
      json phase_ms = json::object(), rep_counters = json::object();
      for (const auto& ph : m.phases) {
        phase_ms[ph.name] = ph.ms;
        if (!phases.count(ph.name)) phase_order.push_back(ph.name);
        phases[ph.name].push_back(ph.ms);
      }
      for (const auto& [k, v] : m.counters) {
        rep_counters[k] = v;
        if (!counters.count(k)) counter_order.push_back(k);
        counters[k].push_back(v);
      }
      totals.push_back(m.total_ms);
      p["repetitions"].push_back({{"total_ms", m.total_ms},
                                  {"phases_ms", phase_ms},
                                  {"counters", rep_counters},
                                  {"validation", r.failure.empty() ? "passed" : "failed"}});
    };
    DrivenPoint driven = drive_point([&] { return t.variant->make(ctx); }, hooks);
    first_failure = driven.first_failure;
    wall["prepare"] = driven.prepare_s;
    wall["runs"] = driven.runs_s;
    wall["validation"] = driven.validation_s;
    const Work& w = driven.work;
    p["work"] = w.to_json();
    std::map<std::string, double> medians = {{"total_ms", stats::median(totals)}};
    for (const auto& [name, xs] : phases) medians[name] = stats::median(xs);
    p["rates"] = compute_rates(w, medians, settings.ceilings ? *settings.ceilings : json::array(),
                               backend::kind_name(t.kind), dev ? dev->info().index : 0,
                               p["dataset"].value("host_memory", "pinned"));
    json c = json::object();
    for (const auto& name : counter_order) c[name] = stats::median(counters[name]);
    p["counters"] = c;
    json v = validation_base;
    v["status"] = first_failure.empty() ? "passed" : "failed";
    v["message"] =
        first_failure.empty()
            ? "output equals the " + reference +
                  (settings.validation.kind == "tolerance" ? " within the stated tolerance" : "")
            : first_failure;
    p["validation"] = v;
    if (!first_failure.empty()) p["status"] = "failed";
    if (keep) *keep = std::move(driven.runner);
  } catch (const UsageError&) {
    throw;
  } catch (const SkipPoint& e) {
    p["status"] = "skipped";
    p["skip_reason"] = e.what();
  } catch (const KernelBuildError& e) {
    std::cerr << "\n" << e.log() << "\n";
    p["status"] = "error";
    p["error"] = e.what();
  } catch (const std::exception& e) {
    p["status"] = "error";
    p["error"] = e.what();
  }
  if (!p.contains("validation")) {
    json v = validation_base;
    const bool skipped = p["status"] == "skipped";
    v["status"] = skipped ? "skipped" : "not_run";
    v["message"] = skipped ? "the point was skipped" : "the point did not run";
    p["validation"] = v;
  }
  p["phase_order"] = phase_order;
  if (!totals.empty()) {
    p["measurement"] = {{"warmup", policy.warmup},
                        {"repetitions", totals.size()},
                        {"stopped", stopped.empty() ? "error" : stopped},
                        {"rel_spread", rel_spread(totals)},
                        {"cold", policy.cold}};
    json ph = json::object();
    for (const auto& name : phase_order) ph[name] = stats_json(phases[name]);
    // A point without input is measured by the input its work declares.
    const double bytes = in.is_none() && p.contains("work")
                             ? p["work"].value("input_bytes", 0.0)
                             : static_cast<double>(in.file().size_bytes);
    std::vector<double> gbps;
    for (double ms : totals) gbps.push_back(bytes / 1e9 / (ms / 1e3));
    stats::Summary g = stats::summarize(gbps);
    p["summary"] = {{"total_ms", stats_json(totals)},
                    {"phases_ms", ph},
                    {"throughput_gbps", {{"median", g.median}, {"min", g.min}, {"max", g.max}}}};
  }
  wall["total"] = point_wall.elapsed_ms() / 1e3;
  p["wall_s"] = wall;
  const std::string status = p["status"];
  if (status == "ok") {
    std::cerr << fmt::format(
        "ok, median {:.3f} ms ({:.3f} GB/s, {} reps), validated ({:.1f} s: runs {:.1f}, "
        "validation {:.1f})\n",
        p["summary"]["total_ms"]["median"].get<double>(),
        p["summary"]["throughput_gbps"]["median"].get<double>(), totals.size(),
        wall["total"].get<double>(), wall.value("runs", 0.0), wall.value("validation", 0.0));
  } else if (status == "failed") {
    std::cerr << "WRONG RESULT: " << first_failure << "\n";
  } else if (status == "skipped") {
    std::cerr << "skipped: " << p["skip_reason"].get<std::string>() << "\n";
  } else {
    std::cerr << "ERROR: " << p["error"].get<std::string>() << "\n";
  }
  return p;
}

}  // namespace harness
