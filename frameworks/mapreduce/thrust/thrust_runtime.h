// thrust: the everyday GPU group-by as a MapReduce baseline (not a paper's
// system): map on the device, 64-bit key hashes, thrust::sort_by_key and
// thrust::reduce_by_key, optionally a collision check (k-means: the cluster
// id as the key). CUDA only (frameworks/mapreduce/thrust/README.md).
#pragma once

#include "frameworks/mapreduce/common/mapreduce_runtime.h"

namespace harness::thrustmr {

struct Options {
  // Low bits of the 64-bit FNV-1a key hash kept (1..64); tests keep few so
  // that different words collide and the (hash, bytes) fallback runs.
  std::uint32_t hash_bits = 64;
  // Compare the bytes of keys with equal hashes, splitting collisions (the
  // exact group-by); off trusts the hash, as a plain thrust program does.
  bool verify_keys = false;
  // Keep thrust's temporary blocks from call to call (thrust_temp.h); off:
  // cudaMalloc and cudaFree on every call, thrust's default.
  bool temp_cache = true;
};

ParamDecls params();
Options options_from(const Params& params);
// Whether thrust/default runs this app or job (wordcount, kmeans,
// invertedindex, pvc_dedup, pvc_count, pvr_rank); the others are a
// UsageError at prepare.
bool runs(const std::string& app_or_job);
// The registered apps thrust/default runs (v.apps): those all of whose jobs it runs.
std::vector<std::string> app_names();
// A UsageError in a build without CUDA, or on a device that is not CUDA's.
std::unique_ptr<mapreduce::Runtime> make_runtime(backend::Device& device, const Options& options);
void register_variants();

}  // namespace harness::thrustmr
