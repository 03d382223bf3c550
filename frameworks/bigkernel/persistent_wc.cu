// wc's persistent kernel (persistent.h): apps/wc.clh built in the address role
// and in the compute role of one kernel (kernels/persistent_roles.cuh), over
// variable-length records (pieces of whole lines; the record table read from
// mapped host memory). App arguments: pointers[0] the tallies (8 B a virtual
// work-group of the pass, in the app's pinned host region:
// apps/group_tallies.h).
#include "harness/dialect/dialect.h"
// (the dialect first: the roles redefine its work-item macros)
#include "frameworks/bigkernel/kernels/persistent_roles.cuh"

namespace bk_p_addrgen {
#define BK_MODE_ADDRGEN 1
#define BK_P_ROLE 0
#include "frameworks/bigkernel/apps/wc.clh"
#include "frameworks/bigkernel/kernels/pattern.clh"
}  // namespace bk_p_addrgen
#include "frameworks/bigkernel/kernels/persistent_next_role.h"
#undef BK_WC_CLH
namespace bk_p_compute {
#define BK_MODE_COMPUTE 1
#define BK_P_ROLE 1
#include "frameworks/bigkernel/apps/wc.clh"
}  // namespace bk_p_compute

#include "frameworks/bigkernel/kernels/persistent_pipeline.cuh"

namespace {

struct WcRoles : BkPNoRoundWork {
  static __device__ void addrgen(const BkPStep& s, const PersistentAppArgs& a) {
    bk_p_addrgen::bk_wc(BK_P_MAPPED_ARGS(s), s.round_records, (u32*)a.pointers[0]);
  }
  static __device__ void compute(const BkPStep& s, const PersistentAppArgs& a) {
    bk_p_compute::bk_wc(BK_P_MAPPED_ARGS(s), s.round_records, (u32*)a.pointers[0]);
  }
};

}  // namespace

BK_P_APP_KERNEL(WcRoles, "wc", persistent_wc)
