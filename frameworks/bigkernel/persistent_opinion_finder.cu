// opinion-finder's persistent kernel (persistent.h): apps/opinion_finder.clh
// built in the address role and in the compute role of one kernel
// (kernels/persistent_roles.cuh). App arguments: pointers[0] the dictionary,
// [1] the keywords, [2] the tallies (16 B a virtual work-group of the pass,
// in the app's pinned host region: apps/group_tallies.h); values[0] the
// dictionary's mask, [1] the keyword count.
#include "harness/dialect/dialect.h"
// (the dialect first: the roles redefine its work-item macros)
#include "frameworks/bigkernel/kernels/persistent_roles.cuh"

namespace bk_p_addrgen {
#define BK_MODE_ADDRGEN 1
#define BK_P_ROLE 0
#include "frameworks/bigkernel/apps/opinion_finder.clh"
#include "frameworks/bigkernel/kernels/pattern.clh"
}  // namespace bk_p_addrgen
#include "frameworks/bigkernel/kernels/persistent_next_role.h"
#undef BK_OPINION_FINDER_CLH
#undef OPINION_SCAN_CLH
namespace bk_p_compute {
#define BK_MODE_COMPUTE 1
#define BK_P_ROLE 1
#include "frameworks/bigkernel/apps/opinion_finder.clh"
}  // namespace bk_p_compute

#include "frameworks/bigkernel/kernels/persistent_pipeline.cuh"

namespace {

struct OpinionRoles : BkPNoRoundWork {
  static __device__ void addrgen(const BkPStep& s, const PersistentAppArgs& a) {
    bk_p_addrgen::bk_opinion_finder(
        BK_P_MAPPED_ARGS(s), s.first_record, s.round_records, (const u64*)a.pointers[0],
        (u32)a.values[0], (const u64*)a.pointers[1], (u32)a.values[1], (u32*)a.pointers[2]);
  }
  static __device__ void compute(const BkPStep& s, const PersistentAppArgs& a) {
    bk_p_compute::bk_opinion_finder(
        BK_P_MAPPED_ARGS(s), s.first_record, s.round_records, (const u64*)a.pointers[0],
        (u32)a.values[0], (const u64*)a.pointers[1], (u32)a.values[1], (u32*)a.pointers[2]);
  }
};

}  // namespace

BK_P_APP_KERNEL(OpinionRoles, "opinion-finder", persistent_opinion_finder)
