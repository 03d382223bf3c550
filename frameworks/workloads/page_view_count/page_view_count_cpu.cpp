// Page View Count on host threads: each thread counts the URLs of its own
// whole lines (line_cuts) in a thread-local table, the tables merged by
// partitions of the URLs' hashes (group_by_key::count_in_parallel). A line is
// memchr'd to its newline, then to its first TAB; the key is the URL's bytes
// where they lie in the input, hashed once.
#include "frameworks/workloads/page_view_count/page_view_count_cpu.h"

#include <cstring>

#include "frameworks/workloads/group_by_key.h"
#include "harness/core/cuts.h"

namespace harness::workloads::page_view_count {
namespace {

// A URL: its bytes in the input (the weblog's Zipf-visited URLs: a thread's
// table stays small).
using UrlKeys = group_by_key::InputBytesKeys;

const std::uint8_t* find(const std::uint8_t* from, const std::uint8_t* end, std::uint8_t byte) {
  return static_cast<const std::uint8_t*>(std::memchr(from, byte, end - from));
}

// The page views of the whole lines of [begin, end). A '\r' ending a line is
// no TAB, so the first TAB of the line is the entry's.
void count_lines(const std::uint8_t* begin, const std::uint8_t* end,
                 group_by_key::KeyCounts<UrlKeys>& counts) {
  for (const std::uint8_t* line = begin; line < end;) {
    const std::uint8_t* newline = find(line, end, '\n');
    const std::uint8_t* line_end = newline ? newline : end;
    const std::uint8_t* tab = find(line, line_end, '\t');
    if (tab && tab > line) counts.add(UrlKeys::key(line, tab));
    line = newline ? newline + 1 : end;
  }
}

}  // namespace

std::unique_ptr<Output> count_page_views(const std::uint8_t* data, std::size_t size,
                                         unsigned threads) {
  const auto cuts = line_cuts(data, size, threads);
  return group_by_key::count_in_parallel(UrlKeys{}, threads,
                                         [&](unsigned t, group_by_key::KeyCounts<UrlKeys>& counts) {
                                           count_lines(data + cuts[t], data + cuts[t + 1], counts);
                                         });
}

}  // namespace harness::workloads::page_view_count
