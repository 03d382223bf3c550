// Untimed host-heap housekeeping between repetitions. Validating a run frees
// millions of small blocks (formatted keys, per-pair vectors); glibc's malloc
// then consolidates them inside the next large allocation, which lands in the
// next run's timed preprocessing: measured on an H200 host, a similarity-score
// run's record split took 3 s instead of 20 ms. Consolidating here, before the
// timer starts, keeps that cost out of every family's measurements.
#pragma once

namespace harness {

// malloc_trim(0) on glibc; nothing elsewhere.
void settle_host_heap();

}  // namespace harness
