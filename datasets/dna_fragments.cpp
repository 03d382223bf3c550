#include "datasets/dna_fragments.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "datasets/chunked.h"
#include "datasets/random.h"

namespace harness::datasets {
namespace {

constexpr std::uint64_t kRecordsPerChunk = 40000;  // 4,000,000 bytes
constexpr std::uint64_t kMinGenome = 1024;
constexpr char kBases[] = "ACGT";

// The fields around the bases (dna_fragments.h's table).
constexpr std::size_t kIdBytes = 10, kQualityAt = 48, kCoordinatesAt = 85;
static_assert(kFragmentBasesAt == kIdBytes + 1 &&
              kQualityAt == kFragmentBasesAt + kFragmentBases + 1);
static_assert(kCoordinatesAt + 14 + 1 == kFragmentRecordBytes);

constexpr std::uint32_t kDuplicatePercent = 10;
constexpr std::size_t kRecentReads = 64;

// A base with the human genome's 41% GC: A and T 29.5% each, C and G 20.5%.
char draw_base(std::uint32_t u16) {
  return u16 < 19333 ? 'A' : u16 < 32768 ? 'C' : u16 < 46203 ? 'G' : 'T';
}

void draw_bases(Rng& rng, char* out, std::size_t n) {
  for (std::size_t i = 0; i < n; i += 4) {
    const std::uint64_t bits = rng.next();
    for (std::size_t k = 0; k < 4 && i + k < n; ++k)
      out[i + k] = draw_base(static_cast<std::uint32_t>((bits >> (16 * k)) & 0xFFFF));
  }
}

// One of the three other bases.
char substitute(Rng& rng, char base) {
  const char* at = std::strchr(kBases, base);
  const auto code = static_cast<std::uint32_t>(at - kBases);
  return kBases[(code + 1 + rng.below(3)) % 4];
}

std::uint64_t genome_length(std::uint64_t records) {
  return std::max(kMinGenome, records * kFragmentBases / kFragmentCoverage);
}

std::string build_genome(std::uint64_t length, std::uint64_t seed) {
  Rng rng(mix_seed(seed, 0x67656E6F6D65ULL));  // "genome"
  std::string genome(length, 'A');
  draw_bases(rng, genome.data(), length);
  const std::uint64_t longest = length / 8;
  auto place = [&](std::uint64_t size) { return rng.next() % (length - size + 1); };

  // Interspersed repeats: 12 families, copies with 1% of the bases changed.
  constexpr int kFamilies = 12;
  std::array<std::string, kFamilies> family;
  for (std::string& f : family) {
    f.resize(std::min<std::uint64_t>(300 + rng.below(2701), longest));
    draw_bases(rng, f.data(), f.size());
  }
  for (std::uint64_t covered = 0; covered < length * 8 / 100;) {
    const std::string& f = family[rng.below(kFamilies)];
    char* copy = genome.data() + place(f.size());
    for (std::size_t i = 0; i < f.size(); ++i)
      copy[i] = rng.below(100) == 0 ? substitute(rng, f[i]) : f[i];
    covered += f.size();
  }

  // Microsatellites: a unit of 1-6 bases repeated over 30-200 bases.
  for (std::uint64_t covered = 0; covered < length / 100;) {
    char unit[6];
    const std::uint32_t unit_size = 1 + rng.below(6);
    draw_bases(rng, unit, unit_size);
    const std::uint64_t size = std::min<std::uint64_t>(30 + rng.below(171), longest);
    char* run = genome.data() + place(size);
    for (std::uint64_t i = 0; i < size; ++i) run[i] = unit[i % unit_size];
    covered += size;
  }
  return genome;
}

void put_digits(char* at, std::size_t digits, std::uint64_t value) {
  for (std::size_t i = digits; i-- > 0;) {
    at[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
}

void make_chunk(const std::string& genome, std::uint64_t seed, std::uint64_t index,
                std::size_t size, std::string& out) {
  Rng rng(mix_seed(seed, index));
  out.resize(size);
  std::array<std::uint64_t, kRecentReads> recent{};
  const std::uint64_t starts = genome.size() - kFragmentBases + 1;
  const char lane = static_cast<char>('1' + index % 8);
  const std::uint64_t tile = 1101 + index / 8 % 16;
  for (std::size_t k = 0; k * kFragmentRecordBytes < size; ++k) {
    char* r = out.data() + k * kFragmentRecordBytes;
    put_digits(r, kIdBytes, index * kRecordsPerChunk + k);
    r[kIdBytes] = ' ';

    std::uint64_t start;
    if (k > 0 && rng.below(100) < kDuplicatePercent) {
      start = recent[rng.below(static_cast<std::uint32_t>(std::min(k, kRecentReads)))];
    } else {
      start = rng.next() % starts;
    }
    recent[k % kRecentReads] = start;
    char* bases = r + kFragmentBasesAt;
    char* quality = r + kQualityAt;
    std::memcpy(bases, genome.data() + start, kFragmentBases);
    constexpr auto kLast = static_cast<std::uint32_t>(kFragmentBases - 1);
    for (std::uint32_t i = 0; i <= kLast; ++i) {
      // Error rates in 1/100,000: 400 at the first base, 1600 at the last.
      const std::uint32_t error = 400 + 1200 * i / kLast;
      std::uint32_t q;
      if (rng.below(100000) < error) {
        bases[i] = substitute(rng, bases[i]);
        q = 2 + rng.below(13);
      } else {
        q = 40 - 15 * i / kLast - rng.below(6);
      }
      quality[i] = static_cast<char>('!' + q);
    }
    r[kQualityAt - 1] = ' ';
    r[kCoordinatesAt - 1] = ' ';

    char* c = r + kCoordinatesAt;
    c[0] = lane;
    c[1] = ':';
    put_digits(c + 2, 4, tile);
    c[6] = ':';
    put_digits(c + 7, 3, rng.below(1000));
    c[10] = ':';
    put_digits(c + 11, 3, rng.below(1000));
    r[kFragmentRecordBytes - 1] = '\n';
  }
}

class DnaFragments final : public Generator {
 public:
  std::string name() const override { return "dna-fragments"; }
  std::string description() const override {
    return "100-byte sequencing reads (id, 36 bases, qualities, coordinates) from a random "
           "genome with repeats, 30x coverage, duplicates and 1% substitution noise";
  }
  int version() const override { return 1; }
  std::string extension() const override { return "txt"; }
  std::uint64_t output_bytes(std::uint64_t size_bytes) const override {
    return size_bytes / kFragmentRecordBytes * kFragmentRecordBytes;
  }
  void generate(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out) const override {
    const std::uint64_t bytes = output_bytes(size_bytes);
    if (bytes == 0) return;
    const std::string genome = dna_fragments_genome(bytes / kFragmentRecordBytes, seed);
    write_chunks("dna-fragments", bytes, kRecordsPerChunk * kFragmentRecordBytes, 0, out,
                 [&](std::uint64_t index, std::size_t size, std::string& buffer) {
                   make_chunk(genome, seed, index, size, buffer);
                 });
  }
};

}  // namespace

const Generator& dna_fragments_generator() {
  static const DnaFragments g;
  return g;
}

std::string dna_fragments_genome(std::uint64_t records, std::uint64_t seed) {
  return build_genome(genome_length(records), seed);
}

}  // namespace harness::datasets
