// AtomicMR (seed S0, sections IV and VI): Mars without its count pass, output
// space reserved with global atomics per thread or per warp (Mars' runtime
// with mars::Options::reserve), and MapCG-style grouping in a global hash
// table (hash_runtime.h). See README.md.
#pragma once

namespace harness::atomicmr {
void register_variants();
}
