#include "frameworks/workloads/kv_pairs/pair_sums_output.h"

#include <utility>

namespace harness::workloads::kv_pairs {

PairSumsOutput::PairSumsOutput(TableOutput table) : table_(std::move(table)) {}

std::string PairSumsOutput::compare_with(const Output& expected,
                                         const ValidationPolicy& policy) const {
  const auto& rows = expect_same_type<TableOutput>(expected, "kv-pairs sums");
  TableOutput sums(2, 0, false);
  sums.reserve(rows.rows(), rows.rows() ? rows.rows() * rows.key(0).size() : 0);
  for (std::size_t r = 0; r < rows.rows(); ++r) sums.add(rows.key(r), rows.ints(r));
  sums.finish();
  return table_.compare_with(sums, policy);
}

}  // namespace harness::workloads::kv_pairs
