// The registry: frameworks' variants and the apps they run.
//
// A variant is a concrete configuration of a framework family (mars/default,
// mars/sort, cpu/default, ...). For each measured point the runner asks the
// variant for a PointRunner bound to one device, app and input; it then calls
// run_once() for each repetition and validate_last() after each one, so every
// measured run is checked against the CPU reference.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/backend/backend.h"

namespace harness {

using Params = std::map<std::string, std::string>;

struct PhaseTime {
  std::string name;
  double ms = 0;
};

// The work a point did, declared so throughput and fractions of the measured
// ceilings are computed in one place for every variant.
struct Work {
  std::uint64_t input_bytes = 0;
  std::uint64_t records = 0;
  std::uint64_t intermediate_pairs = 0;
  std::uint64_t output_keys = 0;
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  std::uint64_t atomics = 0;
};

struct Measurement {
  double total_ms = 0;            // host clock, input in host memory -> output in host memory
  std::vector<PhaseTime> phases;  // device-timed where the backend allows, in order
  std::map<std::string, double> counters;
};

class PointRunner {
 public:
  virtual ~PointRunner() = default;
  // Untimed set-up (kernel builds, reference); called once before the warm-up.
  virtual void prepare() = 0;
  virtual Measurement run_once() = 0;
  // Empty when the last run's output matches the reference, else the reason.
  virtual std::string validate_last() = 0;
  virtual Work work() const = 0;
  // The last run's output as sorted `key<TAB>value` lines.
  virtual void write_output_tsv(std::ostream& out) const = 0;
};

struct PointContext {
  backend::Device* device = nullptr;  // null for the cpu backend
  std::string app;
  const std::uint8_t* input = nullptr;
  std::size_t input_size = 0;
  Params params;  // variant defaults overridden by the caller
};

struct VariantInfo {
  std::string framework;
  std::string name;
  std::string description;
  std::vector<backend::Kind> backends;
  Params default_params;
  std::vector<std::string> apps;  // apps it can run
  std::function<std::unique_ptr<PointRunner>(const PointContext&)> make;

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
};

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

// Defined in frameworks/register_all.cpp: registers every framework and app.
void register_all();

}  // namespace harness
