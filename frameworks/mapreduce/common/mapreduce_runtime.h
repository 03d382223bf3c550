// What every MapReduce runtime (mars, atomicmr, streammr, cpu) implements, and
// the adapter that turns one into a PointRunner: it computes the app's CPU
// reference once per input and checks every run's output against it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/mapreduce/apps/mapreduce_app.h"
#include "harness/core/registry.h"

namespace harness::mapreduce {

// An input after the host preprocessing every runtime starts a run with: the
// app's record split (Mars' AddMapInputRecord) and its side data.
struct PreparedInput {
  const std::uint8_t* data = nullptr;
  std::size_t size = 0;
  std::vector<std::uint32_t> offsets;  // records' starts, then the end (records + 1 entries)
  std::vector<std::uint8_t> side;
  std::uint32_t records() const { return static_cast<std::uint32_t>(offsets.size() - 1); }
};
// app.split_records and app.side_data(params, ...) of the whole input.
PreparedInput preprocess(const apps::MapReduceApp& app, const apps::Params& params,
                         const std::uint8_t* data, std::size_t size);
// The same into `in`, whose offsets' memory a repeated run reuses
// (MapReduceApp::split_records_into).
void preprocess_into(const apps::MapReduceApp& app, const apps::Params& params,
                     const std::uint8_t* data, std::size_t size, PreparedInput& in);

struct RunResult {
  Measurement measurement;
  apps::KeyValueList output;  // canonical order (apps::sort_output) unless the
                              // runtime's canonical_output() is false
  Work work;
};

class Runtime {
 public:
  virtual ~Runtime() = default;
  // The app's parameters for the runs that follow (a point's params; names
  // that are not the app's are ignored, missing ones take their defaults).
  void set_app_params(apps::Params params) { app_params_ = std::move(params); }
  const apps::Params& app_params() const { return app_params_; }
  // Untimed: kernel builds and other one-time set-up.
  virtual void prepare(const apps::MapReduceApp& /*app*/) {}
  // One timed run: host preprocessing (app.split_records and
  // app.side_data(app_params(), ...)), map, grouping, reduce, output in host
  // memory. Inputs of apps::kMaxInputBytes or more throw RunError. Default:
  // mapreduce::preprocess timed as phase `preprocess` (Mars' AddMapInputRecord
  // on the host), then run_records over every record.
  virtual RunResult run(const apps::MapReduceApp& app, const std::uint8_t* input, std::size_t size);
  // One timed run over map records [first, last) of an input the caller has
  // preprocessed (co-processing, mars.fig9, splits one input between two
  // runtimes): no `preprocess` phase; the output is that of those records
  // alone (apps::MapReduceApp::merge_outputs joins such parts). Default: a
  // UsageError naming the runtime.
  virtual RunResult run_records(const apps::MapReduceApp& app, const PreparedInput& input,
                                std::uint32_t first, std::uint32_t last);
  // For messages.
  virtual std::string name() const { return "this runtime"; }
  // Whether run's output is put in canonical order (default: yes). A job
  // chain turns it off for a job whose output only feeds the next job, where
  // order does not matter: sorting page view count's 1.2 M distinct entries
  // (untimed) took most of each run's wall time.
  void set_canonical_output(bool canonical) { canonical_output_ = canonical; }
  bool canonical_output() const { return canonical_output_; }

 protected:
  // The end of every run: apps::sort_output unless canonical_output() is off.
  void order_output(const apps::MapReduceApp& app, apps::KeyValueList& output) const {
    if (canonical_output_) apps::sort_output(app, output);
  }
  apps::Params app_params_;
  // The last run's preprocessed input, kept so the next run reuses its memory.
  PreparedInput prepared_input_;

 private:
  bool canonical_output_ = true;
};

using RuntimeFactory = std::function<std::unique_ptr<Runtime>(const PointContext&)>;

// Wraps a runtime factory as the VariantInfo::make of a MapReduce variant. The
// point's validation kind picks the comparison: "exact" (compare_outputs) or
// "set" (compare_output_sets); other kinds are a UsageError.
std::function<std::unique_ptr<PointRunner>(const PointContext&)> point_factory(
    RuntimeFactory make_runtime);

// Registers `v` as a GPU MapReduce variant (backends opencl and cuda): each
// point's runtime is make(its device, its params); a point without a device
// is a UsageError naming v.framework.
using DeviceRuntimeFactory =
    std::function<std::unique_ptr<Runtime>(backend::Device&, const Params&)>;
void add_gpu_variant(VariantInfo v, DeviceRuntimeFactory make);

// A variant that is its family's knobs with some defaults changed.
struct VariantRow {
  const char* name;
  const char* description;
  Params overrides;  // knob -> this variant's default
};
// Which apps a variant runs, given its knobs' defaults.
using RunsApp = std::function<bool(const Params& defaults, const apps::MapReduceApp& app)>;
// add_gpu_variant for each row: `framework`'s declarations `family` with the
// row's defaults, the registered apps `runs` accepts, and `make`.
void add_gpu_variant_rows(const std::string& framework, const ParamDecls& family,
                          const std::vector<VariantRow>& rows, const RunsApp& runs,
                          const DeviceRuntimeFactory& make);

}  // namespace harness::mapreduce
