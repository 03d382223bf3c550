// kmeans-particles (thesis chapters 4 and 5, BigKernel and S-L1): one K-means
// assignment step over an array of particles. The centroids (side data) are
// the first k particles' coordinates; the kernel reads each particle's
// coordinates and writes the id of its nearest centroid into the particle's
// cluster_id field. The answer is every particle's id.
#include <limits>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/kmeans_particles/cluster_ids_output.h"
#include "frameworks/workloads/kmeans_particles/kmeans_particles_cpu.h"
#include "frameworks/workloads/kmeans_particles/particles_format.h"

namespace harness::workloads {
namespace {

using namespace kmeans_particles;

class KmeansParticles final : public Workload {
 public:
  std::string name() const override { return kApp; }
  std::string description() const override {
    return "one K-means step: each particle's cluster_id set to its nearest centroid (the first k "
           "particles), 64-byte particle records";
  }
  std::string default_dataset() const override { return "particles"; }
  std::string record_type() const override { return "fixed"; }
  std::string chapters() const override { return "ch4 ch5"; }
  ParamDecls params() const override {
    return {unsigned_param("k", 16, 1, kMaxK,
                           "clusters; the centroids are the first k particles' coordinates")};
  }
  PaperFacts paper() const override {
    PaperFacts f;
    f.read_share = 0.50;
    f.written_share = 0.12;
    f.table4_1_bytes = 6.0e9;
    return f;
  }
  bool modifies_input() const override { return true; }

  void check_input(const std::uint8_t* data, std::size_t size) const override {
    check_particles(data, size);
  }

  // Every distance in centroid order, tracking the two smallest to mark the
  // near ties where another rounding may pick the other centroid.
  std::unique_ptr<Output> reference(const Params& params, const std::uint8_t* data,
                                    std::size_t size) const override {
    const std::uint32_t k = param_u32(params, "k");
    const std::vector<Point> centroids = first_k_centroids(data, size, k);
    const std::size_t particles = size / kRecordBytes;
    auto out = std::make_unique<ClusterIdsOutput>(particles, k);
    out->near_ties().assign(particles, 0);
    for (std::size_t i = 0; i < particles; ++i) {
      const Point p = load_coords(data + i * kRecordBytes);
      double best = std::numeric_limits<double>::infinity(), second = best;
      std::uint32_t id = 0;
      for (std::uint32_t c = 0; c < k; ++c) {
        const double distance = squared_distance(p, centroids[c]);
        if (distance < best) {
          second = best;
          best = distance;
          id = c;
        } else if (distance < second) {
          second = distance;
        }
      }
      out->ids()[i] = id;
      out->near_ties()[i] = near_tie(best, second);
    }
    return out;
  }

  std::unique_ptr<Output> run_cpu(const Params& params, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    const std::uint32_t k = param_u32(params, "k");
    const std::vector<Point> centroids = first_k_centroids(data, size, k);
    auto out = std::make_unique<ClusterIdsOutput>(size / kRecordBytes, k);
    assign_clusters_parallel(data, out->particles(), centroids, threads, out->ids());
    return out;
  }

  // Each particle's coordinates are read (the centroids are among them) and
  // its cluster_id written: 32 and 8 of 64 bytes.
  AccessShare access_share(const Params&, const std::uint8_t*, std::size_t size) const override {
    AccessMap map(size);
    const std::size_t particles = size / kRecordBytes;
    for (std::size_t i = 0; i < particles; ++i) {
      map.read(i * kRecordBytes + kCoordOffset, 8 * kDims);
      map.write(i * kRecordBytes + kClusterIdOffset, 8);
    }
    return map.share(particles);
  }
};

}  // namespace

const Workload& kmeans_particles_workload() {
  static const KmeansParticles w;
  return w;
}

}  // namespace harness::workloads
