// netflix (thesis chapters 4 and 6): the similarity of users from their
// ratings. Each record holds two users' ratings of one movie; a pair's
// similarity is the sum over its common movies (its records) of the product
// of the ratings' deviations from 3, aggregated per pair (the hash table's
// KV pairs <userA & userB, score>, combined by summing).
#include <algorithm>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/netflix/netflix_cpu.h"
#include "frameworks/workloads/netflix/netflix_format.h"
#include "frameworks/workloads/netflix/pair_scores_output.h"

namespace harness::workloads {
namespace {

using namespace netflix;

class Netflix final : public Workload {
 public:
  std::string name() const override { return kApp; }
  std::string description() const override {
    return "user similarity: per user pair, the sum over common movies of (rating_a - 3) * "
           "(rating_b - 3) and the number of common movies, 40-byte rating-pair records";
  }
  std::string default_dataset() const override { return "netflix-pairs"; }
  std::string record_type() const override { return "fixed"; }
  std::string chapters() const override { return "ch4 ch6"; }
  PaperFacts paper() const override {
    PaperFacts f;
    f.read_share = 0.30;
    f.written_share = 0.0;
    f.table4_1_bytes = 6.6e9;
    const double table6_1[4] = {1.6e9, 3.2e9, 4.8e9, 6.4e9};
    std::copy(std::begin(table6_1), std::end(table6_1), f.table6_1_bytes);
    return f;
  }

  void check_input(const std::uint8_t* data, std::size_t size) const override {
    check_rating_pairs(data, size);
  }

  // Every record's (pair, term) in a list, sorted by pair; each run of equal
  // pairs is one row.
  std::unique_ptr<Output> reference(const Params&, const std::uint8_t* data,
                                    std::size_t size) const override {
    const std::size_t records = size / kRecordBytes;
    std::vector<PairTally> terms(records);
    for (std::size_t i = 0; i < records; ++i) {
      const RatingPair r = load_rating_pair(data + i * kRecordBytes);
      terms[i] = {pair_key(r.user_a, r.user_b), similarity_term(r.rating_a, r.rating_b), 1};
    }
    std::sort(terms.begin(), terms.end(),
              [](const PairTally& x, const PairTally& y) { return x.pair < y.pair; });
    auto out = std::make_unique<PairScoresOutput>();
    PairTally* rows = out->storage(records);
    std::size_t n = 0;
    for (const PairTally& t : terms) {
      if (n > 0 && rows[n - 1].pair == t.pair) {
        rows[n - 1].similarity += t.similarity;
        rows[n - 1].movies += 1;
      } else {
        rows[n++] = t;
      }
    }
    out->add_piece(rows, n);
    return out;
  }

  std::unique_ptr<Output> run_cpu(const Params&, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    auto out = std::make_unique<PairScoresOutput>();
    tally_pairs_parallel(data, size / kRecordBytes, threads, *out);
    return out;
  }

  // Each record's user_a, user_b, rating_a and rating_b: 12 of 40 bytes.
  AccessShare access_share(const Params&, const std::uint8_t*, std::size_t size) const override {
    AccessMap map(size);
    const std::size_t records = size / kRecordBytes;
    for (std::size_t i = 0; i < records; ++i) {
      const std::size_t at = i * kRecordBytes;
      map.read(at + datasets::kNetflixUserAOffset, 4);
      map.read(at + datasets::kNetflixUserBOffset, 4);
      map.read(at + datasets::kNetflixRatingAOffset, 2);
      map.read(at + datasets::kNetflixRatingBOffset, 2);
    }
    return map.share(records);
  }
};

}  // namespace

const Workload& netflix_workload() {
  static const Netflix w;
  return w;
}

}  // namespace harness::workloads
