// StreamMR (seed S0): a GPU MapReduce runtime without global atomics. Map and
// reduce write into per-work-group buffers (local atomics only) with a second
// pass for what did not fit; intermediate pairs are grouped in one hash table
// per wavefront, with an optional map-side combiner; the reduce walks every
// table (plus a cleanup kernel), or merges tables in a tree first.
#pragma once

#include "frameworks/mapreduce/common/mapreduce_runtime.h"

namespace harness::streammr {

struct Options {
  bool combine = true;  // map-side (and tree) combiner, where the app has one
  bool tree = false;    // tree-like reduce: merge tables pairwise, then reduce table 0
  // Preallocated map output per work-group, in pairs; 0: one pair per record
  // of the group + 16 (exact for matrixmult and kmeans, ample for string
  // match; apps that emit more per record, word count or inverted index, take
  // the second pass unless size_hint is set).
  std::uint32_t size_hint = 0;
  // Preallocated key bytes per preallocated pair; 0: 16 per pair + 64 per
  // group, so that with size_hint set and short keys (string match, fig11)
  // only the pairs limit the buffer.
  std::uint32_t key_hint = 0;
  // Values the combiner's local buffer holds; 0: one per work-item. Fewer
  // halve the active work-items of an election step (counter combine_rounds).
  std::uint32_t local_values = 0;
  std::uint32_t hash_mask = 0xffffffffu;  // bits of the key hash kept (tests: collisions)
  std::uint32_t buckets = 512;            // per table, a power of two
  std::uint32_t groups = 0;               // map work-groups (= tables); 0: 32 per compute unit
  std::uint32_t wavefront = 0;            // work-group size; 0: the device's warp width, else 32
  // Map reads the app's input matrices through the texture path (OpenCL
  // images, CUDA texture objects; streammr.image): apps with an image path only.
  bool image = false;
};

ParamDecls params();
Options options_from(const Params& params);
std::unique_ptr<mapreduce::Runtime> make_runtime(backend::Device& device, const Options& options);
void register_variants();

}  // namespace harness::streammr
