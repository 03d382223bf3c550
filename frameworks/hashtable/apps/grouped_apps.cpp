// The MAP_GROUP apps on the SePo table: patent-citation (key = the cited
// patent's 8 digits, value = the citing patent's number) and geo-location
// (key = the location's bytes, value = the article id). The walk
// (id_lists.h) groups equal keys into the workloads' answer: key, count,
// values.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#include "frameworks/hashtable/apps/id_lists.h"
#include "frameworks/workloads/geo_location/geo_location_format.h"
#include "frameworks/workloads/group_by_key.h"
#include "frameworks/workloads/patent_citation/patent_citation_format.h"
#include "harness/core/errors.h"
#include "harness/core/line_pieces.h"

namespace harness::hashtable {
namespace {

// A row per key: the number of its values and the list of their first
// words (the workloads' `key<TAB>count<TAB>ids` answer), left as the CPU-MT
// baseline leaves it (apps/id_lists.h).
class IdListApp : public SepoApp {
 public:
  std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> heads, Organization org,
                                             std::uint64_t& entries) const override {
    // The key's bytes where they lie in the host arena (they stay there
    // until the next run, after this run's answer is checked).
    return collect_id_lists(
        heads, org, entries, workloads::group_by_key::InputBytesKeys{}, [](const HostEntry& e) {
          const auto* bytes = reinterpret_cast<const std::uint8_t*>(e.key);
          return workloads::group_by_key::InputBytesKeys::Key{bytes, 0, e.key_bytes};
        });
  }
};

class PatentCitationApp final : public IdListApp {
 public:
  std::string name() const override { return "patent-citation"; }
  std::string kernel_file() const override {
    return "frameworks/hashtable/apps/patent_citation.clh";
  }
  RecordShape shape(const std::uint8_t*, std::size_t size) const override {
    return {size / workloads::patent_citation::kRecordBytes,
            static_cast<std::uint32_t>(workloads::patent_citation::kIdDigits), 4};
  }
};

// apps/geo_location.clh's HT_KEY_WORDS.
constexpr std::uint32_t kMaxLocationBytes = 256;

class GeoLocationApp final : public IdListApp {
 public:
  std::string name() const override { return "geo-location"; }
  std::string kernel_file() const override { return "frameworks/hashtable/apps/geo_location.clh"; }
  RecordShape shape(const std::uint8_t* data, std::size_t size) const override {
    RecordShape s;
    s.value_bytes = 4;
    workloads::geo_location::for_each_article(
        data, size, [&s](const workloads::geo_location::ArticleLine& line) {
          ++s.records;
          const auto bytes = static_cast<std::uint32_t>(line.location.size());
          if (bytes > kMaxLocationBytes)
            throw RunError(fmt::format(
                "hashtable: geo-location line {} (byte {}) has a location of {} bytes; the "
                "table's kernel takes locations of at most {} bytes",
                line.number, line.offset, bytes, kMaxLocationBytes));
          s.max_key_bytes = std::max(s.max_key_bytes, bytes);
          s.key_bytes_total += bytes;
        });
    return s;
  }
  bool indexed() const override { return true; }
  DeviceLines device_lines() const override { return DeviceLines::non_empty_lines; }
  // The offset of every non-empty line (the input is checked: each has its
  // id, title and location fields, each ended by a tab), found on every core.
  void index(const std::uint8_t* data, std::size_t size,
             std::vector<std::uint64_t>& out) const override {
    out.clear();
    append_over_line_pieces(
        data, size,
        [data](std::size_t begin, std::size_t stop, std::vector<std::uint64_t>& part) {
          for (std::size_t at = begin; at < stop;) {
            const auto* nl =
                static_cast<const std::uint8_t*>(std::memchr(data + at, '\n', stop - at));
            const std::size_t end = nl ? static_cast<std::size_t>(nl - data) : stop;
            std::size_t len = end - at;
            if (len && data[at + len - 1] == '\r') --len;
            if (len) part.push_back(at);
            at = end + 1;
          }
        },
        out);
  }
};

}  // namespace

const SepoApp& patent_citation_app() {
  static const PatentCitationApp app;
  return app;
}
const SepoApp& geo_location_app() {
  static const GeoLocationApp app;
  return app;
}

}  // namespace harness::hashtable
