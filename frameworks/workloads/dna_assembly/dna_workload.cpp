// DNA Assembly, first stage (thesis ch4/ch5/ch6): the fragments' 32-base
// parts counted in a hash table, each with the edges seen around it
// (combined by OR: "the uniqueness of the edges"), so that parts seen once,
// the noisy ones, can be removed (count >= 2 keeps a part; README.md).
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/dna_assembly/dna_cpu.h"
#include "frameworks/workloads/dna_assembly/dna_format.h"
#include "frameworks/workloads/dna_assembly/dna_parts_output.h"
#include "harness/core/parallel.h"
#include "harness/core/per_worker.h"

namespace harness::workloads {
namespace {

using namespace dna;

class DnaAssembly final : public Workload {
 public:
  std::string name() const override { return kName; }
  std::string description() const override {
    return "first stage of DNA assembly: each fragment's 32-base part counted in a hash table "
           "with the 2-base edges seen around it (OR of 16-bit masks)";
  }
  std::string default_dataset() const override { return "dna-fragments"; }
  std::string record_type() const override { return "fixed"; }
  std::string chapters() const override { return "ch4 ch5 ch6"; }
  PaperFacts paper() const override {
    PaperFacts p;
    p.read_share = 0.36;  // table 4.1
    p.written_share = 0.0;
    p.table4_1_bytes = 4.5e9;
    const double gb = 1e9;  // table 6.1, datasets #1-#4
    p.table6_1_bytes[0] = 2 * gb;
    p.table6_1_bytes[1] = 4 * gb;
    p.table6_1_bytes[2] = 6 * gb;
    p.table6_1_bytes[3] = 8 * gb;
    return p;
  }

  void check_input(const std::uint8_t* data, std::size_t size) const override {
    dna::check_input(data, size);
  }

  // A map from the part's text to its count and the OR of its edges' bits.
  // The parts are sharded by their text's hash over the host cores: every
  // shard scans all records and keeps its own parts, so the shards' maps are
  // disjoint and each is the serial map of its parts (serially, 256 MiB took
  // 4-5 s of every GPU point's preparation on an H100's host).
  std::unique_ptr<Output> reference(const Params&, const std::uint8_t* data,
                                    std::size_t size) const override {
    dna::check_input(data, size);
    struct Seen {
      std::int64_t count = 0, left = 0, right = 0;
    };
    const unsigned shards = workers_for(size, 0, std::size_t{1} << 22);
    // Each shard's map on cache lines of its own (per_worker.h).
    PerWorker<std::unordered_map<std::string, Seen>> shard_parts(shards);
    parallel_for(shards, [&](unsigned shard) {
      for (std::size_t at = 0; at < size; at += kRecordBytes) {
        const std::uint8_t* fragment = data + at + kFragmentAt;
        const std::string_view text(reinterpret_cast<const char*>(fragment) + kEdgeBases,
                                    kPartBases);
        if (std::hash<std::string_view>{}(text) % shards != shard) continue;
        Seen& seen = shard_parts[shard][std::string(text)];
        ++seen.count;
        seen.left |= std::int64_t{1} << edge_bit(fragment);
        seen.right |= std::int64_t{1} << edge_bit(fragment + kEdgeBases + kPartBases);
      }
    });
    const std::vector<std::unordered_map<std::string, Seen>> parts = shard_parts.take();
    std::size_t distinct = 0;
    for (const auto& shard : parts) distinct += shard.size();
    auto out = parts_table();
    out->reserve(distinct, distinct * kPartBases);
    for (const auto& shard : parts) {
      for (const auto& [part, seen] : shard) {
        const std::int64_t ints[] = {seen.count, seen.left, seen.right};
        out->add(part, ints);
      }
    }
    return out;
  }

  std::unique_ptr<Output> run_cpu(const Params&, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    return std::make_unique<PackedPartsOutput>(count_parts_parallel(data, size, threads));
  }

  // The kernel reads each record's 36 bases: the edges and the part.
  AccessShare access_share(const Params&, const std::uint8_t*, std::size_t size) const override {
    AccessMap map(size);
    const std::size_t records = size / kRecordBytes;
    for (std::size_t r = 0; r < records; ++r)
      map.read(r * kRecordBytes + kFragmentAt, kFragmentBases);
    return map.share(records);
  }
};

}  // namespace

const Workload& dna_assembly_workload() {
  static const DnaAssembly w;
  return w;
}

}  // namespace harness::workloads
