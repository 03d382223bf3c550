// Inverted Index's input: HTML pages concatenated in one file, read by the
// page and link rules of html_links.h (the MapReduce invertedindex's). Any
// bytes are HTML; the one input refused is one with a link holding a TAB: the
// answer's keys (TableOutput) cannot hold one (no link holds a newline: lines
// are read on their own).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace harness::workloads::inverted_index {

inline constexpr const char* kApp = "inverted-index";

// Calls fn(link, page) for every link occurrence of data[0, size) in input
// order, page being the byte offset of the start of the link's page; throws
// RunError naming the first link that holds a TAB (the 1-based number and the
// byte offset of its line, the link escaped).
void for_each_link(const std::uint8_t* data, std::size_t size,
                   const std::function<void(std::string_view link, std::uint64_t page)>& fn);

}  // namespace harness::workloads::inverted_index
