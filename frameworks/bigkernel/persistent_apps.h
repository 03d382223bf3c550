// The apps the persistent kernel runs (persistent.h), one persistent_<app>.cu
// each (persistent_chunk_table_apps.cu holds Netflix's and DNA Assembly's): the
// app's instantiation of kernels/persistent_pipeline.cuh.
#pragma once

#include <string>

#include "frameworks/bigkernel/persistent.h"

namespace harness::bigkernel {

struct PersistentAppKernel {
  std::string app;
  void (*launch)(const PersistentLaunch& launch, const PersistentAppArgs& args, void* stream);
  // Blocks of the kernel one SM holds at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor).
  int (*blocks_per_sm)();
};

const PersistentAppKernel& persistent_kmeans_particles();
const PersistentAppKernel& persistent_opinion_finder();
const PersistentAppKernel& persistent_wc();
const PersistentAppKernel& persistent_netflix();
const PersistentAppKernel& persistent_dna_assembly();

}  // namespace harness::bigkernel
