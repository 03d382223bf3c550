// thrust/default's group-by of byte-range keys (thrust_group.h): FNV-1a 64
// hashes, thrust::sort_by_key, optionally a collision check, thrust::reduce_by_key.
// Every thrust call runs on the harness queue's stream (on_queue: thrust::cuda::par(cache).on),
// so the queue's spans time it.
#include <thrust/execution_policy.h>
#include <thrust/gather.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/tuple.h>

#include "frameworks/mapreduce/thrust/thrust_device.cuh"
#include "frameworks/mapreduce/thrust/thrust_group.h"

namespace harness::thrustmr::cuda {
namespace {

// The keys as the kernels and functors read them.
struct KeyView {
  const std::uint8_t* in;
  const std::uint32_t* starts;
  const std::uint32_t* lengths;
  bool fold;

  __device__ std::uint8_t byte(std::uint32_t key, std::uint32_t i) const {
    const std::uint8_t c = in[starts[key] + i];
    return fold && c >= 'A' && c <= 'Z' ? static_cast<std::uint8_t>(c + 32) : c;
  }
  __device__ bool equal(std::uint32_t a, std::uint32_t b) const {
    if (a == b) return true;
    const std::uint32_t n = lengths[a];
    if (n != lengths[b]) return false;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (byte(a, i) != byte(b, i)) return false;
    }
    return true;
  }
  // Lexicographic order of the (folded) bytes, a prefix first.
  __device__ bool less(std::uint32_t a, std::uint32_t b) const {
    if (a == b) return false;
    const std::uint32_t na = lengths[a], nb = lengths[b];
    const std::uint32_t n = na < nb ? na : nb;
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint8_t ca = byte(a, i), cb = byte(b, i);
      if (ca != cb) return ca < cb;
    }
    return na < nb;
  }
};

KeyView view(const Keys& k) { return KeyView{k.input, k.starts, k.lengths, k.fold_case}; }

__global__ void hash_kernel(KeyView k, std::uint32_t count, std::uint64_t mask,
                            std::uint64_t* hashes) {
  const std::uint64_t i = thread_index();
  if (i >= count) return;
  const auto key = static_cast<std::uint32_t>(i);
  std::uint64_t h = kFnvOffset;
  const std::uint32_t n = k.lengths[key];
  for (std::uint32_t j = 0; j < n; ++j) h = fnv1a_step(h, k.byte(key, j));
  hashes[i] = h & mask;
}

// After the sort by hash: counts adjacent keys with equal hashes and
// different bytes (by transitivity, every run holds one key iff none).
__global__ void count_collisions(KeyView k, const std::uint64_t* hashes, const std::uint32_t* order,
                                 std::uint32_t count, unsigned long long* collisions) {
  const std::uint64_t i = thread_index();
  if (i == 0 || i >= count) return;
  if (hashes[i] == hashes[i - 1] && !k.equal(order[i], order[i - 1])) {
    atomicAdd(collisions, 1ull);
  }
}

using HashKey = thrust::tuple<std::uint64_t, std::uint32_t>;  // (hash, key index)

struct SameHash {
  __host__ __device__ bool operator()(const HashKey& a, const HashKey& b) const {
    return thrust::get<0>(a) == thrust::get<0>(b);
  }
};

struct SameKey {
  KeyView k;
  __device__ bool operator()(const HashKey& a, const HashKey& b) const {
    return thrust::get<0>(a) == thrust::get<0>(b) && k.equal(thrust::get<1>(a), thrust::get<1>(b));
  }
};

struct HashThenBytes {
  KeyView k;
  __device__ bool operator()(const HashKey& a, const HashKey& b) const {
    if (thrust::get<0>(a) != thrust::get<0>(b)) return thrust::get<0>(a) < thrust::get<0>(b);
    return k.less(thrust::get<1>(a), thrust::get<1>(b));
  }
};

// offsets[g] = bytes of distinct key g; offsets[distinct] = 0 (the scan's total).
__global__ void group_lengths(KeyView k, const std::uint32_t* group_first, std::uint32_t distinct,
                              std::uint32_t* offsets) {
  const std::uint64_t g = thread_index();
  if (g > distinct) return;
  offsets[g] = g == distinct ? 0u : k.lengths[group_first[g]];
}

__global__ void gather_keys(KeyView k, const std::uint32_t* group_first,
                            const std::uint32_t* offsets, std::uint32_t distinct,
                            std::uint8_t* out) {
  const std::uint64_t g = thread_index();
  if (g >= distinct) return;
  const std::uint32_t key = group_first[g];
  const std::uint32_t n = offsets[g + 1] - offsets[g];
  std::uint8_t* dst = out + offsets[g];
  for (std::uint32_t i = 0; i < n; ++i) dst[i] = k.byte(key, i);
}

}  // namespace

void hash_keys(const Keys& keys, unsigned hash_bits, std::uint64_t* hashes, const Exec& exec) {
  if (keys.count == 0) return;
  hash_kernel<<<blocks(keys.count), kBlock, 0, as_stream(exec)>>>(view(keys), keys.count,
                                                                  hash_mask(hash_bits), hashes);
  check(cudaGetLastError(), "hash_keys");
}

