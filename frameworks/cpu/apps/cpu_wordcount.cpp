// The CPU MapReduce runtime specialized for word count.
#include "frameworks/cpu/cpu_runtime.h"

namespace harness::cpu::wordcount_impl {
#include "frameworks/apps/wordcount/wordcount_types.clh"
#include "frameworks/cpu/cpu_runtime_body.h"
#include "frameworks/apps/wordcount/wordcount.clh"
#include "frameworks/cpu/cpu_runtime_run.h"
}  // namespace harness::cpu::wordcount_impl

namespace harness::cpu {
std::unique_ptr<mapreduce::Runtime> make_wordcount(const Options& options) {
  return std::make_unique<wordcount_impl::CpuMapReduce>(options);
}
}  // namespace harness::cpu
