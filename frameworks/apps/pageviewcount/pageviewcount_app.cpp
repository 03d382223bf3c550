// Page view count (Mars' PVC): two chained jobs over a web log of
// `URL<TAB>IP<TAB>cookie` lines: pvc_dedup removes duplicate entries, pvc_count
// counts each URL's distinct entries (its page views). The reference counts
// from the log directly (weblog.h).
#include "frameworks/apps/binary_values.h"
#include "frameworks/apps/records.h"
#include "frameworks/apps/registry.h"
#include "frameworks/apps/weblog.h"

namespace harness::apps {
namespace {

class PageViewCount final : public MapReduceApp {
 public:
  std::string name() const override { return "pageviewcount"; }
  std::string description() const override {
    return "page views per URL in a web log (URL<TAB>IP<TAB>cookie lines): job 1 removes "
           "duplicate entries, job 2 counts each URL's entries";
  }
  std::string default_dataset() const override { return "weblog"; }
  std::uint32_t value_size() const override { return 4; }
  std::uint32_t output_value_size() const override { return 4; }
  bool has_reduce() const override { return true; }
  std::vector<std::uint32_t> split_records(const std::uint8_t* data,
                                           std::size_t size) const override {
    check_input_size(*this, size);
    return split_lines(data, size);
  }
  std::vector<const MapReduceApp*> jobs() const override {
    return {&pvc_dedup_job(), &pvc_count_job()};
  }
  std::string next_job_input(const Params&, std::size_t,
                             const KeyValueList& output) const override {
    return keys_as_lines(output);
  }
  KeyValueList reference(const Params&, const std::uint8_t* data, std::size_t size) const override {
    KeyValueList out;
    for (auto& [url, views] : page_views(data, size)) out.emplace_back(url, raw_bytes(views));
    return out;
  }
  std::string format_value(std::string_view raw) const override {
    return std::to_string(from_raw<std::uint32_t>(raw));
  }
};

}  // namespace

const MapReduceApp& pageviewcount_app() {
  static const PageViewCount app;
  return app;
}

}  // namespace harness::apps
