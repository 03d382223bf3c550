// Page view rank, job 3 (order URLs by page views), host side. A job of the
// pageviewrank app, not an app of its own.
#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/line_count_app.h"
#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"

namespace harness::apps {

const DialectFacts& pvr_rank_dialect_facts();  // pvr_rank_facts.cpp

namespace {

class PvrRank final : public LineCountApp {
 public:
  std::string name() const override { return "pvr_rank"; }
  std::string description() const override {
    return "page view rank, job 3: (inverted count + URL, count) per URL, sorted";
  }
  std::string default_dataset() const override { return "weblog"; }
  const DialectFacts* dialect() const override { return &pvr_rank_dialect_facts(); }
  KeyValueList reference(const Params&, const std::uint8_t* data, std::size_t size) const override {
    KeyValueList out;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (std::size_t start = 0; start < text.size();) {
      std::size_t nl = text.find('\n', start);
      if (nl == std::string_view::npos) nl = text.size();
      const std::string_view line = text.substr(start, nl - start);
      if (line.size() >= 8) {
        const auto inverted =
            static_cast<std::uint32_t>(std::stoul(std::string(line.substr(0, 8)), nullptr, 16));
        out.emplace_back(std::string(line), raw_bytes(0xffffffffu - inverted));
      }
      start = nl + 1;
    }
    return out;
  }
};

}  // namespace

const MapReduceApp& pvr_rank_job() {
  static const PvrRank job;
  return job;
}

}  // namespace harness::apps
