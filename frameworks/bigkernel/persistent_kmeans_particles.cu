// kmeans-particles' persistent kernel (persistent.h): apps/kmeans_particles.clh
// built in the address role and in the compute role of one kernel
// (kernels/persistent_roles.cuh). App arguments: pointers[0] the centroids
// (k x 4 doubles), values[0] k; the cluster ids go to the launch's writes.
#include "harness/dialect/dialect.h"
// (the dialect first: the roles redefine its work-item macros)
#include "frameworks/bigkernel/kernels/persistent_roles.cuh"

namespace bk_p_addrgen {
#define BK_MODE_ADDRGEN 1
#define BK_P_ROLE 0
#include "frameworks/bigkernel/apps/kmeans_particles.clh"
#include "frameworks/bigkernel/kernels/pattern.clh"
}  // namespace bk_p_addrgen
#include "frameworks/bigkernel/kernels/persistent_next_role.h"
#undef BK_KMEANS_PARTICLES_CLH
namespace bk_p_compute {
#define BK_MODE_COMPUTE 1
#define BK_P_ROLE 1
#include "frameworks/bigkernel/apps/kmeans_particles.clh"
}  // namespace bk_p_compute

#include "frameworks/bigkernel/kernels/persistent_pipeline.cuh"

namespace {

struct KmeansRoles : BkPNoRoundWork {
  static __device__ void addrgen(const BkPStep& s, const PersistentAppArgs& a) {
    bk_p_addrgen::bk_kmeans_particles(BK_P_MAPPED_ARGS(s), s.first_record, s.round_records,
                                      (const double*)a.pointers[0], (u32)a.values[0]);
  }
  static __device__ void compute(const BkPStep& s, const PersistentAppArgs& a) {
    bk_p_compute::bk_kmeans_particles(BK_P_MAPPED_ARGS(s), s.first_record, s.round_records,
                                      (const double*)a.pointers[0], (u32)a.values[0]);
  }
};

}  // namespace

BK_P_APP_KERNEL(KmeansRoles, "kmeans-particles", persistent_kmeans_particles)
