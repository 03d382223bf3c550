// What the Google Benchmark binaries (bench_memory, bench_atomics) share:
// their own flags (--backend=cuda|opencl, --device=N), Google Benchmark's
// initialization, the device to measure (the first GPU-type device of cuda,
// then opencl, else the first device of either), and the context block that
// names it in the JSON output.
#pragma once

#include <memory>

#include "harness/backend/backend.h"

namespace harness::micro {

// Returns the device, or nullptr after printing why, with `exit_code` set (2
// for a bad flag, 1 for no device). `program` prefixes the messages.
std::unique_ptr<backend::Device> start_benchmarks(const char* program, int& argc, char** argv,
                                                  int& exit_code);

}  // namespace harness::micro
