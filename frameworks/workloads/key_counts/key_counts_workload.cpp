// key-counts: for every distinct 64-bit key of the input, the number of times
// it occurs (a group-by count): the standard benchmark of today's GPU hash
// tables (cuCollections' static_map inserting distinct keys, insert_or_apply
// over Zipf-skewed keys), run by the hash table families against this
// CPU-MT baseline.
#include <algorithm>
#include <vector>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/key_counts/key_counts_cpu.h"
#include "frameworks/workloads/key_counts/key_counts_format.h"
#include "frameworks/workloads/key_counts/key_counts_output.h"

namespace harness::workloads {
namespace {

using namespace key_counts;

class KeyCounts final : public Workload {
 public:
  std::string name() const override { return kApp; }
  std::string description() const override {
    return "group-by count of 64-bit keys: per distinct key, its number of occurrences "
           "(a 16-byte header, then u64 keys)";
  }
  std::string default_dataset() const override { return "keys-u64"; }
  std::string record_type() const override { return "fixed"; }
  std::string chapters() const override { return "ch6"; }

  void check_input(const std::uint8_t* data, std::size_t size) const override {
    check_keys(data, size);
  }

  // The keys copied and sorted; each run of equal keys is one row.
  std::unique_ptr<Output> reference(const Params&, const std::uint8_t* data,
                                    std::size_t size) const override {
    const KeyArray in = read_keys(data, size);
    std::vector<std::uint64_t> keys(in.keys, in.keys + in.count);
    std::sort(keys.begin(), keys.end());
    auto out = std::make_unique<KeyCountsOutput>();
    KeyCount* rows = out->storage(keys.size());
    std::size_t n = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (i > 0 && keys[i] == keys[i - 1]) {
        rows[n - 1].count += 1;
      } else {
        rows[n++] = KeyCount{keys[i], 1};
      }
    }
    out->add_piece(rows, n);
    return out;
  }

  std::unique_ptr<Output> run_cpu(const Params&, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    const KeyArray in = read_keys(data, size);
    auto out = std::make_unique<KeyCountsOutput>();
    count_keys_parallel(in.keys, in.count, threads, *out);
    return out;
  }

  // N (header bytes 8-15) and every byte of every key: all but the magic.
  AccessShare access_share(const Params&, const std::uint8_t* data,
                           std::size_t size) const override {
    const KeyArray in = read_keys(data, size);
    AccessMap map(size);
    if (size) map.read(8, 8);
    map.read(kHeaderBytes, 8 * in.count);
    return map.share(in.count);
  }
};

}  // namespace

const Workload& key_counts_workload() {
  static const KeyCounts w;
  return w;
}

}  // namespace harness::workloads
