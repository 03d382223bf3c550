// Inverted Index (thesis chapters 5 and 6, table 5.1): a reverse index of the
// links of HTML pages. Each link of a page (html_links.h: the MapReduce
// invertedindex's link and page rules) gives the pair <link URL, page id>, a
// page's id being the byte offset of its start; the ids of a URL are grouped
// (multi-valued), one per link occurrence. The answer is a TableOutput:
// `URL<TAB>links<TAB>id,id,...` rows sorted by URL bytes, the ids ascending.
#include <map>
#include <string>
#include <vector>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/group_by_key.h"
#include "frameworks/workloads/inverted_index/inverted_index_cpu.h"
#include "frameworks/workloads/inverted_index/inverted_index_format.h"

namespace harness::workloads {
namespace {

using namespace inverted_index;

class InvertedIndex final : public Workload {
 public:
  std::string name() const override { return kApp; }
  std::string description() const override {
    return "reverse index of HTML links: for each link URL (the first href of every <a> tag), "
           "the byte offsets of the pages linking to it, once per link; pages start at lines "
           "beginning '<!-- page:'";
  }
  std::string default_dataset() const override { return "html-zipf"; }
  std::string record_type() const override { return "variable"; }
  std::string chapters() const override { return "ch5 ch6"; }
  PaperFacts paper() const override {
    PaperFacts f;
    const double gb = 1e9;  // table 6.1's sizes, GB taken as 10^9 bytes
    f.table6_1_bytes[0] = 2 * gb;
    f.table6_1_bytes[1] = 3 * gb;
    f.table6_1_bytes[2] = 4 * gb;
    f.table6_1_bytes[3] = 5 * gb;
    return f;
  }

  void check_input(const std::uint8_t* data, std::size_t size) const override {
    for_each_link(data, size, [](std::string_view, std::uint64_t) {});
  }

  // One id per link occurrence: a page linking a URL twice lists its id twice.
  std::unique_ptr<Output> reference(const Params&, const std::uint8_t* data,
                                    std::size_t size) const override {
    std::map<std::string, std::vector<std::int64_t>> pages_linking;
    for_each_link(data, size, [&](std::string_view link, std::uint64_t page) {
      pages_linking[std::string(link)].push_back(static_cast<std::int64_t>(page));
    });
    return std::make_unique<TableOutput>(group_by_key::table_of_groups(pages_linking));
  }

  std::unique_ptr<Output> run_cpu(const Params&, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    return index_links(data, size, threads);
  }

  // Lines have no index: the kernel reads every byte to find the anchors and
  // the ends of the lines (and the page markers). Nothing is written; a record
  // is a line.
  AccessShare access_share(const Params&, const std::uint8_t* data,
                           std::size_t size) const override {
    return every_byte_read_by_lines(data, size);
  }
};

}  // namespace

const Workload& inverted_index_workload() {
  static const InvertedIndex w;
  return w;
}

}  // namespace harness::workloads
