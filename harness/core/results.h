// A results document (schema: results/schema/results.schema.json), rewritten
// atomically after every point so that a crash loses nothing already measured.
// Each rewrite records the wall time since the document was started
// (`wall_s`): what the experiment has cost so far, summed by the report.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

namespace harness {

// Version 2 adds declared work with rates and fractions of the ceilings, axes,
// skipped points, the measurement policy, per-repetition counters and the
// devices of each point (results/README.md). Readers accept versions 1 and 2.
inline constexpr int kResultsSchemaVersion = 2;
inline constexpr int kOldestReadableSchemaVersion = 1;

class ResultsDocument {
 public:
  // Writes the document at once with no points (complete = false): an
  // unwritable path fails here, before anything is measured (RunError).
  ResultsDocument(std::string path, nlohmann::json experiment, nlohmann::json environment);
  void add_ceiling(nlohmann::json ceiling);
  void add_point(nlohmann::json point);
  void finish();  // complete = true
  const nlohmann::json& json() const { return doc_; }
  const std::string& path() const { return path_; }

 private:
  void write();
  std::string path_;
  nlohmann::json doc_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::string utc_now_iso8601();

}  // namespace harness
