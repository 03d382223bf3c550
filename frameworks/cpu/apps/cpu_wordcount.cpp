// The CPU MapReduce runtime specialized for word count.
#include "frameworks/cpu/cpu_runtime.h"

// The order matters: app types, this runtime's emit API, the app's functions,
// the runtime's driver (frameworks/apps/README.md).
namespace harness::cpu::wordcount_impl {
// clang-format off
#include "frameworks/apps/wordcount/wordcount_types.clh"
#include "frameworks/cpu/cpu_runtime_body.h"
#include "frameworks/apps/wordcount/wordcount.clh"
#include "frameworks/cpu/cpu_runtime_run.h"
// clang-format on
}  // namespace harness::cpu::wordcount_impl

namespace harness::cpu {
std::unique_ptr<mapreduce::Runtime> make_wordcount(const Options& options) {
  return std::make_unique<wordcount_impl::CpuMapReduce>(options);
}
}  // namespace harness::cpu
