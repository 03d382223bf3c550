#include "datasets/strops.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "datasets/random.h"

namespace harness::datasets {
namespace {

constexpr std::uint64_t kChunkRecords = 16384;

unsigned char letter(Rng& rng) { return static_cast<unsigned char>('a' + rng.below(26)); }

// One record (see strops.h); `r` holds kStropsRecordBytes zero bytes.
void make_record(Rng& rng, unsigned char* r) {
  unsigned char* a = r;
  const std::uint32_t la = 1 + rng.below(31);
  for (std::uint32_t i = 0; i < la; ++i) a[i] = letter(rng);

  unsigned char* b = r + kStropsStringField;
  const std::uint32_t kind = rng.below(4);
  if (kind == 0) {  // equal
    std::memcpy(b, a, la);
  } else if (kind == 3) {  // independent
    const std::uint32_t lb = 1 + rng.below(31);
    for (std::uint32_t i = 0; i < lb; ++i) b[i] = letter(rng);
  } else {  // a common prefix of length p, then (when p < lb) a different letter
    const std::uint32_t lb = 1 + rng.below(31);
    const std::uint32_t p = rng.below(std::min(lb, la) + 1);
    std::memcpy(b, a, p);
    for (std::uint32_t i = p; i < lb; ++i) b[i] = letter(rng);
    if (p < lb && p < la)
      b[p] = static_cast<unsigned char>('a' + (a[p] - 'a' + 1 + rng.below(25)) % 26);
  }

  unsigned char* n = r + kStropsNeedleOffset;
  const std::uint32_t ln = 1 + rng.below(8);
  if (rng.below(2) == 0) {  // a substring of A
    const std::uint32_t m = std::min(ln, la);
    const std::uint32_t off = rng.below(la - m + 1);
    std::memcpy(n, a + off, m);
  } else {
    for (std::uint32_t i = 0; i < ln; ++i) n[i] = letter(rng);
  }

  unsigned char& c = r[kStropsCharOffset];
  if (rng.below(2) == 0) {
    c = a[rng.below(la)];
  } else {  // a letter A does not contain (A's first letter if it has all 26)
    bool present[26] = {};
    for (std::uint32_t i = 0; i < la; ++i) present[a[i] - 'a'] = true;
    std::uint32_t absent = 0;
    for (bool p : present) absent += p ? 0 : 1;
    c = a[0];
    if (absent > 0) {
      std::uint32_t k = rng.below(absent);
      for (std::uint32_t l = 0; l < 26; ++l) {
        if (present[l]) continue;
        if (k-- == 0) {
          c = static_cast<unsigned char>('a' + l);
          break;
        }
      }
    }
  }
}

class Strops final : public Generator {
 public:
  std::string name() const override { return "strops"; }
  std::string description() const override {
    return "string operations for the Mars string library: 80-byte records (two strings of "
           "1..31 letters, a needle, a byte)";
  }
  int version() const override { return 1; }
  std::string extension() const override { return "strops"; }
  void generate(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out) const override {
    constexpr std::uint64_t kChunkBytes = kChunkRecords * kStropsRecordBytes;
    std::vector<unsigned char> chunk(kChunkBytes);
    for (std::uint64_t c = 0; c * kChunkBytes < size_bytes && out; ++c) {
      Rng rng(mix_seed(seed, c));
      std::fill(chunk.begin(), chunk.end(), 0);
      const std::uint64_t left = size_bytes - c * kChunkBytes;
      const std::uint64_t bytes = left < kChunkBytes ? left : kChunkBytes;
      const std::uint64_t records = (bytes + kStropsRecordBytes - 1) / kStropsRecordBytes;
      for (std::uint64_t i = 0; i < records; ++i)
        make_record(rng, chunk.data() + i * kStropsRecordBytes);
      out.write(reinterpret_cast<const char*>(chunk.data()), static_cast<std::streamsize>(bytes));
    }
  }
};

}  // namespace

const Generator& strops_generator() {
  static const Strops g;
  return g;
}

}  // namespace harness::datasets
