// The CPU MapReduce runtime specialized for inverted index.
#include "frameworks/cpu/cpu_runtime.h"

// The order matters: app types, this runtime's emit API, the app's functions,
// the runtime's driver (frameworks/apps/README.md).
namespace harness::cpu::invertedindex_impl {
// clang-format off
#include "frameworks/apps/invertedindex/invertedindex_types.clh"
#include "frameworks/cpu/cpu_runtime_body.h"
#include "frameworks/apps/invertedindex/invertedindex.clh"
#include "frameworks/cpu/cpu_runtime_run.h"
// clang-format on
}  // namespace harness::cpu::invertedindex_impl

namespace harness::cpu {
std::unique_ptr<mapreduce::Runtime> make_invertedindex(const Options& options) {
  return std::make_unique<invertedindex_impl::CpuMapReduce>(options);
}
}  // namespace harness::cpu
