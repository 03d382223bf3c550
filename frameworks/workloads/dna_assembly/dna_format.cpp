#include "frameworks/workloads/dna_assembly/dna_format.h"

#include <fmt/format.h>

#include "frameworks/workloads/fixed_text_records.h"

namespace harness::workloads::dna {

std::unique_ptr<TableOutput> parts_table() { return std::make_unique<TableOutput>(3, 0, false); }

void check_input(const std::uint8_t* data, std::size_t size) {
  check_fixed_lines(kName, data, size, kRecordBytes);
  for (std::size_t r = 0, at = 0; at < size; ++r, at += kRecordBytes) {
    for (std::size_t i = at + kFragmentAt; i < at + kFragmentAt + kFragmentBases; ++i) {
      if (base_code(data[i]) < 0)
        throw_record_error(kName, r, kRecordBytes, i,
                           fmt::format("base {} of the fragment is '{}', not one of A C G T (the "
                                       "fragment is bytes {}-{} of a record)",
                                       i - at - kFragmentAt,
                                       escape_bytes(std::string(1, static_cast<char>(data[i]))),
                                       kFragmentAt, kFragmentAt + kFragmentBases - 1));
    }
  }
}

}  // namespace harness::workloads::dna
