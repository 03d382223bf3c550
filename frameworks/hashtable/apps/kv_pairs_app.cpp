// kv-pairs on the SePo table (thesis figure 6.8), every organization: key =
// the record's K key bytes, value = (1, its V value bytes) (apps/kv_pairs.clh).
// The walk (grouped_app.h) makes the workload's answer per key: under basic
// and multi-valued its values' first words listed, counted and summed
// (MAP_GROUP); under combining the key's combined count and sum, added over
// its entries of every iteration (MAP_REDUCE: pair_sums_output.h).
#include <fmt/format.h>

#include <vector>

#include "frameworks/hashtable/apps/grouped_app.h"
#include "frameworks/workloads/group_by_key.h"
#include "frameworks/workloads/kv_pairs/kv_pairs_format.h"
#include "frameworks/workloads/kv_pairs/pair_sums_output.h"
#include "harness/core/errors.h"

namespace harness::hashtable {
namespace {

namespace kv = workloads::kv_pairs;

// apps/kv_pairs.clh's HT_KEY_WORDS, and HT_VALUE_WORDS less the count word.
constexpr std::uint32_t kMaxFieldBytes = 64;

class KvPairsApp final : public GroupedApp {
 public:
  std::string name() const override { return kv::kName; }
  std::string kernel_file() const override { return "frameworks/hashtable/apps/kv_pairs.clh"; }
  RecordShape shape(const std::uint8_t* data, std::size_t size) const override {
    const kv::Layout layout = kv::read_layout(data, size);
    if (layout.key_bytes > kMaxFieldBytes || layout.value_bytes > kMaxFieldBytes)
      throw RunError(fmt::format(
          "hashtable: kv-pairs records of {} key and {} value bytes; the table's kernel takes "
          "keys and values of at most {} bytes",
          layout.key_bytes, layout.value_bytes, kMaxFieldBytes));
    return {layout.records, layout.key_bytes, layout.value_bytes + 4};
  }

 protected:
  workloads::TableOutput table(Organization org) const override {
    return workloads::TableOutput(2, 0, org != Organization::combining);
  }
  // A value is (count, the record's value words): its word 1 is the first
  // value word.
  void add_row(workloads::TableOutput& table, std::string_view key,
               std::span<const std::uint32_t* const> values, Organization org) const override {
    thread_local std::string text;
    kv::assign_key_text(text, reinterpret_cast<const std::uint8_t*>(key.data()), key.size());
    if (org != Organization::combining) {
      thread_local std::vector<std::int64_t> words;
      words.clear();
      for (const std::uint32_t* v : values) words.push_back(v[1]);
      workloads::group_by_key::add_group(table, text, words, true);
      return;
    }
    std::uint32_t count = 0, sum = 0;
    for (const std::uint32_t* v : values) {
      count += v[0];
      sum += v[1];
    }
    const std::int64_t columns[2] = {count, sum};
    table.add(text, columns);
  }
  std::unique_ptr<workloads::Output> answer(workloads::TableOutput table,
                                            Organization org) const override {
    if (org == Organization::combining)
      return std::make_unique<kv::PairSumsOutput>(std::move(table));
    return GroupedApp::answer(std::move(table), org);
  }
};

}  // namespace

const SepoApp& kv_pairs_app() {
  static const KvPairsApp app;
  return app;
}

}  // namespace harness::hashtable
