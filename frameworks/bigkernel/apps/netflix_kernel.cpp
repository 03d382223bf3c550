// netflix's AppKernel: the chunk's device hash table keyed by the user pair
// (apps/netflix.clh, apps/chunk_table_kernel.h), the chunks' rows merged on
// every host core by the workload's own partitioned aggregation.
#include <span>
#include <vector>

#include "frameworks/bigkernel/apps/chunk_table_kernel.h"
#include "frameworks/workloads/netflix/netflix_cpu.h"
#include "frameworks/workloads/netflix/netflix_format.h"
#include "frameworks/workloads/netflix/pair_scores_output.h"
#include "harness/core/parallel.h"

namespace harness::bigkernel {
namespace {

namespace nf = workloads::netflix;

class NetflixKernel final : public ChunkTableKernel<nf::PairTally> {
 public:
  std::string app() const override { return nf::kApp; }
  std::size_t record_bytes() const override { return nf::kRecordBytes; }
  std::uint32_t max_reads() const override { return 4; }
  // u32 user_a, u32 user_b, u16 rating_a, u16 rating_b: 12 bytes, 16 with the
  // thread layout's 8-byte rounding.
  std::uint32_t max_value_bytes() const override { return 16; }

 protected:
  // Every pair once, its sums added (the workload's CPU-MT aggregation, fed
  // the tables' rows).
  std::unique_ptr<workloads::Output> merge(
      const std::vector<std::span<const nf::PairTally>>& chunks,
      std::uint64_t rows) const override {
    std::vector<nf::TallySlots> tables;
    for (const auto& c : chunks) tables.push_back({c.data(), c.size()});
    auto out = std::make_unique<nf::PairScoresOutput>();
    nf::combine_slots_parallel(tables, workers_for(rows, 0, kItemsPerHostThread), *out);
    return out;
  }
  std::string source_file() const override { return "frameworks/bigkernel/apps/netflix.clh"; }
  std::string kernel_name() const override { return "bk_netflix"; }
};

}  // namespace

std::unique_ptr<AppKernel> make_netflix_kernel() { return std::make_unique<NetflixKernel>(); }

}  // namespace harness::bigkernel
