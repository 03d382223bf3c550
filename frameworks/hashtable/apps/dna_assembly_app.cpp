// dna-assembly on the SePo table (combining, the thesis' use in ch6): key =
// the fragment's 32-base part as text (8 words), value = (1 fragment, left
// edge bit, right edge bit), combined by adding the count and OR-ing the
// edge masks (apps/dna_assembly.clh; the workload's definition,
// frameworks/workloads/dna_assembly).
#include <vector>

#include "frameworks/hashtable/sepo_app.h"
#include "frameworks/workloads/dna_assembly/dna_format.h"
#include "frameworks/workloads/dna_assembly/dna_part_table.h"
#include "frameworks/workloads/dna_assembly/dna_parts_output.h"
#include "harness/core/parallel.h"

namespace harness::hashtable {
namespace {

namespace dna = workloads::dna;

class DnaAssemblyApp final : public SepoApp {
 public:
  std::string name() const override { return dna::kName; }
  std::string kernel_file() const override { return "frameworks/hashtable/apps/dna_assembly.clh"; }
  RecordShape shape(const std::uint8_t*, std::size_t size) const override {
    return {size / dna::kRecordBytes, dna::kPartBases, 12};
  }
  // Each worker walks a range of buckets. A part's entries (one per
  // iteration that inserted it) share its bucket's chain, so they are
  // combined there and the worker's table of packed parts holds distinct
  // parts; the answer is the CPU-MT baseline's (dna_parts_output.h), decoded
  // untimed in finish().
  std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> heads, Organization org,
                                             std::uint64_t& entries) const override {
    const unsigned workers = workers_for(heads.size(), 0, 16384);
    std::vector<dna::PartTable> tables;
    for (unsigned w = 0; w < workers; ++w) tables.emplace_back(heads.size() / workers);
    entries = walk_buckets_parallel(
        heads, workers,
        [&tables](unsigned w, std::span<const HostEntry> chain) {
          for (const HostEntry& e : chain) {
            dna::PartSlot part;
            part.key = dna::pack_part(reinterpret_cast<const std::uint8_t*>(e.key));
            part.count = e.value[0];
            part.left = static_cast<std::uint16_t>(e.value[1]);
            part.right = static_cast<std::uint16_t>(e.value[2]);
            tables[w].add(part, dna::part_hash(part.key));
          }
        },
        org);
    return std::make_unique<dna::PackedPartsOutput>(std::move(tables));
  }
};

}  // namespace

const SepoApp& dna_assembly_app() {
  static const DnaAssemblyApp app;
  return app;
}

}  // namespace harness::hashtable
