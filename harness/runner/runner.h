// Runs experiments and single points: picks devices, materializes datasets,
// runs warm-up + repetitions, validates every run against the CPU reference
// and writes each point to the results document as soon as it is measured.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/runner/experiment.h"

namespace harness {

// Validated points of a run by identity, each with the experiment that
// measured it: the Mars and StreamMR figures measure their default variants on
// the same inputs, so a reproduce of the suite measures each of them once.
class MeasuredPoints {
 public:
  struct Entry {
    std::string experiment;
    nlohmann::json point;
  };
  const Entry* find(const std::string& identity) const;
  // Keeps `point` (status ok) under `identity`.
  void remember(const std::string& identity, const std::string& experiment, nlohmann::json point);
  // Keeps the ok points of a finished results document of this build (a
  // resumed reproduce skips it) under their recorded identity, each naming
  // the experiment that measured it; returns how many. Points of documents
  // written before identities were recorded are not kept.
  int remember_document(const nlohmann::json& doc, const std::string& experiment);

 private:
  std::map<std::string, Entry> points_;
};

struct RunOptions {
  std::string preset = "ci";
  std::optional<backend::Kind> backend;  // restricts GPU variants; cpu baselines always run
  std::optional<int> device;             // device index within the backend
  std::optional<int> reps;               // overrides the spec's repetitions
  std::string out_path;                  // results document
  std::string data_dir;                  // dataset cache ("" = default)
  bool ceilings = true;                  // measure device ceilings into the document
  // Points measured by earlier experiments of the same run (reproduce keeps
  // one for all its experiments): a point with the same identity
  // (point_identity) is copied from it, naming that experiment, instead of
  // measured again. Null (the default, and reproduce --no-reuse): every point
  // is measured.
  MeasuredPoints* measured = nullptr;
  // GPU memory budget in bytes for every device (--gpu-memory-budget); unset:
  // the spec's for the preset, else none.
  std::optional<std::uint64_t> gpu_memory_budget;
};

struct RunSummary {
  int points = 0;
  int ok = 0;
  int failed = 0;   // wrong answers
  int errors = 0;   // could not run
  int skipped = 0;  // declined by the variant, or the devices it needs are missing
  int exit_code() const { return failed + errors > 0 ? 1 : 0; }
};

RunSummary run_experiment(const Experiment& experiment, const RunOptions& options);

// One point on the user's own file or a generated dataset.
struct SinglePoint {
  std::string framework, variant, app;
  std::string input_path;     // a user's file, or
  std::string dataset, size;  // a generator and size
  Params dataset_params;      // the generator's parameters (the others: their defaults)
  backend::Kind backend = backend::Kind::cpu;
  int device = -1;  // -1: the default device of the backend
  int reps = 3;
  Params params;
  std::string dump_output;  // key<TAB>value lines
  std::string out_path;     // results document (optional)
  std::string data_dir;
  bool ceilings = true;                 // with out_path: measure the device's ceilings into it
  std::uint64_t gpu_memory_budget = 0;  // bytes for every device; 0: none
};
RunSummary run_single(const SinglePoint& point);

// Preset that suits the devices present: "gpu" when a CUDA or OpenCL GPU
// device exists, else "ci".
std::string default_preset();

}  // namespace harness
