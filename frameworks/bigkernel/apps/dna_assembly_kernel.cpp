// dna-assembly's AppKernel: the chunk's device hash table keyed by the packed
// part (apps/dna_assembly.clh, apps/chunk_table_kernel.h), the chunks' rows
// merged on every host core by the workload's own two-phase partitioned
// aggregation into the CPU-MT baseline's answer (PackedPartsOutput, decoded
// into the TableOutput untimed).
#include <span>
#include <vector>

#include "frameworks/bigkernel/apps/chunk_table_kernel.h"
#include "frameworks/workloads/dna_assembly/dna_cpu.h"
#include "frameworks/workloads/dna_assembly/dna_format.h"
#include "frameworks/workloads/dna_assembly/dna_parts_output.h"
#include "harness/core/parallel.h"

namespace harness::bigkernel {
namespace {

namespace dna = workloads::dna;

class DnaAssemblyKernel final : public ChunkTableKernel<dna::PartSlot> {
 public:
  std::string app() const override { return dna::kName; }
  std::size_t record_bytes() const override { return dna::kRecordBytes; }
  // The fragment's 36 bases, a byte each.
  std::uint32_t max_reads() const override { return dna::kFragmentBases; }
  std::uint32_t max_value_bytes() const override { return dna::kFragmentBases; }

 protected:
  std::unique_ptr<workloads::Output> merge(
      const std::vector<std::span<const dna::PartSlot>>& chunks,
      std::uint64_t rows) const override {
    return std::make_unique<dna::PackedPartsOutput>(
        dna::combine_parts_parallel(chunks, workers_for(rows, 0, kItemsPerHostThread)));
  }
  std::string source_file() const override { return "frameworks/bigkernel/apps/dna_assembly.clh"; }
  std::string kernel_name() const override { return "bk_dna_assembly"; }
};

}  // namespace

std::unique_ptr<AppKernel> make_dna_assembly_kernel() {
  return std::make_unique<DnaAssemblyKernel>();
}

}  // namespace harness::bigkernel
