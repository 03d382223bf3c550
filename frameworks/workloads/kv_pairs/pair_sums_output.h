// kv-pairs' answer from a run that combined each key's values as it went (the
// SePo table's combining organization, MAP_REDUCE): per key its count and the
// sum of its values' first words, without the values themselves. Compared
// with the reference (whose rows also list the values: MAP_GROUP) on the keys
// and those two columns. Dump: `key<TAB>count<TAB>sum` lines.
#pragma once

#include "frameworks/workloads/outputs.h"

namespace harness::workloads::kv_pairs {

class PairSumsOutput final : public Output {
 public:
  // `table`: two integer columns (count, sum), no list.
  explicit PairSumsOutput(TableOutput table);

  void finish() override { table_.finish(); }
  std::string compare_with(const Output& expected, const ValidationPolicy& policy) const override;
  void dump(std::ostream& out) const override { table_.dump(out); }
  std::uint64_t items() const override { return table_.rows(); }

 private:
  TableOutput table_;
};

}  // namespace harness::workloads::kv_pairs
