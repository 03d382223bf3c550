// The registry: frameworks' variants and the apps they run.
//
// A variant is a concrete configuration of a framework family (mars/default,
// mars/sort, cpu/default, ...). For each measured point the runner asks the
// variant for a PointRunner bound to its devices, app, input and parameters;
// it calls prepare() once, then for the warm-up and each repetition
// before_repetition() (untimed), run_once() and validate_last(), so every
// measured run is checked against the CPU reference.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/core/params.h"
#include "harness/core/validation.h"
#include "harness/core/work.h"

namespace harness {

struct PhaseTime {
  std::string name;
  double ms = 0;
};

struct Measurement {
  double total_ms = 0;            // host clock, input in host memory -> output in host memory
  std::vector<PhaseTime> phases;  // device-timed where the backend allows, in order
  std::map<std::string, double> counters;  // this repetition's counters
};

class PointRunner {
 public:
  virtual ~PointRunner() = default;
  // Untimed set-up (kernel builds, reference); called once before the warm-up.
  // May throw SkipPoint.
  virtual void prepare() = 0;
  // Untimed, before the warm-up and each repetition: resets state a run
  // consumes (a hash table to clear, an output buffer to poison), so set-up
  // stays out of the timed region explicitly.
  virtual void before_repetition() {}
  virtual Measurement run_once() = 0;
  // Empty when the last run's output matches the reference, else the reason.
  virtual std::string validate_last() = 0;
  // The work of the last run (work.h): rates and fractions of ceilings follow.
  virtual Work work() const = 0;
  // The family's output-dump hook (`harness run --dump-output FILE`): the last
  // run's output in the family's documented format (MapReduce: sorted
  // `key<TAB>value` lines).
  virtual void dump_output(std::ostream& out) const = 0;
};

struct PointContext {
  backend::Device* device = nullptr;      // the primary device; null for the cpu backend
  std::vector<backend::Device*> devices;  // every GPU device of the point, device first
  std::string app;
  const std::uint8_t* input = nullptr;
  std::size_t input_size = 0;
  // Identifies the input's bytes ("xxh64:..."): references cached across
  // points are keyed on it, never on the buffer's address alone (a freed
  // buffer's address can come back holding another dataset).
  std::string input_checksum;
  Params params;  // declared defaults overridden by the spec, its axes, or --param; checked
  ValidationPolicy validation;  // the spec's validation policy (kind, tolerance)
};

// How many devices a variant's point uses beyond the primary one.
struct DeviceNeeds {
  // Name of the integer parameter giving the number of GPUs of the backend
  // (stream graphs' "gpus"); empty: one device. A point asking for more than
  // are present is skipped with the reason.
  std::string count_param;
  // Name of a parameter that, when "1", lets the point run on fewer devices
  // than count_param asks for (the variant maps its logical GPUs onto the
  // devices it gets, round-robin); empty: no sharing. Without it, a point
  // asking for more devices than present is skipped in an experiment and a
  // UsageError from `harness run`.
  std::string share_param;
  // The point also runs work on the host CPU beside its GPU (co-processing);
  // the host is recorded among the point's devices.
  bool with_host = false;
};

struct VariantInfo {
  std::string framework;
  std::string name;
  std::string description;
  std::vector<backend::Kind> backends;
  ParamDecls params;              // its knobs, with this variant's defaults (harness/core/params.h)
  std::vector<std::string> apps;  // apps it can run
  std::function<std::unique_ptr<PointRunner>(const PointContext&)> make;
  // Optional: a non-empty reason to skip a combination of parameters (axis
  // values) before anything is built, recorded as a point with status
  // "skipped" (called before the input is loaded: ctx.input is null). May also
  // throw SkipPoint from make() or prepare().
  std::function<std::string(const PointContext&)> skip;
  DeviceNeeds devices;

  bool runs_app(const std::string& app) const {
    for (const auto& a : apps) {
      if (a == app) return true;
    }
    return false;
  }
};

struct AppInfo {
  std::string name;
  std::string kind;  // "mapreduce", ...
  std::string description;
  std::string default_dataset;
  // False for an app that makes its own data (microbenchmarks, stream graphs,
  // tables): its points load no dataset (the spec's "dataset": "none").
  bool reads_input = true;
  // What a correct answer means for this app; an experiment spec may override it.
  ValidationPolicy validation;
  // The app's own parameters (a pattern to match, k centroids ...): given
  // like a variant's (--param, a spec's params, axes).
  ParamDecls params;
};

// A point's parameters before overrides: the variant's knobs and the app's
// own parameters.
Params point_defaults(const VariantInfo& variant, const AppInfo& app);
// The declaration of `name` for a point of `variant` running `app` (the
// variant's first, then the app's); null when neither declares it.
const ParamDecl* find_point_param(const VariantInfo& variant, const AppInfo& app,
                                  const std::string& name);
// Checks every entry of `params` against the declarations of `variant` and
// `app`: UsageError naming an undeclared parameter (with the declared ones) or
// a value its declaration does not take.
void check_point_params(const VariantInfo& variant, const AppInfo& app, const Params& params);

class Registry {
 public:
  static Registry& instance();
  void add_variant(VariantInfo v);
  void add_app(AppInfo a);
  const std::vector<VariantInfo>& variants() const { return variants_; }
  const std::vector<AppInfo>& apps() const { return apps_; }
  std::vector<std::string> frameworks() const;
  // Throws UsageError naming the known alternatives.
  const VariantInfo& find_variant(const std::string& framework, const std::string& variant) const;
  const AppInfo& find_app(const std::string& name) const;

 private:
  std::vector<VariantInfo> variants_;
  std::vector<AppInfo> apps_;
};

}  // namespace harness
