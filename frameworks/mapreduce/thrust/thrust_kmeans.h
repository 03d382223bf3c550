// thrust/default's k-means iteration (thrust_kmeans.cu): the nearest centroid
// of each point (one thread per point, the app's rule), thrust::sort_by_key on
// the cluster ids, thrust::reduce_by_key summing the points in double, then
// each cluster's centroid. The key is the cluster id itself: no hash, no
// collision. Raw device pointers and an Exec (stream and temporary storage), as in thrust_group.h.
#pragma once

#include <cstdint>
#include <vector>

#include "frameworks/mapreduce/thrust/thrust_temp.h"

namespace harness::thrustmr::cuda {

// frameworks/mapreduce/apps/kmeans/kmeans_types.clh: KM_MAX_DIMS, KmPartial, KmCentroid
// (the runtime checks that the layouts agree).
inline constexpr std::uint32_t kKmMaxDims = 8;
struct KmSum {
  double sum[kKmMaxDims];  // coordinates summed; unused dimensions 0
  std::uint32_t count;     // points summed
  std::uint32_t pad;
};
struct KmCentroidOut {
  std::uint32_t count;  // points assigned to the cluster
  std::uint32_t dims;
  float centroid[kKmMaxDims];  // sum / count in double, rounded; unused dimensions 0
};

// Device scratch for n points and k centroids.
struct KmScratch {
  std::uint32_t* clusters = nullptr;   // n: each point's nearest centroid (then sorted)
  std::uint32_t* order = nullptr;      // n: point indices (then in cluster order)
  std::uint32_t* ids = nullptr;        // k: the clusters that have points
  KmSum* sums = nullptr;               // k: their sums
  KmCentroidOut* centroids = nullptr;  // k: their new centroids
};

// Map: clusters[i] = the nearest of the k centroids (k x dims floats) to point
// i (points: n x dims floats), by squared Euclidean distance in double, ties
// to the lower id.
void nearest_centroids(const float* points, std::uint32_t n, std::uint32_t dims,
                       const float* centroids, std::uint32_t k, const KmScratch& s,
                       const Exec& exec);

// Group and reduce: sort_by_key(clusters, order), reduce_by_key over the
// clusters summing the points they index, then the centroids. Returns the
// number of clusters that have points.
std::uint32_t group_points(const float* points, std::uint32_t n, std::uint32_t dims,
                           const KmScratch& s, const Exec& exec);

// Copy out the ids and centroids of the `clusters` clusters that have points.
// Returns the bytes copied to the host.
std::uint64_t copy_out_centroids(std::uint32_t clusters, const KmScratch& s, const Exec& exec,
                                 std::vector<std::uint32_t>& ids,
                                 std::vector<KmCentroidOut>& centroids);

}  // namespace harness::thrustmr::cuda
