// Page view count, job 2 (page views per URL), host side. A job of the
// pageviewcount and pageviewrank apps, not an app of its own.
#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/line_count_app.h"
#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/apps/weblog.h"

namespace harness::apps {

const DialectFacts& pvc_count_dialect_facts();  // pvc_count_facts.cpp

namespace {

class PvcCount final : public LineCountApp {
 public:
  std::string name() const override { return "pvc_count"; }
  std::string description() const override {
    return "page view count, job 2: (URL, page views) from the distinct entries";
  }
  std::string default_dataset() const override { return "weblog"; }
  const DialectFacts* dialect() const override { return &pvc_count_dialect_facts(); }
  // A URL's distinct entries split between two parts: the counts add.
  std::string merge_values(std::string_view a, std::string_view b) const override {
    return raw_bytes(from_raw<std::uint32_t>(a) + from_raw<std::uint32_t>(b));
  }
  // Its input has distinct entries already, so counting them is the answer.
  KeyValueList reference(const Params&, const std::uint8_t* data, std::size_t size) const override {
    KeyValueList out;
    for (auto& [url, views] : page_views(data, size)) out.emplace_back(url, raw_bytes(views));
    return out;
  }
};

}  // namespace

const MapReduceApp& pvc_count_job() {
  static const PvcCount job;
  return job;
}

}  // namespace harness::apps
