// Inverted Index on host threads, in two passes over pieces of whole lines
// (line_cuts), one piece per thread:
//  1. the page starts: each thread finds those of its piece (page_starts,
//     html_links.h: memchr to every '!'), concatenated in order, so a
//     page has a number (its index) and a piece knows the page it starts in;
//  2. the links (group_by_key.h): each thread memchr's to the next '<', then
//     to the end of its line, and reads the line's links from that '<'
//     (LineLinks); lines without a '<' are passed over by memchr alone. A
//     link's key is its bytes where they lie in the input, hashed once; its
//     value the number of its page (page numbers fit the grouping's 32-bit
//     values; byte offsets may not), mapped to the page's byte offset when
//     the answer is made (finish(), untimed).
#include "frameworks/workloads/inverted_index/inverted_index_cpu.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "frameworks/workloads/group_by_key.h"
#include "frameworks/workloads/inverted_index/html_links.h"
#include "harness/core/cuts.h"
#include "harness/core/parallel.h"

namespace harness::workloads::inverted_index {
namespace {

using PageStarts = std::vector<std::uint64_t>;

// A link: its bytes in the input (html-zipf's links are Zipf-drawn from 50,000
// URLs: a thread's table stays small); a value is a page number.
struct LinkKeys : group_by_key::InputBytesKeys {
  std::shared_ptr<const PageStarts> page_starts;  // ascending, the first 0
  std::int64_t value(std::uint32_t page) const {
    return static_cast<std::int64_t>((*page_starts)[page]);
  }
};

const std::uint8_t* find(const std::uint8_t* from, const std::uint8_t* end, std::uint8_t byte) {
  return static_cast<const std::uint8_t*>(std::memchr(from, byte, end - from));
}

// The links of the whole lines of data[begin, end), each with the number of
// its page.
void scan_lines(const std::uint8_t* data, std::size_t begin, std::size_t end,
                const PageStarts& starts, group_by_key::ThreadGroups<LinkKeys>& groups) {
  // The page of byte `begin`: the last start at or before it (the loop below
  // would walk there from page 0 too; the search skips the pages before).
  std::size_t page = static_cast<std::size_t>(
      std::upper_bound(starts.begin(), starts.end(), begin) - starts.begin() - 1);
  const std::uint8_t* const stop = data + end;
  for (const std::uint8_t* at = data + begin; at < stop;) {
    const std::uint8_t* lt = find(at, stop, '<');
    if (!lt) break;
    const std::uint8_t* newline = find(lt, stop, '\n');
    const std::uint8_t* line_end = newline ? newline : stop;
    // Page starts are line starts: the last one at or before the '<' is its
    // line's.
    const auto offset = static_cast<std::uint64_t>(lt - data);
    while (page + 1 < starts.size() && starts[page + 1] <= offset) ++page;
    const std::string_view line(reinterpret_cast<const char*>(lt),
                                static_cast<std::size_t>(line_end - lt));
    LineLinks(line).each([&](std::string_view link) {
      const auto* bytes = reinterpret_cast<const std::uint8_t*>(link.data());
      groups.add(LinkKeys::key(bytes, bytes + link.size()), static_cast<std::uint32_t>(page));
    });
    at = newline ? newline + 1 : stop;
  }
}

// Sizes the grouping's partitions: html-zipf has about one link per 150
// bytes; fewer bytes err toward more partitions.
constexpr std::size_t kBytesPerLinkGuess = 128;

}  // namespace

std::unique_ptr<Output> index_links(const std::uint8_t* data, std::size_t size, unsigned threads) {
  const auto cuts = line_cuts(data, size, threads);
  LinkKeys keys;
  keys.page_starts =
      std::make_shared<const PageStarts>(page_starts<std::uint64_t>(data, size, threads));
  const PageStarts& starts = *keys.page_starts;
  return group_by_key::group_in_parallel(
      keys, threads, size / kBytesPerLinkGuess,
      [&](unsigned t, group_by_key::ThreadGroups<LinkKeys>& groups) {
        scan_lines(data, cuts[t], cuts[t + 1], starts, groups);
      });
}

}  // namespace harness::workloads::inverted_index
