// Geo Location's input: one article per line, fields separated by tabs:
//   article_id<TAB>title<TAB>location<TAB>timestamp[<TAB>more fields...]\n
// The article id is decimal digits (leading zeros allowed) with a value
// below 2^32; the location is any non-empty bytes without a tab (the key,
// compared as bytes); the title and the fields from the timestamp on are not
// looked at.
// A '\r' ending a line is stripped; empty lines are skipped; a last line
// without '\n' counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace harness::workloads::geo_location {

inline constexpr unsigned kMinFields = 4;  // id, title, location, timestamp
inline constexpr std::uint64_t kMaxArticleId = 0xFFFF'FFFF;

// A non-empty line of the input, parsed.
struct ArticleLine {
  std::size_t number = 0;  // 1-based, empty lines counted
  std::size_t offset = 0;  // of the line's first byte
  std::size_t length = 0;  // without its '\n' and stripped '\r'
  std::uint32_t id = 0;
  std::string_view location;  // into the input
};

// Calls `fn` for every non-empty line in order; throws RunError naming the
// first malformed line (its number and byte offset): fewer than kMinFields
// fields, an article id that is empty, holds a non-digit or is 2^32 or
// more, an empty location.
void for_each_article(const std::uint8_t* data, std::size_t size,
                      const std::function<void(const ArticleLine&)>& fn);

}  // namespace harness::workloads::geo_location
