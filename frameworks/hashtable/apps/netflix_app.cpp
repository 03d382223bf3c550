// netflix on the SePo table (combining): key = the user pair, value =
// (similarity term, 1 movie), added (apps/netflix.clh).
#include <cstring>
#include <type_traits>

#include "frameworks/hashtable/apps/keyed_rows.h"
#include "frameworks/hashtable/sepo_app.h"
#include "frameworks/workloads/netflix/netflix_format.h"
#include "frameworks/workloads/netflix/pair_scores_output.h"

namespace harness::hashtable {
namespace {

// The row ht_pack_rows writes: an entry's 2 key and 2 value words.
static_assert(sizeof(workloads::netflix::PairTally) == 16 &&
              std::is_trivially_copyable_v<workloads::netflix::PairTally>);

class NetflixApp final : public SepoApp {
 public:
  std::string name() const override { return workloads::netflix::kApp; }
  std::string kernel_file() const override { return "frameworks/hashtable/apps/netflix.clh"; }
  RecordShape shape(const std::uint8_t*, std::size_t size) const override {
    return {size / workloads::netflix::kRecordBytes, 8, 8};
  }
  // An entry's key and value words are a PairTally: the pair's 8 bytes (the
  // host's u64 pair_key), the similarity sum, the movies.
  std::uint32_t row_bytes() const override { return sizeof(workloads::netflix::PairTally); }
  std::unique_ptr<workloads::Output> collect_rows(const std::uint8_t* rows,
                                                  std::uint64_t count) const override {
    auto out = std::make_unique<workloads::netflix::PairScoresOutput>();
    out->add_piece(reinterpret_cast<const workloads::netflix::PairTally*>(rows), count);
    return out;
  }
  // A pair's entries of several iterations added up (apps/keyed_rows.h).
  std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> heads, Organization org,
                                             std::uint64_t& entries) const override {
    using workloads::netflix::PairTally;
    return collect_keyed_rows<workloads::netflix::PairScoresOutput>(
        heads, org, entries,
        [](const HostEntry& e) {
          PairTally t;
          std::memcpy(&t.pair, e.key, 8);
          t.similarity = static_cast<std::int32_t>(e.value[0]);
          t.movies = e.value[1];
          return t;
        },
        [](const PairTally& t) { return t.pair; },
        [](PairTally& into, const PairTally& more) {
          into.similarity += more.similarity;
          into.movies += more.movies;
        });
  }
};

}  // namespace

const SepoApp& netflix_app() {
  static const NetflixApp app;
  return app;
}

}  // namespace harness::hashtable
