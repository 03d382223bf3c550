// Page view count, job 1 (remove duplicate entries), host side. A job of the
// pageviewcount and pageviewrank apps, not an app of its own.
#include "frameworks/apps/binary_values.h"
#include "frameworks/apps/records.h"
#include "frameworks/apps/registry.h"
#include "frameworks/apps/weblog.h"

namespace harness::apps {
namespace {

class PvcDedup final : public MapReduceApp {
 public:
  std::string name() const override { return "pvc_dedup"; }
  std::string description() const override {
    return "page view count, job 1: one (entry, length) pair per distinct log entry";
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
  KeyValueList reference(const Params&, const std::uint8_t* data, std::size_t size) const override {
    KeyValueList out;
    for (std::string_view e : distinct_entries(data, size)) {
      out.emplace_back(std::string(e), raw_bytes(static_cast<std::uint32_t>(e.size())));
    }
    return out;
  }
  std::string format_value(std::string_view raw) const override {
    return std::to_string(from_raw<std::uint32_t>(raw));
  }
};

}  // namespace

const MapReduceApp& pvc_dedup_job() {
  static const PvcDedup job;
  return job;
}

}  // namespace harness::apps
