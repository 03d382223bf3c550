// thrust/default's k-means iteration (thrust_kmeans.h).
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include "frameworks/mapreduce/thrust/thrust_device.cuh"
#include "frameworks/mapreduce/thrust/thrust_kmeans.h"

namespace harness::thrustmr::cuda {
namespace {

// The app's map (frameworks/mapreduce/apps/kmeans/kmeans.clh): distances in double from
// exact differences of floats, no fused multiply-add (so that every runtime
// and the CPU reference pick the same centroid), ties to the lower id.
__global__ void nearest_kernel(const float* points, std::uint32_t n, std::uint32_t dims,
                               const float* centroids, std::uint32_t k, std::uint32_t* clusters) {
  const std::uint64_t i = thread_index();
  if (i >= n) return;
  const float* p = points + i * dims;
  std::uint32_t best = 0;
  double best_distance = 0.0;
  for (std::uint32_t c = 0; c < k; ++c) {
    const float* q = centroids + std::uint64_t{c} * dims;
    double distance = 0.0;
    for (std::uint32_t d = 0; d < dims; ++d) {
      const double diff = __dsub_rn(static_cast<double>(p[d]), static_cast<double>(q[d]));
      distance = __dadd_rn(distance, __dmul_rn(diff, diff));
    }
    if (c == 0 || distance < best_distance) {
      best = c;
      best_distance = distance;
    }
  }
  clusters[i] = best;
}

// Point i as a one-point sum (the app's KmPartial of map).
struct PointSum {
  const float* points;
  std::uint32_t dims;
  __host__ __device__ KmSum operator()(std::uint32_t i) const {
    KmSum s;
    for (std::uint32_t d = 0; d < kKmMaxDims; ++d) {
      s.sum[d] = d < dims ? static_cast<double>(points[std::uint64_t{i} * dims + d]) : 0.0;
    }
    s.count = 1;
    s.pad = 0;
    return s;
  }
};

// The app's combine.
struct AddSums {
  __host__ __device__ KmSum operator()(const KmSum& a, const KmSum& b) const {
    KmSum s;
    for (std::uint32_t d = 0; d < kKmMaxDims; ++d) s.sum[d] = a.sum[d] + b.sum[d];
    s.count = a.count + b.count;
    s.pad = 0;
    return s;
  }
};

// The app's reduce: the mean, rounded to float.
struct Centroid {
  std::uint32_t dims;
  __host__ __device__ KmCentroidOut operator()(const KmSum& s) const {
    KmCentroidOut out;
    out.count = s.count;
    out.dims = dims;
    for (std::uint32_t d = 0; d < kKmMaxDims; ++d) {
      out.centroid[d] =
          d < dims ? static_cast<float>(s.sum[d] / static_cast<double>(s.count)) : 0.0f;
    }
    return out;
  }
};

}  // namespace

void nearest_centroids(const float* points, std::uint32_t n, std::uint32_t dims,
                       const float* centroids, std::uint32_t k, const KmScratch& s,
                       const Exec& exec) {
  if (n == 0) return;
  nearest_kernel<<<blocks(n), kBlock, 0, as_stream(exec)>>>(points, n, dims, centroids, k,
                                                            s.clusters);
  check(cudaGetLastError(), "nearest_centroids");
}

std::uint32_t group_points(const float* points, std::uint32_t n, std::uint32_t dims,
                           const KmScratch& s, const Exec& exec) {
  if (n == 0) return 0;
  const auto policy = on_queue(exec);
  thrust::sequence(policy, s.order, s.order + n);
  thrust::sort_by_key(policy, s.clusters, s.clusters + n, s.order);
  auto sums = thrust::make_transform_iterator(s.order, PointSum{points, dims});
  auto ends = thrust::reduce_by_key(policy, s.clusters, s.clusters + n, sums, s.ids, s.sums,
                                    thrust::equal_to<std::uint32_t>(), AddSums{});
  const auto clusters = static_cast<std::uint32_t>(ends.first - s.ids);
  thrust::transform(policy, s.sums, s.sums + clusters, s.centroids, Centroid{dims});
  return clusters;
}

std::uint64_t copy_out_centroids(std::uint32_t clusters, const KmScratch& s, const Exec& exec,
                                 std::vector<std::uint32_t>& ids,
                                 std::vector<KmCentroidOut>& centroids) {
  ids.assign(clusters, 0);
  centroids.assign(clusters, KmCentroidOut{});
  if (clusters == 0) return 0;
  const cudaStream_t st = as_stream(exec);
  check(cudaMemcpyAsync(ids.data(), s.ids, ids.size() * sizeof(std::uint32_t),
                        cudaMemcpyDeviceToHost, st),
        "copy out cluster ids");
  check(cudaMemcpyAsync(centroids.data(), s.centroids, centroids.size() * sizeof(KmCentroidOut),
                        cudaMemcpyDeviceToHost, st),
        "copy out centroids");
  check(cudaStreamSynchronize(st), "copy out centroids");
  return ids.size() * sizeof(std::uint32_t) + centroids.size() * sizeof(KmCentroidOut);
}

}  // namespace harness::thrustmr::cuda
