#include "datasets/patent_citations.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "datasets/chunked.h"
#include "datasets/random.h"
#include "datasets/zipf_table.h"
#include "harness/core/errors.h"
#include "harness/core/host_cores.h"
#include "harness/core/parallel.h"

namespace harness::datasets {
namespace {

constexpr std::uint64_t kChunkBytes = kPatentChunkRecords * kPatentRecordBytes;
constexpr std::uint32_t kMaxNumber = 99'999'999;
constexpr std::uint64_t kCountStream = 0x70c0u, kCitationStream = 0x70c1u;

// Where a chunk's patents start (a global patent index: 0 is the oldest
// patent, number kPatentFirstNumber).
struct Layout {
  std::vector<std::uint64_t> first_patent;  // by chunk
  std::uint64_t patents = 0;                // all of them, the old ones included
};

std::uint32_t draw_count(const ZipfTable& counts, Rng& rng, std::uint64_t records_left) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(counts.sample(rng) + 1, records_left));
}

[[noreturn]] void too_many(std::uint64_t records) {
  throw UsageError(fmt::format(
      "patent-citations: {} records need patent numbers past 8 digits; ask for at most about 13GB",
      records));
}

// Replays every chunk's citation counts (the count stream of each chunk,
// in parallel) to number its patents.
Layout lay_out(std::uint64_t records, std::uint64_t seed, const ZipfTable& counts) {
  // At most 20 citations per patent: sure to overflow, no need to count.
  if (records / kPatentMaxCitations > kMaxNumber - kPatentFirstNumber) too_many(records);
  const std::uint64_t chunks = (records + kPatentChunkRecords - 1) / kPatentChunkRecords;
  std::vector<std::uint64_t> patents_in(chunks);
  const unsigned workers =
      static_cast<unsigned>(std::min<std::uint64_t>(harness::usable_cores(), chunks));
  parallel_for(workers, [&](unsigned w) {
    for (std::uint64_t c = w; c < chunks; c += workers) {
      Rng rng(mix_seed(seed ^ kCountStream, c));
      std::uint64_t left = std::min(kPatentChunkRecords, records - c * kPatentChunkRecords);
      // Counted in a local, written once: the neighbouring chunks' counts
      // share cache lines with this one and are other workers'.
      std::uint64_t patents = 0;
      for (; left > 0; ++patents) left -= draw_count(counts, rng, left);
      patents_in[c] = patents;
    }
  });
  Layout layout;
  layout.patents = std::uint64_t{kPatentOldEras} * kPatentEra;
  for (std::uint64_t c = 0; c < chunks; ++c) {
    layout.first_patent.push_back(layout.patents);
    layout.patents += patents_in[c];
  }
  if (kPatentFirstNumber + layout.patents - 1 > kMaxNumber) too_many(records);
  return layout;
}

struct Tables {
  ZipfTable counts{kPatentMaxCitations, 4.0};  // rank r: r + 1 citations
  ZipfTable popularity{kPatentEra, 10.0};      // a cited patent's rank in its era
  ZipfTable eras_back;                         // 0: the era before the citing patent's
};

// The patent a citation of a patent of era `era` (>= kPatentOldEras) picks.
std::uint64_t draw_cited(const Tables& t, Rng& rng, std::uint64_t era) {
  std::uint64_t back;
  do {
    back = t.eras_back.sample(rng);
  } while (back >= era);
  const std::uint64_t cited_era = era - 1 - back;
  // Odd multiplier: rank -> position is a permutation of the era, shifted
  // per era so that popular positions differ between eras.
  const std::uint64_t position =
      (t.popularity.sample(rng) * 0x9E37u + cited_era * 0x2F1Bu) & (kPatentEra - 1);
  return cited_era * kPatentEra + position;
}

void write_number(std::uint32_t n, char* digits) {
  for (int i = 7; i >= 0; --i, n /= 10) digits[i] = static_cast<char>('0' + n % 10);
}

void make_chunk(const Tables& t, const Layout& layout, std::uint64_t seed, std::uint64_t chunk,
                std::size_t size, std::string& out) {
  Rng counts(mix_seed(seed ^ kCountStream, chunk));
  Rng citations(mix_seed(seed ^ kCitationStream, chunk));
  out.resize(size);
  char* record = out.data();
  std::uint64_t left = size / kPatentRecordBytes;
  std::uint64_t cited[kPatentMaxCitations];
  for (std::uint64_t patent = layout.first_patent[chunk]; left > 0; ++patent) {
    const std::uint32_t n = draw_count(t.counts, counts, left);
    for (std::uint32_t i = 0; i < n; ++i) {
      do {
        cited[i] = draw_cited(t, citations, patent / kPatentEra);
      } while (std::find(cited, cited + i, cited[i]) != cited + i);
    }
    std::sort(cited, cited + n);
    for (std::uint32_t i = 0; i < n; ++i, record += kPatentRecordBytes) {
      write_number(static_cast<std::uint32_t>(kPatentFirstNumber + patent), record);
      record[8] = ',';
      write_number(static_cast<std::uint32_t>(kPatentFirstNumber + cited[i]), record + 9);
      record[17] = '\n';
    }
    left -= n;
  }
}

class PatentCitations final : public Generator {
 public:
  std::string name() const override { return "patent-citations"; }
  std::string description() const override {
    return "patent citation records CITING,CITED (8 digits each, 18 bytes), Zipf-popular and "
           "recent patents cited most";
  }
  int version() const override { return 1; }
  std::string extension() const override { return "txt"; }
  std::uint64_t output_bytes(std::uint64_t size_bytes) const override {
    return size_bytes - size_bytes % kPatentRecordBytes;
  }
  void generate(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out) const override {
    const std::uint64_t records = size_bytes / kPatentRecordBytes;
    if (records == 0) return;
    Tables t;
    const Layout layout = lay_out(records, seed, t.counts);
    t.eras_back = ZipfTable(static_cast<std::uint32_t>(layout.patents / kPatentEra + 1), 2.0);
    write_chunks("patent-citations", records * kPatentRecordBytes, kChunkBytes, 0, out,
                 [&](std::uint64_t chunk, std::size_t size, std::string& buffer) {
                   make_chunk(t, layout, seed, chunk, size, buffer);
                 });
  }
};

}  // namespace

const Generator& patent_citations_generator() {
  static const PatentCitations g;
  return g;
}

}  // namespace harness::datasets
