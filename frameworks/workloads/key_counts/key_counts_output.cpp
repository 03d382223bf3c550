#include "frameworks/workloads/key_counts/key_counts_output.h"

#include <fmt/format.h>

#include <iterator>
#include <string>

namespace harness::workloads {

template class KeyedRowsOutput<key_counts::KeyCountRows>;

namespace key_counts {

std::string KeyCountRows::key_name(std::uint64_t key) { return fmt::format("{:016x}", key); }

std::string KeyCountRows::values(const KeyCount& row) { return fmt::format("{}", row.count); }

void KeyCountRows::append_line(std::string& text, const KeyCount& row) {
  fmt::format_to(std::back_inserter(text), "{:016x}\t{}\n", row.key, row.count);
}

}  // namespace key_counts
}  // namespace harness::workloads
