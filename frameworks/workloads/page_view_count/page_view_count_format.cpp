#include "frameworks/workloads/page_view_count/page_view_count_format.h"

namespace harness::workloads::page_view_count {

void for_each_page_view(const std::uint8_t* data, std::size_t size,
                        const std::function<void(std::string_view url)>& fn) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (std::size_t start = 0; start < size;) {
    const std::size_t newline = text.find('\n', start);
    const std::size_t end = newline == std::string_view::npos ? size : newline;
    std::string_view entry = text.substr(start, end - start);
    if (!entry.empty() && entry.back() == '\r') entry.remove_suffix(1);
    start = end + 1;
    const std::string_view url = url_of(entry);
    if (!url.empty()) fn(url);
  }
}

}  // namespace harness::workloads::page_view_count
