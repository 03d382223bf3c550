// Experiment specs: one JSON file per figure/table ID in paper/experiments/,
// embedded in the binary (a user's own spec can be given by path).
#pragma once

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/registry.h"

namespace harness {

struct ExperimentRun {
  std::string framework;
  std::vector<std::string> variants;
  std::vector<std::string> apps;
  Params params;  // overrides of the variants' defaults
  // The presets the run takes part in (the spec's "presets"; empty: every
  // one). A run left out of the gpu preset keeps the 30-minute suite short
  // while `full` and `paper` still run it.
  std::vector<std::string> presets;

  bool in_preset(const std::string& preset) const {
    return presets.empty() || std::find(presets.begin(), presets.end(), preset) != presets.end();
  }
};

// A swept parameter: its values per preset, expanded from the spec's forms
// (a list; {"pow2": [lo, hi]}; {"range": [lo, hi, step]}; or an object of
// those per preset: {"ci": [...], "gpu": {...}, "paper": [...]}).
struct Axis {
  std::string name;                                        // a variant or app parameter
  std::map<std::string, std::vector<std::string>> values;  // preset -> values
  // A parameter of the dataset's generator (datasets::Generator::params): it
  // picks the input of the points, which are keyed by it like any axis.
  bool of_dataset = false;
};

// How a point is measured (written into the results): warm-up runs, at least
// `min_reps` (the spec's reps per preset) and at most `max_reps` repetitions;
// past the minimum, repetitions go on until the relative spread of the total
// time (sample stddev / mean) is at most `target_rel_spread` or `max_time_s`
// of measuring has passed. `cold`: the GPU's L2 is flushed before each run.
struct MeasurementPolicy {
  int warmup = 1;
  int min_reps = 1;
  int max_reps = 0;              // 0 or below min_reps: exactly min_reps
  double target_rel_spread = 0;  // 0: no noise-based stop
  double max_time_s = 0;         // 0: no time limit
  bool cold = false;
};

// An app's own dataset and sizes in an experiment over apps with different
// inputs (mars.fig4: text for string match, matrices for MM ...).
struct AppDataset {
  std::string dataset;                                    // generator name
  std::map<std::string, std::vector<std::string>> sizes;  // preset -> size labels
};

// The dataset of an experiment whose apps read no input (AppInfo::reads_input
// false): one point per variant, app and axis values, no size.
inline constexpr const char* kNoInput = "none";
inline constexpr const char* kNoInputLabel = "-";

struct Experiment {
  std::string id, title, seed, claim, verdict_rule;
  nlohmann::json verdict = nlohmann::json::object();
  nlohmann::json plot = nlohmann::json::object();
  std::vector<ExperimentRun> runs;
  std::string dataset;  // generator name; kNoInput: the apps make their own data
  std::map<std::string, std::vector<std::string>> sizes;  // preset -> size labels
  std::map<std::string, int> reps;                        // preset -> repetitions
  std::uint64_t seed_value = 42;                          // dataset seed
  std::map<std::string, AppDataset> app_datasets;         // per app, replacing dataset and sizes
  // The spec's "dataset_params": parameters of the dataset's generator tied
  // to its sizes, name -> preset -> the value at each size of `sizes` (a
  // scalar in the spec: every size). Parameters neither here nor axes take
  // their defaults.
  std::map<std::string, std::map<std::string, std::vector<std::string>>> dataset_params;
  // preset -> GPU memory budget in bytes (the spec's "gpu_memory_budget";
  // absent: none), so a family's out-of-GPU-memory path runs at every size.
  std::map<std::string, std::uint64_t> gpu_memory_budget;
  std::vector<Axis> axes;         // in name order (JSON objects are unordered)
  MeasurementPolicy measurement;  // as in the spec; min_reps comes from reps per preset
  ValidationPolicy validation;    // spec's; families default to their own kind
  bool validation_given = false;

  // The policy for `preset`, with `reps_override` (--reps) fixing the count.
  MeasurementPolicy policy_for(const std::string& preset, std::optional<int> reps_override) const;
};

// The fields every spec must have (and "sizes" unless "dataset" is "none");
// parse_experiment names all that are missing in one message.
inline constexpr const char* kRequiredSpecFields[] = {
    "id", "title", "seed", "claim", "verdict_rule", "verdict", "dataset", "runs", "reps"};

// Parses and checks a spec (names of frameworks, variants, apps and datasets
// included); throws UsageError("<origin>: <what is wrong>").
Experiment parse_experiment(const std::string& text, const std::string& origin);
// `harness new-spec`: a minimal spec with every required field, for
// `framework`'s `variants` on `app` (the app's default dataset at sizes an
// embedded experiment uses for it, 5 repetitions; with two or more variants
// the rule is "the last is faster than the first", else "every run
// validates"). The text is checked by parse_experiment before it is returned.
struct NewSpec {
  std::string id = "my.experiment";
  std::string framework = "mars";
  std::vector<std::string> variants = {"default"};
  std::string app = "wordcount";
};
std::string new_spec(const NewSpec& n);

// Embedded experiments, by id order.
std::vector<Experiment> embedded_experiments();
// An embedded experiment by id, or a spec file when `id_or_path` ends in .json.
Experiment find_experiment(const std::string& id_or_path);

}  // namespace harness