Groups group_keys(const Keys& keys, const GroupScratch& s, bool verify, const Exec& exec) {
  Groups g;
  const std::uint32_t n = keys.count;
  if (n == 0) return g;
  const cudaStream_t st = as_stream(exec);
  const auto policy = on_queue(exec);
  const KeyView k = view(keys);
  thrust::sequence(policy, s.order, s.order + n);
  thrust::sort_by_key(policy, s.hashes, s.hashes + n, s.order);

  unsigned long long collisions = 0;
  if (verify) {
    check(cudaMemsetAsync(s.flag, 0, sizeof(unsigned long long), st), "clear the collision count");
    count_collisions<<<blocks(n), kBlock, 0, st>>>(k, s.hashes, s.order, n, s.flag);
    check(cudaGetLastError(), "count_collisions");
    check(cudaMemcpyAsync(&collisions, s.flag, sizeof(collisions), cudaMemcpyDeviceToHost, st),
          "read the collision count");
    check(cudaStreamSynchronize(st), "collision check");
  }
  g.collisions = collisions;

  auto sorted = thrust::make_zip_iterator(thrust::make_tuple(s.hashes, s.order));
  auto groups = thrust::make_zip_iterator(thrust::make_tuple(s.group_hashes, s.group_first));
  const thrust::constant_iterator<std::uint32_t> one(1);
  if (collisions == 0) {
    auto ends =
        thrust::reduce_by_key(policy, sorted, sorted + n, one, groups, s.counts, SameHash{});
    g.distinct = static_cast<std::uint32_t>(ends.second - s.counts);
  } else {
    // Fallback: order by (hash, bytes), so that each key's occurrences are
    // contiguous, and split runs where the bytes differ.
    thrust::sort(policy, sorted, sorted + n, HashThenBytes{k});
    auto ends =
        thrust::reduce_by_key(policy, sorted, sorted + n, one, groups, s.counts, SameKey{k});
    g.distinct = static_cast<std::uint32_t>(ends.second - s.counts);
  }
  return g;
}

std::uint64_t copy_out_groups(const Keys& keys, std::uint32_t distinct, const GroupScratch& s,
                              const Exec& exec, HostGroups& out) {
  // Sized, not filled: the copies below overwrite every entry.
  out.offsets.resize(std::size_t{distinct} + 1);
  out.counts.resize(distinct);
  if (distinct == 0) {
    out.offsets[0] = 0;
    return 0;
  }
  const cudaStream_t st = as_stream(exec);
  const auto policy = on_queue(exec);
  const KeyView k = view(keys);
  group_lengths<<<blocks(std::uint64_t{distinct} + 1), kBlock, 0, st>>>(k, s.group_first, distinct,
                                                                        s.offsets);
  check(cudaGetLastError(), "group_lengths");
  thrust::exclusive_scan(policy, s.offsets, s.offsets + distinct + 1, s.offsets);
  check(cudaMemcpyAsync(out.offsets.data(), s.offsets, out.offsets.size() * 4,
                        cudaMemcpyDeviceToHost, st),
        "copy out offsets");
  check(cudaMemcpyAsync(out.counts.data(), s.counts, out.counts.size() * 4, cudaMemcpyDeviceToHost,
                        st),
        "copy out counts");
  check(cudaStreamSynchronize(st), "copy out offsets and counts");
  const std::uint32_t bytes = out.offsets.back();
  if (bytes > s.key_capacity) {
    throw std::runtime_error("thrust: the distinct keys' " + std::to_string(bytes) +
                             " bytes exceed their buffer of " + std::to_string(s.key_capacity));
  }
  if (out.bytes.size() < bytes) out.bytes.resize(bytes);  // never shrunk: see HostGroups
  if (bytes > 0) {
    gather_keys<<<blocks(distinct), kBlock, 0, st>>>(k, s.group_first, s.offsets, distinct,
                                                     s.key_bytes);
    check(cudaGetLastError(), "gather_keys");
    check(cudaMemcpyAsync(out.bytes.data(), s.key_bytes, bytes, cudaMemcpyDeviceToHost, st),
          "copy out keys");
    check(cudaStreamSynchronize(st), "copy out keys");
  }
  return std::uint64_t{bytes} + out.offsets.size() * 4 + out.counts.size() * 4;
}

std::uint64_t copy_out_values(const Keys& keys, const std::uint32_t* values, const GroupScratch& s,
                              std::uint32_t* sorted, const Exec& exec,
                              std::vector<std::uint32_t>& out) {
  out.resize(keys.count);  // the copy below overwrites every entry
  if (keys.count == 0) return 0;
  const cudaStream_t st = as_stream(exec);
  thrust::gather(on_queue(exec), s.order, s.order + keys.count, values, sorted);
  check(cudaMemcpyAsync(out.data(), sorted, out.size() * 4, cudaMemcpyDeviceToHost, st),
        "copy out values");
  check(cudaStreamSynchronize(st), "copy out values");
  return out.size() * 4;
}

}  // namespace harness::thrustmr::cuda
