// The MAP_GROUP apps on the SePo table: patent-citation (key = the cited
// patent's 8 digits, value = the citing patent's number) and geo-location
// (key = the location's bytes, value = the article id). Under multi-valued
// a key entry lists its values; under basic every record is its own entry.
// Either way the walk groups equal keys (entries of several iterations, or of
// several records) into the workloads' answer: key, count, values.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#include "frameworks/hashtable/sepo_app.h"
#include "frameworks/workloads/geo_location/geo_location_format.h"
#include "frameworks/workloads/patent_citation/patent_citation_format.h"
#include "harness/core/errors.h"
#include "harness/core/parallel.h"

namespace harness::hashtable {
namespace {

class GroupedApp : public SepoApp {
 public:
  // Each worker walks a range of buckets into its own table: a key's entries
  // (several records' under basic, several iterations' under multi-valued)
  // all lie in its bucket's chain, so a chain sorted by key gives each key's
  // row; the workers' tables are then appended into one.
  std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> heads, Organization org,
                                             std::uint64_t& entries) const override {
    const unsigned workers = workers_for(heads.size(), 0, 16384);
    std::vector<workloads::TableOutput> tables;
    for (unsigned w = 0; w < workers; ++w) tables.emplace_back(1, 0, true);
    entries = walk_buckets_parallel(
        heads, workers,
        [&tables](unsigned w, std::span<const HostEntry> chain) {
          std::vector<const HostEntry*> order;
          for (const HostEntry& e : chain) {
            if (e.count != 0) order.push_back(&e);  // 0: a key entry whose values were postponed
          }
          std::stable_sort(order.begin(), order.end(), [](const HostEntry* a, const HostEntry* b) {
            return key_of(*a) < key_of(*b);
          });
          std::vector<std::int64_t> values;
          for (std::size_t i = 0; i < order.size();) {
            const std::string_view key = key_of(*order[i]);
            values.clear();
            for (; i < order.size() && key_of(*order[i]) == key; ++i)
              for_each_value(*order[i],
                             [&values](const std::uint32_t* v) { values.push_back(v[0]); });
            const auto count = static_cast<std::int64_t>(values.size());
            tables[w].add(key, std::span<const std::int64_t>(&count, 1), {}, values);
          }
        },
        org);
    for (unsigned w = 1; w < workers; ++w) tables[0].append(std::move(tables[w]));
    return std::make_unique<workloads::TableOutput>(std::move(tables[0]));
  }

 private:
  static std::string_view key_of(const HostEntry& e) {
    return std::string_view(reinterpret_cast<const char*>(e.key), e.key_bytes);
  }
};

class PatentCitationApp final : public GroupedApp {
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

class GeoLocationApp final : public GroupedApp {
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
  // The offset of every non-empty line (the input is checked: each has its
  // id, title and location fields, each ended by a tab).
  void index(const std::uint8_t* data, std::size_t size,
             std::vector<std::uint64_t>& out) const override {
    out.clear();
    for (std::size_t at = 0; at < size;) {
      const auto* nl = static_cast<const std::uint8_t*>(std::memchr(data + at, '\n', size - at));
      const std::size_t end = nl ? static_cast<std::size_t>(nl - data) : size;
      std::size_t len = end - at;
      if (len && data[at + len - 1] == '\r') --len;
      if (len) out.push_back(at);
      at = end + 1;
    }
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
