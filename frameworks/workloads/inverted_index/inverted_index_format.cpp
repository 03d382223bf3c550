#include "frameworks/workloads/inverted_index/inverted_index_format.h"

#include <fmt/format.h>

#include <string>

#include "frameworks/workloads/inverted_index/html_links.h"
#include "harness/core/errors.h"
#include "harness/core/validation.h"

namespace harness::workloads::inverted_index {

void for_each_link(const std::uint8_t* data, std::size_t size,
                   const std::function<void(std::string_view link, std::uint64_t page)>& fn) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::uint64_t page = 0;
  std::size_t number = 0;
  for (std::size_t start = 0; start < size;) {
    const std::size_t newline = text.find('\n', start);
    const std::size_t end = newline == std::string_view::npos ? size : newline;
    const std::string_view line = text.substr(start, end - start);
    ++number;
    if (starts_page(line)) page = start;
    LineLinks(line).each([&](std::string_view link) {
      if (link.find('\t') != std::string_view::npos)
        throw RunError(fmt::format(
            "{}: line {} at byte {}: the link '{}' holds a tab, which the answer's keys cannot "
            "hold",
            kApp, number, start, escape_bytes(std::string(link))));
      fn(link, page);
    });
    start = end + 1;
  }
}

}  // namespace harness::workloads::inverted_index
