// Netflix's and DNA Assembly's persistent kernels (persistent.h):
// apps/netflix.clh and apps/dna_assembly.clh built in the address role and in
// the compute role of one kernel each (kernels/persistent_roles.cuh); each
// block's compute warps add a round's records into their own table and
// compact it into the app's pinned rows (kernels/persistent_chunk_table.cuh,
// whose arguments these are). Both apps' files go into each role's namespace
// (their functions have names of their own; chunk_table.clh once).
#include "harness/dialect/dialect.h"
// (the dialect first: the roles redefine its work-item macros)
#include "frameworks/bigkernel/kernels/persistent_roles.cuh"

namespace bk_p_addrgen {
#define BK_MODE_ADDRGEN 1
#define BK_P_ROLE 0
#include "frameworks/bigkernel/apps/dna_assembly.clh"
#include "frameworks/bigkernel/apps/netflix.clh"
#include "frameworks/bigkernel/kernels/pattern.clh"
}  // namespace bk_p_addrgen
#include "frameworks/bigkernel/kernels/persistent_next_role.h"
#undef BK_NETFLIX_CLH
#undef BK_DNA_ASSEMBLY_CLH
#undef BK_CHUNK_TABLE_CLH
namespace bk_p_compute {
#define BK_MODE_COMPUTE 1
#define BK_P_ROLE 1
#include "frameworks/bigkernel/apps/dna_assembly.clh"
#include "frameworks/bigkernel/apps/netflix.clh"
}  // namespace bk_p_compute

#include "frameworks/bigkernel/kernels/persistent_pipeline.cuh"
// (after the pipeline: the rounds' work uses its steps)
#include "frameworks/bigkernel/kernels/persistent_chunk_table.cuh"

namespace {

// The roles of an app whose kernel is (BK_MAPPED_PARAMS, u64 first_record,
// u32 records, u64* table, u32 mask, u32* full).
#define BK_P_CHUNK_TABLE_ROLES(Roles, kernel)                                                 \
  struct Roles : BkPChunkTableRounds {                                                        \
    static __device__ void addrgen(const BkPStep& s, const PersistentAppArgs& a) {            \
      bk_p_addrgen::kernel(BK_P_MAPPED_ARGS(s), s.first_record, s.round_records, (u64*)0, 0u, \
                           (u32*)a.pointers[3]);                                              \
    }                                                                                         \
    static __device__ void compute(const BkPStep& s, const PersistentAppArgs& a) {            \
      bk_p_compute::kernel(BK_P_MAPPED_ARGS(s), s.first_record, s.round_records,              \
                           table(a, blockIdx.x), mask(a), (u32*)a.pointers[3]);               \
    }                                                                                         \
  };
BK_P_CHUNK_TABLE_ROLES(NetflixRoles, bk_netflix)
BK_P_CHUNK_TABLE_ROLES(DnaAssemblyRoles, bk_dna_assembly)

}  // namespace

BK_P_APP_KERNEL(NetflixRoles, "netflix", persistent_netflix)
BK_P_APP_KERNEL(DnaAssemblyRoles, "dna-assembly", persistent_dna_assembly)
