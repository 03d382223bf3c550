// thrust/default's word count on the device: word starts compacted with
// thrust::copy_if, FNV-1a 64 hashes, thrust::sort_by_key, a collision check,
// thrust::reduce_by_key. Every thrust call runs on the harness queue's stream
// (thrust::cuda::par.on), so the queue's spans time it.
#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/tuple.h>

#include <stdexcept>
#include <string>

#include "frameworks/thrust/thrust_wordcount.h"

namespace harness::thrustmr::cuda {
namespace {

constexpr unsigned kBlock = 256;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    throw std::runtime_error(std::string("thrust: ") + what + ": " + cudaGetErrorString(e));
  }
}

unsigned blocks(std::uint64_t n) { return static_cast<unsigned>((n + kBlock - 1) / kBlock); }

cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }

// The app's word rule (frameworks/apps/wordcount): ASCII letters.
__host__ __device__ inline bool is_letter(std::uint8_t c) {
  return static_cast<unsigned>((c | 0x20) - 'a') < 26u;
}
__host__ __device__ inline std::uint8_t lower(std::uint8_t c) {
  return static_cast<std::uint8_t>(c | 0x20);  // letters only
}

// Bytes of the word at `start` (a run of letters ending before `end`).
__device__ std::uint32_t word_length(const std::uint8_t* in, std::uint32_t end,
                                     std::uint32_t start) {
  std::uint32_t i = start;
  while (i < end && is_letter(in[i])) ++i;
  return i - start;
}

__device__ bool words_equal(const std::uint8_t* in, std::uint32_t end, std::uint32_t a,
                            std::uint32_t b) {
  if (a == b) return true;
  for (;; ++a, ++b) {
    const bool la = a < end && is_letter(in[a]);
    const bool lb = b < end && is_letter(in[b]);
    if (!la || !lb) return la == lb;
    if (lower(in[a]) != lower(in[b])) return false;
  }
}

// Lexicographic order of the lower-cased words (a prefix first).
__device__ bool word_less(const std::uint8_t* in, std::uint32_t end, std::uint32_t a,
                          std::uint32_t b) {
  if (a == b) return false;
  for (;; ++a, ++b) {
    const bool la = a < end && is_letter(in[a]);
    const bool lb = b < end && is_letter(in[b]);
    if (!la || !lb) return !la && lb;
    const std::uint8_t ca = lower(in[a]), cb = lower(in[b]);
    if (ca != cb) return ca < cb;
  }
}

struct IsWordStart {
  const std::uint8_t* in;
  std::uint32_t begin;
  __host__ __device__ bool operator()(std::uint32_t i) const {
    return is_letter(in[i]) && (i == begin || !is_letter(in[i - 1]));
  }
};

__global__ void hash_words(const std::uint8_t* in, std::uint32_t end, const std::uint32_t* starts,
                           std::uint32_t words, std::uint64_t mask, std::uint64_t* hashes) {
  const std::uint64_t w = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (w >= words) return;
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a 64
  for (std::uint32_t i = starts[w]; i < end && is_letter(in[i]); ++i) {
    h = (h ^ lower(in[i])) * 1099511628211ull;
  }
  hashes[w] = h & mask;
}

// After the sort by hash: counts adjacent words with equal hashes and
// different bytes (by transitivity, every run holds one word iff none).
__global__ void count_collisions(const std::uint8_t* in, std::uint32_t end,
                                 const std::uint64_t* hashes, const std::uint32_t* starts,
                                 std::uint32_t words, unsigned long long* collisions) {
  const std::uint64_t w = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (w == 0 || w >= words) return;
  if (hashes[w] == hashes[w - 1] && !words_equal(in, end, starts[w], starts[w - 1])) {
    atomicAdd(collisions, 1ull);
  }
}

using HashStart = thrust::tuple<std::uint64_t, std::uint32_t>;

struct SameHash {
  __host__ __device__ bool operator()(const HashStart& a, const HashStart& b) const {
    return thrust::get<0>(a) == thrust::get<0>(b);
  }
};

struct SameWord {
  const std::uint8_t* in;
  std::uint32_t end;
  __device__ bool operator()(const HashStart& a, const HashStart& b) const {
    return thrust::get<0>(a) == thrust::get<0>(b) &&
           words_equal(in, end, thrust::get<1>(a), thrust::get<1>(b));
  }
};

struct HashThenBytes {
  const std::uint8_t* in;
  std::uint32_t end;
  __device__ bool operator()(const HashStart& a, const HashStart& b) const {
    if (thrust::get<0>(a) != thrust::get<0>(b)) return thrust::get<0>(a) < thrust::get<0>(b);
    return word_less(in, end, thrust::get<1>(a), thrust::get<1>(b));
  }
};

// lengths[g] = bytes of distinct word g; lengths[distinct] = 0 (the scan's total).
__global__ void group_lengths(const std::uint8_t* in, std::uint32_t end,
                              const std::uint32_t* group_starts, std::uint32_t distinct,
                              std::uint32_t* lengths) {
  const std::uint64_t g = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (g > distinct) return;
  lengths[g] = g == distinct ? 0u : word_length(in, end, group_starts[g]);
}

