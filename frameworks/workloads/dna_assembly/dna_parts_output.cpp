#include "frameworks/workloads/dna_assembly/dna_parts_output.h"

#include <stdexcept>
#include <vector>

#include "harness/core/parallel_sort.h"

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
  // The parts sorted as integers in text order, then added in that order:
  // the table's finish() finds them sorted and skips its sort of 32-byte
  // keys (most of a check's time at 256 MiB: parts share long prefixes).
  std::vector<PartSlot> parts;
  parts.reserve(items());
  auto take = [&parts](std::span<const PartSlot> slots) {
    for (const PartSlot& s : slots) {
      if (s.count != 0) parts.push_back({part_text_order(s.key), s.count, s.left, s.right});
    }
  };
  take(view_);
  view_ = {};
  for (PartTable& p : partitions_) {
    take(p.slots());
    p.release();
  }
  partitions_.clear();
  for (std::vector<PartSlot>& list : lists_) {
    take(list);
    std::vector<PartSlot>().swap(list);
  }
  lists_.clear();
  parallel_sort(parts, [](const PartSlot& a, const PartSlot& b) { return a.key < b.key; });
  table_ = parts_table();
  table_->reserve(parts.size(), parts.size() * kPartBases);
  for (const PartSlot& s : parts) {
    const std::int64_t ints[] = {s.count, s.left, s.right};
    table_->add(unpack_part(part_text_order(s.key)), ints);  // its own inverse
  }
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
  for (const std::vector<PartSlot>& list : lists_) parts += list.size();
  return parts;
}

}  // namespace harness::workloads::dna
