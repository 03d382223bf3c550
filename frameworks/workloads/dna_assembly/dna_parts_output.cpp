#include "frameworks/workloads/dna_assembly/dna_parts_output.h"

#include <stdexcept>

namespace harness::workloads::dna {

void PackedPartsOutput::finish() {
  if (table_) return;
  std::size_t rows = 0;
  for (const PartTable& p : partitions_) rows += p.size();
  table_ = parts_table();
  table_->reserve(rows, rows * kPartBases);
  for (PartTable& p : partitions_) {
    for (const PartSlot& s : p.slots()) {
      if (s.count == 0) continue;
      const std::int64_t ints[] = {s.count, s.left, s.right};
      table_->add(unpack_part(s.key), ints);
    }
    p.release();
  }
  partitions_.clear();
  table_->finish();
}

const TableOutput& PackedPartsOutput::table() const {
  if (!table_) throw std::logic_error("dna-assembly: packed parts used before finish()");
  return *table_;
}

std::string PackedPartsOutput::compare_with(const Output& expected,
                                            const ValidationPolicy& policy) const {
  if (const auto* packed = dynamic_cast<const PackedPartsOutput*>(&expected))
    return table().compare_with(packed->table(), policy);
  return table().compare_with(expected, policy);
}

void PackedPartsOutput::dump(std::ostream& out) const { table().dump(out); }

std::uint64_t PackedPartsOutput::items() const {
  if (table_) return table_->items();
  std::uint64_t parts = 0;
  for (const PartTable& p : partitions_) parts += p.size();
  return parts;
}

}  // namespace harness::workloads::dna