__global__ void gather_words(const std::uint8_t* in, const std::uint32_t* group_starts,
                             const std::uint32_t* offsets, std::uint32_t distinct,
                             std::uint8_t* words) {
  const std::uint64_t g = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (g >= distinct) return;
  const std::uint8_t* src = in + group_starts[g];
  const std::uint32_t n = offsets[g + 1] - offsets[g];
  std::uint8_t* dst = words + offsets[g];
  for (std::uint32_t i = 0; i < n; ++i) dst[i] = lower(src[i]);
}

}  // namespace

std::uint32_t find_words(const std::uint8_t* input, std::uint32_t begin, std::uint32_t end,
                         unsigned hash_bits, const WordScratch& s, void* stream) {
  if (end <= begin) return 0;
  const cudaStream_t st = as_stream(stream);
  const auto policy = thrust::cuda::par.on(st);
  std::uint32_t* last = thrust::copy_if(policy, thrust::counting_iterator<std::uint32_t>(begin),
                                        thrust::counting_iterator<std::uint32_t>(end), s.starts,
                                        IsWordStart{input, begin});
  const auto words = static_cast<std::uint32_t>(last - s.starts);
  if (words == 0) return 0;
  const std::uint64_t mask = hash_bits >= 64 ? ~0ull : (std::uint64_t{1} << hash_bits) - 1;
  hash_words<<<blocks(words), kBlock, 0, st>>>(input, end, s.starts, words, mask, s.hashes);
  check(cudaGetLastError(), "hash_words");
  return words;
}

Groups group_words(const std::uint8_t* input, std::uint32_t end, std::uint32_t words,
                   const WordScratch& s, void* stream) {
  Groups g;
  if (words == 0) return g;
  const cudaStream_t st = as_stream(stream);
  const auto policy = thrust::cuda::par.on(st);
  thrust::sort_by_key(policy, s.hashes, s.hashes + words, s.starts);

  check(cudaMemsetAsync(s.flag, 0, sizeof(unsigned long long), st), "clear the collision count");
  count_collisions<<<blocks(words), kBlock, 0, st>>>(input, end, s.hashes, s.starts, words, s.flag);
  check(cudaGetLastError(), "count_collisions");
  unsigned long long collisions = 0;
  check(cudaMemcpyAsync(&collisions, s.flag, sizeof(collisions), cudaMemcpyDeviceToHost, st),
        "read the collision count");
  check(cudaStreamSynchronize(st), "collision check");
  g.collisions = collisions;

  auto keys = thrust::make_zip_iterator(thrust::make_tuple(s.hashes, s.starts));
  auto groups = thrust::make_zip_iterator(thrust::make_tuple(s.group_hashes, s.group_starts));
  const thrust::constant_iterator<std::uint32_t> one(1);
  if (collisions == 0) {
    auto ends =
        thrust::reduce_by_key(policy, keys, keys + words, one, groups, s.counts, SameHash{});
    g.distinct = static_cast<std::uint32_t>(ends.second - s.counts);
  } else {
    // Fallback: order by (hash, bytes), so that each word's occurrences are
    // contiguous, and split runs where the bytes differ.
    thrust::sort(policy, keys, keys + words, HashThenBytes{input, end});
    auto ends = thrust::reduce_by_key(policy, keys, keys + words, one, groups, s.counts,
                                      SameWord{input, end});
    g.distinct = static_cast<std::uint32_t>(ends.second - s.counts);
  }
  return g;
}

std::uint64_t copy_out(const std::uint8_t* input, std::uint32_t end, std::uint32_t distinct,
                       const WordScratch& s, void* stream, HostWords& out) {
  out.offsets.assign(std::size_t{distinct} + 1, 0);
  out.counts.assign(distinct, 0);
  out.bytes.clear();
  if (distinct == 0) return 0;
  const cudaStream_t st = as_stream(stream);
  const auto policy = thrust::cuda::par.on(st);
  group_lengths<<<blocks(std::uint64_t{distinct} + 1), kBlock, 0, st>>>(input, end, s.group_starts,
                                                                        distinct, s.lengths);
  check(cudaGetLastError(), "group_lengths");
  thrust::exclusive_scan(policy, s.lengths, s.lengths + distinct + 1, s.lengths);
  gather_words<<<blocks(distinct), kBlock, 0, st>>>(input, s.group_starts, s.lengths, distinct,
                                                    s.words);
  check(cudaGetLastError(), "gather_words");
  check(cudaMemcpyAsync(out.offsets.data(), s.lengths, out.offsets.size() * 4,
                        cudaMemcpyDeviceToHost, st),
        "copy out offsets");
  check(cudaMemcpyAsync(out.counts.data(), s.counts, out.counts.size() * 4, cudaMemcpyDeviceToHost,
                        st),
        "copy out counts");
  check(cudaStreamSynchronize(st), "copy out offsets and counts");
  const std::uint32_t bytes = out.offsets.back();
  out.bytes.resize(bytes);
  if (bytes > 0) {
    check(cudaMemcpyAsync(out.bytes.data(), s.words, bytes, cudaMemcpyDeviceToHost, st),
          "copy out words");
    check(cudaStreamSynchronize(st), "copy out words");
  }
  return std::uint64_t{bytes} + out.offsets.size() * 4 + out.counts.size() * 4;
}

}  // namespace harness::thrustmr::cuda
