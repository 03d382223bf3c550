#include "frameworks/workloads/kmeans_particles/kmeans_particles_cpu.h"

#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "harness/core/cuts.h"
#include "harness/core/parallel.h"

namespace harness::workloads::kmeans_particles {
namespace {

// The centroids' coordinates, one array per dimension, in the thread's own
// memory (up to kMaxK * 32 bytes: L1/L2 resident).
struct CentroidColumns {
  alignas(64) double x[kDims][kMaxK];
  std::uint32_t k;
};

// Vectors of N doubles and of N 64-bit integers (GCC/Clang vector
// extensions; GCC takes no template-dependent vector size, hence one
// specialization per width).
template <std::size_t N>
struct Lanes;
template <>
struct Lanes<2> {
  typedef double Real __attribute__((vector_size(16)));
  typedef std::int64_t Id __attribute__((vector_size(16)));
};
template <>
struct Lanes<4> {
  typedef double Real __attribute__((vector_size(32)));
  typedef std::int64_t Id __attribute__((vector_size(32)));
};
template <>
struct Lanes<8> {
  typedef double Real __attribute__((vector_size(64)));
  typedef std::int64_t Id __attribute__((vector_size(64)));
};

// The ids of `count` <= kLanes * kVectors particles from `first` on, one
// particle a lane, compared with every centroid in turn. Every lane sums its
// distance in the definition's order, so the ids equal the reference's bit
// for bit; a strict `<` over ascending centroids keeps ties at the lower id.
// The kVectors vectors are independent, so their compare-and-select chains
// overlap. (The compiler does not vectorize the plain loop over particles: it
// unrolls it and branches.)
template <std::size_t kLanes, std::size_t kVectors>
[[gnu::always_inline]] inline void assign_group(const std::uint8_t* data, std::size_t first,
                                                std::size_t count, const CentroidColumns& centroids,
                                                std::uint32_t* ids) {
  using Real = typename Lanes<kLanes>::Real;
  using Id = typename Lanes<kLanes>::Id;
  // The particles' coordinates transposed: one vector per dimension.
  alignas(sizeof(Real)) double columns[kVectors][kDims][kLanes] = {};
  for (std::size_t p = 0; p < count; ++p) {
    const Point point = load_coords(data + (first + p) * kRecordBytes);
    for (std::size_t d = 0; d < kDims; ++d) columns[p / kLanes][d][p % kLanes] = point[d];
  }
  Real x[kVectors][kDims];
  std::memcpy(x, columns, sizeof x);
  Real best[kVectors];
  Id best_id[kVectors];
  for (std::size_t v = 0; v < kVectors; ++v) {
    best[v] = Real{} + std::numeric_limits<double>::infinity();
    best_id[v] = Id{};
  }
  for (std::uint32_t c = 0; c < centroids.k; ++c) {
    const double c0 = centroids.x[0][c], c1 = centroids.x[1][c], c2 = centroids.x[2][c],
                 c3 = centroids.x[3][c];
    const Id id = Id{} + std::int64_t{c};
    for (std::size_t v = 0; v < kVectors; ++v) {
      const Real d0 = x[v][0] - c0, d1 = x[v][1] - c1, d2 = x[v][2] - c2, d3 = x[v][3] - c3;
      const Real distance = d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3;
      const Id closer = distance < best[v];
      best[v] = closer ? distance : best[v];
      best_id[v] = closer ? id : best_id[v];
    }
  }
  for (std::size_t p = 0; p < count; ++p)
    ids[first + p] = static_cast<std::uint32_t>(best_id[p / kLanes][p % kLanes]);
}

// Particles [begin, end): whole groups with a count the compiler knows (it
// then builds the coordinate vectors in registers), the rest in one partial
// group.
template <std::size_t kLanes, std::size_t kVectors>
[[gnu::always_inline]] inline void assign_range(const std::uint8_t* data, std::size_t begin,
                                                std::size_t end, const CentroidColumns& centroids,
                                                std::uint32_t* ids) {
  constexpr std::size_t kGroup = kLanes * kVectors;
  std::size_t first = begin;
  for (; first + kGroup <= end; first += kGroup)
    assign_group<kLanes, kVectors>(data, first, kGroup, centroids, ids);
  if (first < end) assign_group<kLanes, kVectors>(data, first, end - first, centroids, ids);
}

// Vectors a pass, measured on an H100 host's Xeon (one thread): two AVX2
// vectors run 1.2 (k = 16) to 1.6 (k = 128) times faster than one; a second
// AVX-512 vector made it slower.
using RangeFn = void (*)(const std::uint8_t*, std::size_t, std::size_t, const CentroidColumns&,
                         std::uint32_t*);

void assign_range_2(const std::uint8_t* data, std::size_t begin, std::size_t end,
                    const CentroidColumns& centroids, std::uint32_t* ids) {
  assign_range<2, 2>(data, begin, end, centroids, ids);
}

#if defined(__x86_64__)
[[gnu::target("avx2")]] void assign_range_4(const std::uint8_t* data, std::size_t begin,
                                            std::size_t end, const CentroidColumns& centroids,
                                            std::uint32_t* ids) {
  assign_range<4, 2>(data, begin, end, centroids, ids);
}

[[gnu::target("avx512f")]] void assign_range_8(const std::uint8_t* data, std::size_t begin,
                                               std::size_t end, const CentroidColumns& centroids,
                                               std::uint32_t* ids) {
  assign_range<8, 1>(data, begin, end, centroids, ids);
}
#endif

RangeFn assign_range_of(unsigned lanes) {
  switch (lanes) {
#if defined(__x86_64__)
    case 8:
      return assign_range_8;
    case 4:
      return assign_range_4;
#endif
    case 2:
      return assign_range_2;
    default:
      throw std::logic_error("kmeans-particles: no " + std::to_string(lanes) + "-lane vectors");
  }
}

}  // namespace

// The build targets baseline x86-64; wider vectors are chosen at run time.
std::vector<unsigned> supported_lane_widths() {
  std::vector<unsigned> widths;
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f")) widths.push_back(8);
  if (__builtin_cpu_supports("avx2")) widths.push_back(4);
#endif
  widths.push_back(2);
  return widths;
}

void assign_clusters_parallel(const std::uint8_t* data, std::size_t particles,
                              const std::vector<Point>& centroids, unsigned threads,
                              std::uint32_t* ids, unsigned lanes) {
  const RangeFn assign = assign_range_of(lanes ? lanes : supported_lane_widths().front());
  const auto cuts = even_cuts(particles, threads);
  parallel_for(threads, [&](unsigned t) {
    auto columns = std::make_unique<CentroidColumns>();
    columns->k = static_cast<std::uint32_t>(centroids.size());
    for (std::uint32_t c = 0; c < columns->k; ++c)
      for (std::size_t d = 0; d < kDims; ++d) columns->x[d][c] = centroids[c][d];
    assign(data, cuts[t], cuts[t + 1], *columns, ids);
  });
}

}  // namespace harness::workloads::kmeans_particles
