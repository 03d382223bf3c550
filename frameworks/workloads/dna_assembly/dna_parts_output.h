// The CPU-MT run's answer as it leaves the run: the partition tables of packed
// parts (or a GPU's table of PartSlot copied back, or lists of distinct
// parts, e.g. a walk's per thread). finish() (untimed) decodes
// them into the workload's TableOutput (dna_format.h's parts_table), which
// compares and dumps.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "frameworks/workloads/dna_assembly/dna_part_table.h"
#include "frameworks/workloads/outputs.h"

namespace harness::workloads::dna {

class PackedPartsOutput final : public Output {
 public:
  explicit PackedPartsOutput(std::vector<PartTable> partitions)
      : partitions_(std::move(partitions)) {}
  // Slots of one table, a count of 0 marking an empty one, each part in one
  // slot; viewed, not copied: the memory must hold them until finish().
  explicit PackedPartsOutput(std::span<const PartSlot> slots) : view_(slots) {}
  // Lists of parts, every part in one list once (none with a count of 0).
  explicit PackedPartsOutput(std::vector<std::vector<PartSlot>> lists) : lists_(std::move(lists)) {}

  void finish() override;
  // `expected`: a TableOutput (the reference's) or another PackedPartsOutput.
  std::string compare_with(const Output& expected, const ValidationPolicy& policy) const override;
  void dump(std::ostream& out) const override;
  std::uint64_t items() const override;
  const TableOutput& table() const;  // after finish(); std::logic_error before

 private:
  std::vector<PartTable> partitions_;         // released by finish()
  std::vector<std::vector<PartSlot>> lists_;  // released by finish()
  std::span<const PartSlot> view_;
  std::unique_ptr<TableOutput> table_;
};

}  // namespace harness::workloads::dna
