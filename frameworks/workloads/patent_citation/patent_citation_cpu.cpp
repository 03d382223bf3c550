// Patent Citation on host threads (group_by_key.h): each thread sends the
// records of its own range to their cited patent's partition, the key being
// the cited number's eight bytes of text as one 64-bit word (no parsing, one
// compare), the value the citing number parsed eight digits at once; then
// the partitions are grouped in parallel.
#include "frameworks/workloads/patent_citation/patent_citation_cpu.h"

#include <bit>
#include <string_view>

#include "frameworks/workloads/group_by_key.h"
#include "frameworks/workloads/patent_citation/patent_citation_format.h"
#include "harness/core/cuts.h"

namespace harness::workloads::patent_citation {
namespace {

// A cited patent: its number's 8 digits as they lie in memory. Millions of
// distinct patents are cited: records carry their key to the merge rather
// than look it up in a thread-local table that would not fit in the cache.
struct CitedKeys {
  using Key = std::uint64_t;
  static constexpr bool kThreadLocalTable = false;
  std::uint64_t hash(Key k) const { return group_by_key::mix64(k); }
  bool equal(Key a, Key b) const { return a == b; }
  std::string_view text(const Key& k) const {
    return {reinterpret_cast<const char*>(&k), kIdDigits};
  }
};

// Eight ASCII digits in one word (little-endian: the first digit in the low
// byte): adjacent digits, then pairs, then quads combined by multiplies.
std::uint32_t parse_eight_digits(const std::uint8_t* digits) {
  if constexpr (std::endian::native == std::endian::little) {
    std::uint64_t v = group_by_key::load64(digits) & 0x0F0F0F0F0F0F0F0FULL;
    v = (v * (1 + (10 << 8))) >> 8;  // 2-digit numbers in bytes 0, 2, 4, 6
    v = ((v & 0x00FF00FF00FF00FFULL) * (1 + (100 << 16))) >> 16;  // 4-digit in 0, 4
    return static_cast<std::uint32_t>(((v & 0x0000FFFF0000FFFFULL) * (1 + (10000ULL << 32))) >> 32);
  } else {
    return id_value(digits);
  }
}

}  // namespace

std::unique_ptr<Output> group_citations(const std::uint8_t* data, std::size_t size,
                                        unsigned threads) {
  const std::size_t records = size / kRecordBytes;
  const auto cuts = even_cuts(records, threads);
  const CitedKeys keys;
  return group_by_key::group_in_parallel(
      keys, threads, records, [&](unsigned t, group_by_key::ThreadGroups<CitedKeys>& groups) {
        for (std::size_t r = cuts[t]; r < cuts[t + 1]; ++r) {
          const std::uint8_t* record = data + r * kRecordBytes;
          groups.add(group_by_key::load64(record + kCitedAt),
                     parse_eight_digits(record + kCitingAt));
        }
      });
}

}  // namespace harness::workloads::patent_citation
