#include "frameworks/workloads/dna_assembly/dna_parts_output.h"

#include <stdexcept>

namespace harness::workloads::dna {

namespace {

std::size_t used_slots(std::span<const PartSlot> slots) {
  std::size_t n = 0;
  for (const PartSlot& s : slots) n += s.count != 0;
  return n;
}

}  // namespace

void PackedPartsOutput::finish() {
  if (table_) return;
  std::size_t rows = used_slots(view_);
  for (const PartTable& p : partitions_) rows += p.size();
  table_ = parts_table();
  table_->reserve(rows, rows * kPartBases);
  auto add = [this](std::span<const PartSlot> slots) {
    for (const PartSlot& s : slots) {
      if (s.count == 0) continue;
      const std::int64_t ints[] = {s.count, s.left, s.right};
      table_->add(unpack_part(s.key), ints);
    }
  };
  add(view_);
  view_ = {};
  for (PartTable& p : partitions_) {
    add(p.slots());
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
  std::uint64_t parts = used_slots(view_);
  for (const PartTable& p : partitions_) parts += p.size();
  return parts;
}

}  // namespace harness::workloads::dna
