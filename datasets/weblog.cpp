#include "datasets/weblog.h"

#include <fmt/format.h>

#include <array>

#include "datasets/chunked.h"
#include "datasets/random.h"
#include "datasets/zipf_table.h"

namespace harness::datasets {
namespace {

constexpr std::uint64_t kChunkBytes = std::uint64_t{4} << 20;
constexpr std::size_t kFillLine = 300;  // a chunk's last line is padded from here

std::string pseudo_word(Rng& rng) {
  static constexpr const char* kSyllables[] = {"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi",
                                               "de", "po", "an", "el", "or", "un", "is", "ba"};
  std::string w;
  const std::uint32_t n = 1 + rng.below(3);
  for (std::uint32_t i = 0; i < n; ++i) w += kSyllables[rng.below(16)];
  return w;
}

struct Tables {
  std::vector<std::string> urls;      // by popularity rank
  std::vector<std::string> visitors;  // "IP\tcookie" by activity rank
  ZipfTable url_zipf{kWeblogUrls, kWeblogUrlOffset};
  ZipfTable visitor_zipf{kWeblogVisitors, 10.0};
};

Tables build_tables(std::uint64_t seed) {
  Tables t;
  Rng rng(mix_seed(seed, 0x77eb1067));
  std::vector<std::string> hosts;
  for (int h = 0; h < 200; ++h)
    hosts.push_back("www." + pseudo_word(rng) + std::to_string(h) + ".com");
  t.urls.reserve(kWeblogUrls);
  for (std::uint32_t u = 0; u < kWeblogUrls; ++u) {
    std::string url = "http://" + hosts[rng.below(200)];
    const std::uint32_t depth = 1 + rng.below(3);
    for (std::uint32_t d = 0; d < depth; ++d) url += "/" + pseudo_word(rng);
    url += fmt::format("{}.html", u);  // the rank makes every URL distinct
    t.urls.push_back(std::move(url));
  }
  t.visitors.reserve(kWeblogVisitors);
  for (std::uint32_t v = 0; v < kWeblogVisitors; ++v) {
    const std::uint64_t bits = rng.next();
    t.visitors.push_back(fmt::format("{}.{}.{}.{}\t{:016x}", 1 + (bits >> 56) % 223,
                                     (bits >> 48) & 0xff, (bits >> 40) & 0xff, (bits >> 32) & 0xff,
                                     rng.next()));
  }
  return t;
}

void make_chunk(const Tables& t, std::uint64_t seed, std::uint64_t index, std::size_t size,
                std::string& out) {
  Rng rng(mix_seed(seed, index));
  out.clear();
  out.reserve(size);
  std::array<std::string, 32> recent;
  std::size_t lines = 0;
  auto entry = [&] {
    if (lines > 0 && rng.below(4) == 0)
      return recent[rng.below(
          static_cast<std::uint32_t>(lines < recent.size() ? lines : recent.size()))];
    return t.urls[t.url_zipf.sample(rng)] + '\t' + t.visitors[t.visitor_zipf.sample(rng)];
  };
  while (true) {
    std::string line = entry();
    if (size - out.size() < line.size() + 1 + kFillLine) {
      // The last line: its cookie grows to end the chunk exactly.
      const std::size_t left = size - out.size();
      if (left < line.size() + 1) {
        out.append(left, 'x');
        if (left > 0) out.back() = '\n';
      } else {
        out += line;
        out.append(left - line.size() - 1, 'f');
        out += '\n';
      }
      return;
    }
    recent[lines % recent.size()] = line;
    ++lines;
    out += line;
    out += '\n';
  }
}

class Weblog final : public Generator {
 public:
  std::string name() const override { return "weblog"; }
  std::string description() const override {
    return "web access log (URL<TAB>IP<TAB>cookie lines), Zipf page popularity, repeated "
           "entries";
  }
  int version() const override { return 1; }
  std::string extension() const override { return "tsv"; }
  void generate(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out) const override {
    const Tables t = build_tables(seed);
    write_chunks("weblog", size_bytes, kChunkBytes, 0, out,
                 [&](std::uint64_t index, std::size_t size, std::string& buffer) {
                   make_chunk(t, seed, index, size, buffer);
                 });
  }
};

}  // namespace

const Generator& weblog_generator() {
  static const Weblog g;
  return g;
}

std::vector<std::string> weblog_urls(std::uint64_t seed) { return build_tables(seed).urls; }

}  // namespace harness::datasets
