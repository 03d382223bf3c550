// What every MapReduce runtime (mars, atomicmr, streammr, cpu) implements, and
// the adapter that turns one into a PointRunner: it computes the app's CPU
// reference once per input and checks every run's output against it.
#pragma once

#include <functional>
#include <memory>

#include "frameworks/apps/mapreduce_app.h"
#include "harness/core/registry.h"

namespace harness::mapreduce {

struct RunResult {
  Measurement measurement;
  apps::KeyValueList output;  // sorted by key bytes
  Work work;
};

class Runtime {
 public:
  virtual ~Runtime() = default;
  // Untimed: kernel builds and other one-time set-up.
  virtual void prepare(const apps::MapReduceApp& /*app*/) {}
  virtual RunResult run(const apps::MapReduceApp& app, const std::uint8_t* input,
                        std::size_t size) = 0;
};

using RuntimeFactory = std::function<std::unique_ptr<Runtime>(const PointContext&)>;

// Wraps a runtime factory as the VariantInfo::make of a MapReduce variant.
std::function<std::unique_ptr<PointRunner>(const PointContext&)> point_factory(
    RuntimeFactory make_runtime);

// Reads a boolean/integer knob from params; throws UsageError for a bad value.
bool param_bool(const Params& params, const std::string& name);
std::uint32_t param_u32(const Params& params, const std::string& name);

}  // namespace harness::mapreduce
