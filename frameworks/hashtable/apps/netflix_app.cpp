// netflix on the SePo table (combining): key = the user pair, value =
// (similarity term, 1 movie), added (apps/netflix.clh).
#include <algorithm>
#include <cstring>
#include <vector>

#include "frameworks/hashtable/sepo_app.h"
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
  // Each worker walks a range of buckets. A pair inserted in several
  // iterations has an entry in each, all in its bucket's chain: they are
  // added up there (the table's own combine, on a chain sorted by pair), so
  // each worker's rows are distinct pairs, copied into the output's storage
  // in parallel.
  std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> heads, Organization org,
                                             std::uint64_t& entries) const override {
    using workloads::netflix::PairTally;
    const unsigned workers = workers_for(heads.size(), 0, 16384);
    std::vector<std::vector<PairTally>> rows(workers);
    entries = walk_buckets_parallel(
        heads, workers,
        [&rows](unsigned w, std::span<const HostEntry> chain) {
          std::vector<PairTally>& out = rows[w];
          const auto first = static_cast<std::ptrdiff_t>(out.size());
          for (const HostEntry& e : chain) {
            PairTally t;
            std::memcpy(&t.pair, e.key, 8);
            t.similarity = static_cast<std::int32_t>(e.value[0]);
            t.movies = e.value[1];
            out.push_back(t);
          }
          // The chain's entries of one pair side by side, then added up.
          const auto begin = out.begin() + first;
          std::sort(begin, out.end(),
                    [](const PairTally& a, const PairTally& b) { return a.pair < b.pair; });
          auto kept = begin;
          for (auto it = begin + 1; it < out.end(); ++it) {
            if (it->pair == kept->pair) {
              kept->similarity += it->similarity;
              kept->movies += it->movies;
            } else {
              *++kept = *it;
            }
          }
          out.erase(kept + 1, out.end());
        },
        org);
    auto out = std::make_unique<workloads::netflix::PairScoresOutput>();
    std::vector<std::size_t> offsets(workers + 1, 0);
    for (unsigned w = 0; w < workers; ++w) offsets[w + 1] = offsets[w] + rows[w].size();
    PairTally* storage = out->storage(offsets[workers]);
    parallel_for(workers, [&](unsigned w) {
      std::copy(rows[w].begin(), rows[w].end(), storage + offsets[w]);
      std::vector<PairTally>().swap(rows[w]);
    });
    out->add_piece(storage, offsets[workers]);
    return out;
  }
};

}  // namespace

const SepoApp& netflix_app() {
  static const NetflixApp app;
  return app;
}

}  // namespace harness::hashtable
