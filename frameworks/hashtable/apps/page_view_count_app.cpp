// page-view-count on the SePo table (combining) and MapCG: record = a
// page-view line (the index holds only those), pair = (its URL, 1), added
// (apps/page_view_count.clh); the answer is walked by CountingApp.
#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "frameworks/hashtable/apps/counting_app.h"
#include "frameworks/workloads/page_view_count/page_view_count_format.h"
#include "harness/core/errors.h"
#include "harness/core/line_pieces.h"

namespace harness::hashtable {
namespace {

namespace pvc = workloads::page_view_count;

// apps/page_view_count.clh's HT_KEY_WORDS x 4.
constexpr std::uint32_t kMaxUrlBytes = 256;

class PageViewCountApp final : public CountingApp {
 public:
  std::string name() const override { return "page-view-count"; }
  std::string kernel_file() const override {
    return "frameworks/hashtable/apps/page_view_count.clh";
  }
  RecordShape shape(const std::uint8_t* data, std::size_t size) const override {
    RecordShape s;
    s.value_bytes = 4;
    pvc::for_each_page_view(data, size, [&](std::string_view url) {
      ++s.records;
      const auto bytes = static_cast<std::uint32_t>(std::min<std::size_t>(url.size(), 1u << 30));
      if (bytes > kMaxUrlBytes)
        throw RunError(fmt::format(
            "hashtable: page-view-count's page view at byte {} has a URL of {} bytes; the "
            "table's kernel takes URLs of at most {} bytes",
            url.data() - reinterpret_cast<const char*>(data), bytes, kMaxUrlBytes));
      s.max_key_bytes = std::max(s.max_key_bytes, bytes);
      s.key_bytes_total += bytes;
    });
    if (s.records == 0) s.max_key_bytes = 4;  // no entry is made; sizes stay meaningful
    return s;
  }
  bool indexed() const override { return true; }
  // The first byte of every page view (its URL's): lines that are no page
  // views make no record. Pieces of whole lines on every host core, joined in
  // order (serially, 256 MiB took 105 of the run's 147 ms on an H100's host).
  void index(const std::uint8_t* data, std::size_t size,
             std::vector<std::uint64_t>& out) const override {
    out.clear();
    append_over_line_pieces(
        data, size,
        [&](std::size_t begin, std::size_t end, std::vector<std::uint64_t>& part) {
          pvc::for_each_page_view(data + begin, end - begin, [&](std::string_view url) {
            part.push_back(
                static_cast<std::uint64_t>(url.data() - reinterpret_cast<const char*>(data)));
          });
        },
        out);
  }
};

}  // namespace

const SepoApp& page_view_count_app() {
  static const PageViewCountApp app;
  return app;
}

}  // namespace harness::hashtable
