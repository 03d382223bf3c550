// Page view count, job 1 (remove duplicate entries), host side. A job of the
// pageviewcount and pageviewrank apps, not an app of its own.
#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/line_count_app.h"
#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/apps/weblog.h"

namespace harness::apps {

const DialectFacts& pvc_dedup_dialect_facts();  // pvc_dedup_facts.cpp

namespace {

class PvcDedup final : public LineCountApp {
 public:
  std::string name() const override { return "pvc_dedup"; }
  std::string description() const override {
    return "page view count, job 1: one (entry, length) pair per distinct log entry";
  }
  std::string default_dataset() const override { return "weblog"; }
  const DialectFacts* dialect() const override { return &pvc_dedup_dialect_facts(); }
  // An entry seen in two parts of the log is still one entry.
  std::string merge_values(std::string_view a, std::string_view /*b*/) const override {
    return std::string(a);
  }
  KeyValueList reference(const Params&, const std::uint8_t* data, std::size_t size) const override {
    KeyValueList out;
    for (std::string_view e : distinct_entries(data, size)) {
      out.emplace_back(std::string(e), raw_bytes(static_cast<std::uint32_t>(e.size())));
    }
    return out;
  }
};

}  // namespace

const MapReduceApp& pvc_dedup_job() {
  static const PvcDedup job;
  return job;
}

}  // namespace harness::apps
