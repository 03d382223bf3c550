// CPU+GPU co-processing (seed S1, section 4.4, mars.fig9): one job's map
// records split between the cpu runtime and Mars by their measured speeds,
// both run at once, and their outputs merged (apps::MapReduceApp::merge_outputs).
#pragma once

#include <memory>

#include "frameworks/mapreduce/common/mapreduce_runtime.h"

namespace harness::coproc {

struct Options {
  // Fraction of the input's bytes (whole records) the CPU takes; negative:
  // "auto", each run takes the ratio of the two parts' speeds measured in the
  // run before (the first run splits in half).
  double cpu_share = -1;
};

// Splits every run between `cpu` and `gpu`, which must both implement
// Runtime::run_records.
std::unique_ptr<mapreduce::Runtime> make_runtime(std::unique_ptr<mapreduce::Runtime> cpu,
                                                 std::unique_ptr<mapreduce::Runtime> gpu,
                                                 const Options& options);

// The first record of the GPU's part when the CPU takes `share` of the
// records' bytes: records [0, split) go to the CPU, [split, records) to the GPU.
std::uint32_t split_record(const std::vector<std::uint32_t>& offsets, double share);

void register_variants();

}  // namespace harness::coproc
