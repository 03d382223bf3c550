// Geo Location on host threads: each thread groups the articles of its own
// whole lines (line_cuts, group_by_key.h). A line is read once, front to
// back: the id's digits, memchr to the title's and the location's ending
// tabs, memchr to the newline; the key is the location's bytes where they lie
// in the input, hashed once.
#include "frameworks/workloads/geo_location/geo_location_cpu.h"

#include <cstring>
#include <string_view>

#include "frameworks/workloads/geo_location/geo_location_format.h"
#include "frameworks/workloads/group_by_key.h"
#include "harness/core/cuts.h"

namespace harness::workloads::geo_location {
namespace {

// A location: its bytes in the input (a few thousand places take most
// articles, so a thread-local table stays in the cache).
using LocationKeys = group_by_key::InputBytesKeys;

const std::uint8_t* find(const std::uint8_t* from, const std::uint8_t* end, std::uint8_t byte) {
  return static_cast<const std::uint8_t*>(std::memchr(from, byte, end - from));
}

// The lines of [begin, end), whole lines; lines without an id (empty ones)
// are skipped.
void scan_lines(const std::uint8_t* begin, const std::uint8_t* end,
                group_by_key::ThreadGroups<LocationKeys>& groups) {
  for (const std::uint8_t* line = begin; line < end;) {
    const std::uint8_t* at = line;
    std::uint32_t id = 0;  // below 2^32, so no prefix of its digits overflows
    for (; at < end && static_cast<std::uint8_t>(*at - '0') < 10; ++at) id = id * 10 + (*at - '0');
    if (at > line && at < end && *at == '\t') {
      const std::uint8_t* title_end = find(at + 1, end, '\t');
      const std::uint8_t* location_end = title_end ? find(title_end + 1, end, '\t') : nullptr;
      if (location_end) {
        groups.add(LocationKeys::key(title_end + 1, location_end), id);
        at = location_end;
      }
    }
    const std::uint8_t* newline = find(at, end, '\n');
    line = newline ? newline + 1 : end;
  }
}

// Sizes the grouping's partitions: below the generated lines' 86 bytes on
// average, to err toward more partitions.
constexpr std::size_t kBytesPerLineGuess = 64;

}  // namespace

std::unique_ptr<Output> group_articles(const std::uint8_t* data, std::size_t size,
                                       unsigned threads) {
  const auto cuts = line_cuts(data, size, threads);
  return group_by_key::group_in_parallel(
      LocationKeys{}, threads, size / kBytesPerLineGuess,
      [&](unsigned t, group_by_key::ThreadGroups<LocationKeys>& groups) {
        scan_lines(data + cuts[t], data + cuts[t + 1], groups);
      });
}

}  // namespace harness::workloads::geo_location
