// kv-pairs on host threads (group_by_key.h): each thread sends the records of
// its own range to their key's partition, the key being a pointer to its
// bytes in the input and the value the value's first word; then the
// partitions are grouped in parallel. The keys have few records each (2-10
// in figure 6.8's data), so a thread-local table would hold nearly every key
// of its range: records carry their key to the merge instead.
#include "frameworks/workloads/kv_pairs/kv_pairs_cpu.h"

#include <string>

#include "frameworks/workloads/group_by_key.h"
#include "frameworks/workloads/kv_pairs/kv_pairs_format.h"
#include "harness/core/cuts.h"

namespace harness::workloads::kv_pairs {
namespace {

struct PairKeys {
  using Key = const std::uint8_t*;
  static constexpr bool kThreadLocalTable = false;
  static constexpr bool kValueSums = true;
  std::uint32_t bytes;
  std::uint64_t hash(Key k) const { return group_by_key::hash_bytes(k, bytes); }
  bool equal(Key a, Key b) const { return group_by_key::same_bytes(a, b, bytes); }
  std::string text(Key k) const { return key_text(k, bytes); }
};

}  // namespace

std::unique_ptr<Output> group_pairs(const std::uint8_t* data, std::size_t size, unsigned threads) {
  const Layout layout = read_layout(data, size);
  const auto cuts = even_cuts(layout.records, threads);
  const PairKeys keys{layout.key_bytes};
  return group_by_key::group_in_parallel(
      keys, threads, layout.records, [&](unsigned t, group_by_key::ThreadGroups<PairKeys>& groups) {
        for (std::size_t r = cuts[t]; r < cuts[t + 1]; ++r) {
          const std::uint8_t* record = layout.record(data, r);
          groups.add(record, load_word(record + layout.key_bytes));
        }
      });
}

}  // namespace harness::workloads::kv_pairs
