#include "datasets/geo_articles.h"

#include <fmt/format.h>

#include <iterator>
#include <stdexcept>
#include <unordered_set>

#include "datasets/chunked.h"
#include "datasets/random.h"
#include "datasets/zipf_table.h"
#include "harness/core/errors.h"

namespace harness::datasets {
namespace {

constexpr std::uint64_t kChunkBytes = std::uint64_t{4} << 20;
constexpr std::size_t kMaxLine = 256;         // no line is longer (checked)
constexpr std::uint64_t kBytesPerId = 32;     // id = first + offset / 32
constexpr std::uint64_t kBytesPerSecond = 8;  // time = start + offset / 8 s
constexpr std::int64_t kStartDay = 11337;     // 2001-01-15, days since 1970-01-01
constexpr std::uint32_t kCountries = 150;

std::string pseudo_word(Rng& rng, std::uint32_t min_syllables, std::uint32_t max_syllables) {
  static constexpr const char* kSyllables[] = {"ka",  "lo",  "mi",  "ne",  "ru", "sa", "to", "vi",
                                               "de",  "po",  "an",  "el",  "or", "un", "is", "ba",
                                               "ter", "gan", "mos", "ril", "du", "fe", "ho", "ya"};
  std::string w;
  const std::uint32_t n = min_syllables + rng.below(max_syllables - min_syllables + 1);
  for (std::uint32_t i = 0; i < n; ++i) w += kSyllables[rng.below(24)];
  w[0] = static_cast<char>(w[0] - 'a' + 'A');
  return w;
}

struct Tables {
  std::vector<std::string> places;  // by popularity rank
  ZipfTable place_zipf;
};

Tables build_tables(std::uint64_t size_bytes, std::uint64_t seed) {
  Rng rng(mix_seed(seed, 0x6e0a27));
  static constexpr const char* kCountryEndings[] = {"ia", "land", "stan", "a", "", "ovia"};
  static constexpr const char* kTownPrefixes[] = {"Nova ",  "San ",   "Port ", "Upper ",
                                                  "Lower ", "Saint ", "Fort ", "Bad "};
  struct Country {
    std::string name;
    std::vector<std::string> regions;
  };
  std::vector<Country> countries(kCountries);
  for (Country& c : countries) {
    c.name = pseudo_word(rng, 2, 3);
    c.name += kCountryEndings[rng.below(6)];
    for (std::uint32_t r = 0, n = 3 + rng.below(18); r < n; ++r)
      c.regions.push_back(pseudo_word(rng, 2, 3));
  }
  const ZipfTable country_zipf(kCountries, 1.0);  // popular countries have more towns
  Tables t;
  const std::uint32_t places = geo_articles_places(size_bytes);
  std::unordered_set<std::string> seen;
  while (t.places.size() < places) {
    const Country& c = countries[country_zipf.sample(rng)];
    // One draw per statement: the order of draws must not be the compiler's.
    std::string place = rng.below(6) == 0 ? kTownPrefixes[rng.below(8)] : "";
    place += pseudo_word(rng, 2, 4);
    place += ", ";
    place += c.regions[rng.below(static_cast<std::uint32_t>(c.regions.size()))];
    place += ", " + c.name;
    if (seen.insert(place).second) t.places.push_back(std::move(place));
  }
  t.place_zipf = ZipfTable(places, kGeoPlaceOffset);
  return t;
}

// "YYYY-MM-DDTHH:MM:SSZ" of `seconds` after 2001-01-15T00:00:00Z (Howard
// Hinnant's civil_from_days).
void append_timestamp(std::uint64_t seconds, std::string& out) {
  const std::int64_t z = kStartDay + static_cast<std::int64_t>(seconds / 86400) + 719468;
  const std::int64_t era = z / 146097;  // z >= 0
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t year = yoe + era * 400 + (month <= 2);
  const std::uint64_t s = seconds % 86400;
  fmt::format_to(std::back_inserter(out), "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", year, month, day,
                 s / 3600, s / 60 % 60, s % 60);
}

// The article line that starts at `offset` in the file, without its '\n'.
void make_line(const Tables& t, Rng& rng, std::uint64_t offset, std::string& line) {
  line.clear();
  fmt::format_to(std::back_inserter(line), "{}\t", kGeoFirstArticleId + offset / kBytesPerId);
  for (std::uint32_t w = 0, words = 1 + rng.below(4); w < words; ++w) {
    if (w) line += ' ';
    line += pseudo_word(rng, 1, 4);
  }
  line += '\t';
  line += t.places[t.place_zipf.sample(rng)];
  line += '\t';
  append_timestamp(offset / kBytesPerSecond, line);
  fmt::format_to(std::back_inserter(line), "\t{}\t", 150 + rng.below(40000));
  line += pseudo_word(rng, 2, 3);
  fmt::format_to(std::back_inserter(line), "{}", rng.below(1000));
  if (line.size() + 1 > kMaxLine) throw std::logic_error("geo-articles: a line over kMaxLine");
}

void make_chunk(const Tables& t, std::uint64_t seed, std::uint64_t index, std::size_t size,
                std::string& out) {
  Rng rng(mix_seed(seed, index));
  out.clear();
  out.reserve(size);
  std::string line;
  for (;;) {
    make_line(t, rng, index * kChunkBytes + out.size(), line);
    const std::size_t left = size - out.size();
    if (left >= line.size() + 1 + kMaxLine) {  // room for this line and a whole last one
      out += line;
      out += '\n';
    } else if (left >= line.size() + 1) {  // the last line: its contributor padded
      out += line;
      out.append(left - line.size() - 1, 'x');
      out += '\n';
      return;
    } else {  // a chunk smaller than one line
      out.append(left, '\n');
      return;
    }
  }
}

class GeoArticles final : public Generator {
 public:
  std::string name() const override { return "geo-articles"; }
  std::string description() const override {
    return "Wikipedia-like article lines id<TAB>title<TAB>location<TAB>timestamp<TAB>bytes<TAB>"
           "contributor, Zipf-popular 'Town, Region, Country' locations";
  }
  int version() const override { return 1; }
  std::string extension() const override { return "tsv"; }
  void generate(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out) const override {
    if (kGeoFirstArticleId + size_bytes / kBytesPerId > 0xFFFF'FFFFu)
      throw UsageError("geo-articles: article ids past 2^32 - 1; ask for at most 137GB");
    const Tables t = build_tables(size_bytes, seed);
    write_chunks("geo-articles", size_bytes, kChunkBytes, 0, out,
                 [&](std::uint64_t index, std::size_t size, std::string& buffer) {
                   make_chunk(t, seed, index, size, buffer);
                 });
  }
};

}  // namespace

std::uint32_t geo_articles_places(std::uint64_t size_bytes) {
  const std::uint64_t kib = size_bytes / 1024;
  std::uint64_t root = 0;  // floor(sqrt(kib)), without libm
  while ((root + 1) * (root + 1) <= kib) ++root;
  return static_cast<std::uint32_t>(1000 + 50 * root);
}

const Generator& geo_articles_generator() {
  static const GeoArticles g;
  return g;
}

std::vector<std::string> geo_articles_locations(std::uint64_t size_bytes, std::uint64_t seed) {
  return build_tables(size_bytes, seed).places;
}

}  // namespace harness::datasets
