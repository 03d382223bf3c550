// kv-pairs (thesis figure 6.8): synthetic key-value pairs of K key bytes and
// V value bytes, the SePo hash table's insert rate against key and value
// sizes. The answer groups every record's value under its key: per key the
// number of its records, the sum of their values' first words (modulo 2^32)
// and the list of those words (MAP_GROUP); a run that combines values
// (MAP_REDUCE) gives the first two (pair_sums_output.h).
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/group_by_key.h"
#include "frameworks/workloads/kv_pairs/kv_pairs_cpu.h"
#include "frameworks/workloads/kv_pairs/kv_pairs_format.h"

namespace harness::workloads {
namespace {

using namespace kv_pairs;

class KvPairs final : public Workload {
 public:
  std::string name() const override { return kName; }
  std::string description() const override {
    return "key-value pairs of K key and V value bytes (a header gives K and V): per key, its "
           "records, the sum of their values' first words and the list of those words";
  }
  std::string default_dataset() const override { return "kv-pairs"; }
  std::string record_type() const override { return "fixed"; }
  std::string chapters() const override { return "ch6"; }

  void check_input(const std::uint8_t* data, std::size_t size) const override {
    read_layout(data, size);
  }

  // Every record is one value: the records' (key, first word) pairs sorted
  // by key bytes, each run of one key a row keyed by its hex text.
  std::unique_ptr<Output> reference(const Params&, const std::uint8_t* data,
                                    std::size_t size) const override {
    const Layout layout = read_layout(data, size);
    std::vector<std::pair<std::string_view, std::int64_t>> pairs(layout.records);
    for (std::uint64_t i = 0; i < layout.records; ++i) {
      const std::uint8_t* record = layout.record(data, i);
      pairs[i] = {{reinterpret_cast<const char*>(record), layout.key_bytes},
                  load_word(record + layout.key_bytes)};
    }
    std::sort(pairs.begin(), pairs.end());
    auto table = std::make_unique<TableOutput>(2, 0, true);
    std::vector<std::int64_t> values;
    for (std::size_t i = 0; i < pairs.size();) {
      const std::string_view key = pairs[i].first;
      values.clear();
      for (; i < pairs.size() && pairs[i].first == key; ++i) values.push_back(pairs[i].second);
      group_by_key::add_group(
          *table, key_text(reinterpret_cast<const std::uint8_t*>(key.data()), key.size()), values,
          true);
    }
    table->finish();
    return table;
  }

  std::unique_ptr<Output> run_cpu(const Params&, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    return group_pairs(data, size, threads);
  }

  // The kernel reads the header's sizes and every record whole (its key and
  // its value, stored in the table); the header's name is never read.
  AccessShare access_share(const Params&, const std::uint8_t* data,
                           std::size_t size) const override {
    const Layout layout = read_layout(data, size);
    AccessMap map(size);
    if (size) map.read(8, 8);
    map.read(datasets::kKvHeaderBytes, layout.records * layout.record_bytes());
    return map.share(layout.records);
  }
};

}  // namespace

const Workload& kv_pairs_workload() {
  static const KvPairs w;
  return w;
}

}  // namespace harness::workloads
