// netflix on the SePo table (combining): key = the user pair, value =
// (similarity term, 1 movie), added (apps/netflix.clh).
#include <cstring>

#include "frameworks/hashtable/sepo_app.h"
#include "frameworks/workloads/netflix/netflix_cpu.h"
#include "frameworks/workloads/netflix/netflix_format.h"
#include "frameworks/workloads/netflix/pair_scores_output.h"
#include "harness/core/parallel.h"

namespace harness::hashtable {
namespace {

class NetflixApp final : public SepoApp {
 public:
  std::string name() const override { return workloads::netflix::kApp; }
  std::string kernel_file() const override { return "frameworks/hashtable/apps/netflix.clh"; }
  RecordShape shape(const std::uint8_t*, std::size_t size) const override {
    return {size / workloads::netflix::kRecordBytes, 8, 8};
  }
  std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> heads, Organization org,
                                             std::uint64_t& entries) const override {
    using workloads::netflix::PairTally;
    std::vector<PairTally> rows;
    entries = walk_host_table(
        heads,
        [&rows](const HostEntry& e) {
          PairTally t;
          std::memcpy(&t.pair, e.key, 8);
          t.similarity = static_cast<std::int32_t>(e.value[0]);
          t.movies = e.value[1];
          rows.push_back(t);
        },
        org);
    // A key inserted in several iterations has one entry per iteration:
    // combined here with the same callback (adding), by the workload's
    // partitioned aggregation on every host core.
    namespace nf = workloads::netflix;
    auto out = std::make_unique<nf::PairScoresOutput>();
    nf::combine_slots_parallel({{rows.data(), rows.size()}}, workers_for(rows.size(), 0, 65536),
                               *out);
    return out;
  }
};

}  // namespace

const SepoApp& netflix_app() {
  static const NetflixApp app;
  return app;
}

}  // namespace harness::hashtable
