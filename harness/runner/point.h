// Measuring one point: prepare, warm-up, repetitions under the experiment's
// measurement policy, validation of every run, counters per repetition, and
// the point's JSON (results/README.md) with its rates and fractions of the
// measured ceilings.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "datasets/dataset.h"
#include "harness/core/registry.h"
#include "harness/runner/devices.h"
#include "harness/runner/experiment.h"

namespace harness {

// What a point runs: a variant on an app, with its parameters, on its devices.
struct Target {
  const VariantInfo* variant = nullptr;
  std::string app;
  Params params;
  std::vector<std::pair<std::string, std::string>> axes;  // swept values, also in params
  backend::Kind kind = backend::Kind::cpu;
  std::vector<backend::Device*> devices;  // empty for cpu; primary first
  std::string skip_reason;                // set when the devices needed are not present
  // The axes that are parameters of its input's generator (also in axes).
  Params dataset_params = {};
  backend::Device* device() const { return devices.empty() ? nullptr : devices.front(); }
};

// One dataset in host memory, loaded from disk once and copied, on first
// use, into the host memory that suits each backend (Devices::host_buffer).
class Input {
 public:
  Input(datasets::DatasetFile file, std::string label)
      : file_(std::move(file)), label_(std::move(label)) {}
  // No input: points of apps that make their own data (no file, no bytes).
  static Input none();
  // An input that could not be made (`described` says what it would have
  // been): every point that asks for its bytes fails with `why`, and the
  // run goes on with the next input.
  static Input unavailable(datasets::DatasetFile described, std::string label, std::string why);
  bool is_none() const { return file_.path.empty() && file_.generator.empty(); }
  const datasets::DatasetFile& file() const { return file_; }
  const std::string& label() const { return label_; }
  // The bytes in host memory suited to `kind`.
  const backend::HostBuffer& for_backend(backend::Kind kind, Devices& devices);

 private:
  datasets::DatasetFile file_;
  std::string label_;
  std::string unavailable_;  // why the bytes could not be made, if they could not
  std::map<backend::Kind, backend::HostBuffer> copies_;
};

struct PointSettings {
  MeasurementPolicy policy;
  ValidationPolicy validation;
  bool validation_given = false;             // the spec stated a policy (else the family's own)
  const nlohmann::json* ceilings = nullptr;  // the document's ceilings, for fractions
  Devices* devices = nullptr;                // for cold runs (L2 flush)
};

// Everything that decides what a point measures: its key, parameters, input
// (checksum), devices and their memory budgets, measurement and validation
// policies, as a digest ("xxh64:" and 16 hex digits, the datasets' checksum)
// recorded in the point.
// Two targets with the same identity measure the same thing, so a run
// measures it once (runner.h, MeasuredPoints), and a resumed run reuses it
// from a finished document of the same build.
std::string point_identity(const Target& t, const Input& in, const PointSettings& settings);

// Runs one point. Errors become the point's status; only UsageError escapes.
// `keep` receives the PointRunner (for --dump-output) when the point ran.
nlohmann::json run_point(const Target& t, Input& in, const PointSettings& settings,
                         std::unique_ptr<PointRunner>* keep = nullptr);

}  // namespace harness
