#include "frameworks/workloads/group_by_key.h"

#include <algorithm>

namespace harness::workloads::group_by_key {

void add_group(TableOutput& table, std::string_view key, std::span<const std::int64_t> values,
               bool value_sums) {
  std::uint32_t sum = 0;
  if (value_sums)
    for (const std::int64_t v : values) sum += static_cast<std::uint32_t>(v);
  const std::int64_t columns[2] = {static_cast<std::int64_t>(values.size()), sum};
  table.add(key, {columns, value_sums ? 2u : 1u}, {}, values);
}

TableOutput table_of_groups(const std::map<std::string, std::vector<std::int64_t>>& groups) {
  TableOutput table(1, 0, true);
  for (const auto& [key, values] : groups) add_group(table, key, values, false);
  table.finish();
  return table;
}

TableOutput table_of_counts(const std::map<std::string, std::int64_t>& counts) {
  TableOutput table(1, 0, false);
  table.reserve(counts.size(), 0);
  for (const auto& [key, count] : counts) {
    const std::int64_t column[1] = {count};
    table.add(key, column);
  }
  table.finish();
  return table;
}

unsigned partitions_for(unsigned threads, std::size_t expected_records) {
  const std::size_t for_cache =
      std::min<std::size_t>(expected_records / kRecordsPerPartition, kMaxPartitions);
  return std::max(4 * std::max(1u, threads), static_cast<unsigned>(for_cache));
}

}  // namespace harness::workloads::group_by_key
