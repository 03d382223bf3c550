// dna-assembly on the SePo table (combining, the thesis' use in ch6): key =
// the fragment's 32-base part as text (8 words), value = (1 fragment, left
// edge bit, right edge bit), combined by adding the count and OR-ing the
// edge masks (apps/dna_assembly.clh; the workload's definition,
// frameworks/workloads/dna_assembly).
#include <vector>

#include "frameworks/hashtable/apps/keyed_rows.h"
#include "frameworks/hashtable/sepo_app.h"
#include "frameworks/workloads/dna_assembly/dna_format.h"
#include "frameworks/workloads/dna_assembly/dna_part_table.h"
#include "frameworks/workloads/dna_assembly/dna_parts_output.h"

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
  // A one-iteration table's rows are PartSlots made on the GPU
  // (apps/dna_assembly.clh's HT_APP_ROW), viewed by the answer as they lie.
  std::uint32_t row_bytes() const override { return sizeof(dna::PartSlot); }
  std::unique_ptr<workloads::Output> collect_rows(const std::uint8_t* rows,
                                                  std::uint64_t count) const override {
    return std::make_unique<dna::PackedPartsOutput>(
        std::span<const dna::PartSlot>(reinterpret_cast<const dna::PartSlot*>(rows), count));
  }
  // Each worker walks a range of buckets. A part's entries (one per
  // iteration that inserted it) share its bucket's chain, so they are
  // combined there and each worker's rows are distinct parts
  // (apps/keyed_rows.h); the answer is the CPU-MT baseline's
  // (dna_parts_output.h), decoded untimed in finish().
  std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> heads, Organization org,
                                             std::uint64_t& entries) const override {
    auto rows = walk_distinct_rows(
        heads, org, entries,
        [](const HostEntry& e) {
          dna::PartSlot part;
          part.key = dna::pack_part(reinterpret_cast<const std::uint8_t*>(e.key));
          part.count = e.value[0];
          part.left = static_cast<std::uint16_t>(e.value[1]);
          part.right = static_cast<std::uint16_t>(e.value[2]);
          return part;
        },
        [](const dna::PartSlot& part) { return part.key; },
        [](dna::PartSlot& into, const dna::PartSlot& more) {
          into.count += more.count;
          into.left |= more.left;
          into.right |= more.right;
        });
    return std::make_unique<dna::PackedPartsOutput>(std::move(rows));
  }
};

}  // namespace

const SepoApp& dna_assembly_app() {
  static const DnaAssemblyApp app;
  return app;
}

}  // namespace harness::hashtable
