// Page View Count (thesis chapters 5 and 6, table 5.1): the number of hits of
// each URL in a web log. Each log line that is a page view
// (page_view_count_format.h) gives the pair <URL, 1>; the pairs are summed per
// URL. The answer is a TableOutput of one integer column: `URL<TAB>views`
// rows sorted by URL bytes.
#include <map>
#include <memory>
#include <string>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/group_by_key.h"
#include "frameworks/workloads/page_view_count/page_view_count_cpu.h"
#include "frameworks/workloads/page_view_count/page_view_count_format.h"

namespace harness::workloads {
namespace {

using namespace page_view_count;

class PageViewCount final : public Workload {
 public:
  std::string name() const override { return kApp; }
  std::string description() const override {
    return "page views per URL of a web log: every line `URL<TAB>...` counts one hit of its URL "
           "(duplicate lines included), summed per URL";
  }
  std::string default_dataset() const override { return "weblog"; }
  std::string record_type() const override { return "variable"; }
  std::string chapters() const override { return "ch5 ch6"; }
  PaperFacts paper() const override {
    PaperFacts f;
    const double gb = 1e9;  // table 6.1's sizes, GB taken as 10^9 bytes
    f.table6_1_bytes[0] = 0.6 * gb;
    f.table6_1_bytes[1] = 2.2 * gb;
    f.table6_1_bytes[2] = 3.8 * gb;
    f.table6_1_bytes[3] = 5.8 * gb;
    return f;
  }

  // Any bytes are a log: lines that are not page views are skipped, and a
  // URL (no TAB, no newline) is always a key the answer can hold.
  void check_input(const std::uint8_t*, std::size_t) const override {}

  std::unique_ptr<Output> reference(const Params&, const std::uint8_t* data,
                                    std::size_t size) const override {
    std::map<std::string, std::int64_t> views;
    for_each_page_view(data, size, [&](std::string_view url) { ++views[std::string(url)]; });
    return std::make_unique<TableOutput>(group_by_key::table_of_counts(views));
  }

  std::unique_ptr<Output> run_cpu(const Params&, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    return count_page_views(data, size, threads);
  }

  // Lines have no index: the kernel reads every byte to find each line's
  // first TAB and its end. Nothing is written; a record is a line.
  AccessShare access_share(const Params&, const std::uint8_t* data,
                           std::size_t size) const override {
    return every_byte_read_by_lines(data, size);
  }
};

}  // namespace

const Workload& page_view_count_workload() {
  static const PageViewCount w;
  return w;
}

}  // namespace harness::workloads
