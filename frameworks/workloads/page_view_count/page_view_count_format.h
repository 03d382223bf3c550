// Page View Count's input: a web log, any bytes. An entry is a line without
// its '\n' and without one '\r' right before it (or before the end of the
// input, for a last line without '\n'); empty entries are skipped. An entry
// is a page view when it has a TAB at a position > 0, its URL the bytes
// before its first TAB (the weblog generator's lines: `URL<TAB>IP<TAB>cookie`).
// Every page view counts: identical entries are counted each time (the
// MapReduce pageviewcount, frameworks/mapreduce/apps/weblog.h, counts the
// distinct ones).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace harness::workloads::page_view_count {

inline constexpr const char* kApp = "page-view-count";

// The URL of a line (given with or without its '\r' and '\n': neither is a
// TAB) or of an entry: the bytes before its first TAB; empty when the line has
// no TAB or starts with one (not a page view).
inline std::string_view url_of(std::string_view line) {
  const std::size_t tab = line.find('\t');
  return tab == std::string_view::npos ? std::string_view() : line.substr(0, tab);
}

// Calls fn(url) for every page view of data[0, size), in input order.
void for_each_page_view(const std::uint8_t* data, std::size_t size,
                        const std::function<void(std::string_view url)>& fn);

}  // namespace harness::workloads::page_view_count
