// Geo Location (thesis chapter 6): Wikipedia articles grouped by the
// geographic location they were created from. Each article line
// (geo_location_format.h) gives the key-value pair <location, article id>;
// MAP_GROUP groups the article ids of each location.
#include <map>
#include <string>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/geo_location/geo_location_cpu.h"
#include "frameworks/workloads/geo_location/geo_location_format.h"
#include "frameworks/workloads/group_by_key.h"

namespace harness::workloads {
namespace {

using namespace geo_location;

class GeoLocation final : public Workload {
 public:
  std::string name() const override { return "geo-location"; }
  std::string description() const override {
    return "articles grouped by the location they were created from: for each location string, "
           "its article ids (MAP_GROUP of tab-separated article lines)";
  }
  std::string default_dataset() const override { return "geo-articles"; }
  std::string record_type() const override { return "variable"; }
  std::string chapters() const override { return "ch6"; }
  PaperFacts paper() const override {
    PaperFacts f;
    const double gb = 1e9;  // table 6.1's sizes, GB taken as 10^9 bytes
    f.table6_1_bytes[0] = 0.2 * gb;
    f.table6_1_bytes[1] = 1.8 * gb;
    f.table6_1_bytes[2] = 3.2 * gb;
    f.table6_1_bytes[3] = 5.0 * gb;
    return f;
  }

  void check_input(const std::uint8_t* data, std::size_t size) const override {
    for_each_article(data, size, [](const ArticleLine&) {});
  }

  // Every article line is one value (an id repeated under a location is
  // listed twice).
  std::unique_ptr<Output> reference(const Params&, const std::uint8_t* data,
                                    std::size_t size) const override {
    std::map<std::string, std::vector<std::int64_t>> articles_at;
    for_each_article(data, size, [&](const ArticleLine& line) {
      articles_at[std::string(line.location)].push_back(line.id);
    });
    return std::make_unique<TableOutput>(group_by_key::table_of_groups(articles_at));
  }

  std::unique_ptr<Output> run_cpu(const Params&, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    return group_articles(data, size, threads);
  }

  // Lines have no index: to find a line's fields and its end, the kernel
  // reads every byte of it (the id, the title and the location up to their
  // tabs, the rest up to the newline), and every empty line's newline.
  // Nothing is written.
  AccessShare access_share(const Params&, const std::uint8_t* data,
                           std::size_t size) const override {
    std::uint64_t records = 0;
    for_each_article(data, size, [&](const ArticleLine&) { ++records; });
    AccessMap map(size);
    map.read(0, size);
    return map.share(records);
  }
};

}  // namespace

const Workload& geo_location_workload() {
  static const GeoLocation w;
  return w;
}

}  // namespace harness::workloads
