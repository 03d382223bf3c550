// `harness reproduce` resumes: an experiment whose results document is already
// complete for this build, preset and devices is not run again.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "harness/backend/backend.h"
#include "harness/runner/experiment.h"

namespace harness::cli {

// What a run of one experiment would be, to compare with a document on disk.
struct ResumeTarget {
  std::string experiment_id;
  std::string preset;
  std::set<std::string> backends;      // backends the run would use: "cpu", "opencl", ...
  std::optional<std::string> backend;  // the --backend restriction, if any
  nlohmann::json environment;          // environment_json() of this process
};

struct ResumeCheck {
  bool skip = false;   // complete and made the same way: no need to run
  std::string reason;  // why it must run again ("" when skip, or when there is no document)
  nlohmann::json doc;  // check_resume_file, when skip: the kept document (read once)
};

// The target of a run of `e` at `preset`, restricted to `backend` if given,
// in this process' `environment` (environment_json()).
ResumeTarget resume_target(const Experiment& e, const std::string& preset,
                           std::optional<backend::Kind> backend, nlohmann::json environment);

// Compares a results document with the run that would replace it. The
// document is kept when it is complete, holds the same experiment, was made
// by the same build (environment.harness_version, git_sha, build_type) at the
// same preset, on the same devices (backend, index, name) for every backend
// the run would use, and its points lie on the backends the run would use
// (with a point on each of those that has a device now; skipped points of a
// variant that runs nowhere in such a run may lie on other backends).
ResumeCheck check_resume(const nlohmann::json& doc, const ResumeTarget& target);
// The same for a file: no file gives {false, ""}; an unreadable one a reason.
ResumeCheck check_resume_file(const std::string& path, const ResumeTarget& target);

// Backends a run of `e` at `preset` would use: the backends of the variants
// of its runs in that preset that are compiled in, cut down to the
// restriction (cpu baselines always run).
std::set<std::string> backends_used(const Experiment& e, const std::string& preset,
                                    std::optional<backend::Kind> restriction);

// Results file name of an experiment: <id>.json, or <id>@<backend>.json under
// a --backend restriction so that per-backend runs can share a folder.
std::string results_file_name(const std::string& id, std::optional<backend::Kind> restriction);

}  // namespace harness::cli
