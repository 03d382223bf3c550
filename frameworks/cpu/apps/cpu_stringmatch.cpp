// The CPU MapReduce runtime specialized for string match.
#include "frameworks/cpu/cpu_runtime.h"

// The order matters: app types, this runtime's emit API, the app's functions,
// the runtime's driver (frameworks/apps/README.md).
namespace harness::cpu::stringmatch_impl {
// clang-format off
#include "frameworks/apps/stringmatch/stringmatch_types.clh"
#include "frameworks/cpu/cpu_runtime_body.h"
#include "frameworks/apps/stringmatch/stringmatch.clh"
#include "frameworks/cpu/cpu_runtime_run.h"
// clang-format on
}  // namespace harness::cpu::stringmatch_impl

namespace harness::cpu {
std::unique_ptr<mapreduce::Runtime> make_stringmatch(const Options& options) {
  return std::make_unique<stringmatch_impl::CpuMapReduce>(options);
}
}  // namespace harness::cpu
