#include "frameworks/mapreduce/apps/weblog.h"

namespace harness::apps {

std::unordered_set<std::string_view> distinct_entries(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::unordered_set<std::string_view> entries;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    const std::size_t next = nl == std::string_view::npos ? text.size() : nl + 1;
    std::size_t stop = nl == std::string_view::npos ? text.size() : nl;
    if (stop > start && text[stop - 1] == '\r') --stop;
    if (stop > start) entries.insert(text.substr(start, stop - start));
    start = next;
  }
  return entries;
}

std::unordered_map<std::string, std::uint32_t> page_views(const std::uint8_t* data,
                                                          std::size_t size) {
  std::unordered_map<std::string, std::uint32_t> views;
  for (std::string_view entry : distinct_entries(data, size)) {
    const std::size_t tab = entry.find('\t');
    if (tab == std::string_view::npos || tab == 0) continue;
    ++views[std::string(entry.substr(0, tab))];
  }
  return views;
}

std::string keys_as_lines(const std::vector<std::pair<std::string, std::string>>& output) {
  std::size_t bytes = 0;
  for (const auto& kv : output) bytes += kv.first.size() + 1;
  std::string out;
  out.reserve(bytes);
  for (const auto& kv : output) {
    out += kv.first;
    out += '\n';
  }
  return out;
}

}  // namespace harness::apps
