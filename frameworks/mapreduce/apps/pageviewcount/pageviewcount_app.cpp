// Page view count (Mars' PVC): two chained jobs over a web log of
// `URL<TAB>IP<TAB>cookie` lines: pvc_dedup removes duplicate entries, pvc_count
// counts each URL's distinct entries (its page views). The reference counts
// from the log directly (weblog.h).
#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/line_count_app.h"
#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/apps/weblog.h"

namespace harness::apps {
namespace {

class PageViewCount final : public LineCountApp {
 public:
  std::string name() const override { return "pageviewcount"; }
  std::string description() const override {
    return "page views per URL in a web log (URL<TAB>IP<TAB>cookie lines): job 1 removes "
           "duplicate entries, job 2 counts each URL's entries";
  }
  std::string default_dataset() const override { return "weblog"; }
  // The final output: the last job's, (URL, u32 page views) per URL.
  std::uint32_t value_size() const override { return 4; }
  std::uint32_t output_value_size() const override { return 4; }
  bool has_reduce() const override { return true; }
  std::vector<const MapReduceApp*> jobs() const override {
    return {&pvc_dedup_job(), &pvc_count_job()};
  }
  void next_job_input(const Params&, std::size_t, const KeyValueList& output,
                      std::string& into) const override {
    keys_as_lines(output, into);
  }
  // The distinct entries' page views, counted from the log directly (the
  // second job's reference dedups its input itself).
  KeyValueList reference(const Params& params, const std::uint8_t* data,
                         std::size_t size) const override {
    return pvc_count_job().reference(params, data, size);
  }
};

}  // namespace

const MapReduceApp& pageviewcount_app() {
  static const PageViewCount app;
  return app;
}

}  // namespace harness::apps
