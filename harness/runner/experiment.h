// Experiment specs: one JSON file per figure/table ID in paper/experiments/,
// embedded in the binary (a user's own spec can be given by path).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/core/registry.h"

namespace harness {

struct ExperimentRun {
  std::string framework;
  std::vector<std::string> variants;
  std::vector<std::string> apps;
  Params params;  // overrides of the variants' defaults
};

struct Experiment {
  std::string id, title, seed, claim, verdict_rule;
  nlohmann::json verdict = nlohmann::json::object();
  nlohmann::json plot = nlohmann::json::object();
  std::vector<ExperimentRun> runs;
  std::string dataset;                                    // generator name
  std::map<std::string, std::vector<std::string>> sizes;  // preset -> size labels
  std::map<std::string, int> reps;                        // preset -> repetitions
  std::uint64_t seed_value = 42;                          // dataset seed
};

// Parses and checks a spec (names of frameworks, variants, apps and datasets
// included); throws UsageError("<origin>: <what is wrong>").
Experiment parse_experiment(const std::string& text, const std::string& origin);
// Embedded experiments, by id order.
std::vector<Experiment> embedded_experiments();
// An embedded experiment by id, or a spec file when `id_or_path` ends in .json.
Experiment find_experiment(const std::string& id_or_path);

}  // namespace harness
