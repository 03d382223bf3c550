#include "frameworks/workloads/group_by_key.h"

#include <algorithm>

namespace harness::workloads::group_by_key {

TableOutput table_of_groups(const std::map<std::string, std::vector<std::int64_t>>& groups) {
  TableOutput table(1, 0, true);
  for (const auto& [key, values] : groups) {
    const auto count = static_cast<std::int64_t>(values.size());
    table.add(key, {&count, 1}, {}, values);
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
