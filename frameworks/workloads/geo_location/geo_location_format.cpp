#include "frameworks/workloads/geo_location/geo_location_format.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "harness/core/errors.h"

namespace harness::workloads::geo_location {
namespace {

[[noreturn]] void malformed(const ArticleLine& line, const std::string& what) {
  throw RunError(
      fmt::format("geo-location: line {} at byte {}: {}", line.number, line.offset, what));
}

// The fields of a line (without its '\n' and '\r').
std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string_view::npos ? tab : tab - start));
    if (tab == std::string_view::npos) return fields;
    start = tab + 1;
  }
}

std::uint32_t article_id(const ArticleLine& line, std::string_view text) {
  if (text.empty()) malformed(line, "the article id is empty");
  std::uint64_t id = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      malformed(line, fmt::format("the article id '{}' is not a decimal number", text));
    id = id * 10 + static_cast<std::uint64_t>(c - '0');
    if (id > kMaxArticleId)
      malformed(line, fmt::format("the article id '{}' is {} or more", text, kMaxArticleId + 1));
  }
  return static_cast<std::uint32_t>(id);
}

}  // namespace

void for_each_article(const std::uint8_t* data, std::size_t size,
                      const std::function<void(const ArticleLine&)>& fn) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ArticleLine line;
  for (std::size_t start = 0; start < size;) {
    const std::size_t newline = text.find('\n', start);
    const std::size_t end = newline == std::string_view::npos ? size : newline;
    std::string_view content = text.substr(start, end - start);
    if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
    ++line.number;
    line.offset = start;
    line.length = content.size();
    start = end + 1;
    if (content.empty()) continue;
    const std::vector<std::string_view> fields = split_fields(content);
    if (fields.size() < kMinFields)
      malformed(line, fmt::format("{} field{}, expected at least {} (article id, title, location, "
                                  "timestamp) separated by tabs",
                                  fields.size(), fields.size() == 1 ? "" : "s", kMinFields));
    line.id = article_id(line, fields[0]);
    line.location = fields[2];
    if (line.location.empty()) malformed(line, "the location is empty");
    fn(line);
  }
}

}  // namespace harness::workloads::geo_location
