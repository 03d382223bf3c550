// Page view rank (Mars' PVR): the --param top (10) URLs with the most page
// views. Page view count's two jobs, then pvr_rank, whose keys (inverted count
// as hex, then the URL) sort by views descending, then URL; the first `top`
// of its sorted output are the answer. The reference ranks page_views()
// (weblog.h) with std::sort.
#include <algorithm>

#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/apps/weblog.h"
#include "harness/core/errors.h"

namespace harness::apps {
namespace {

// Output pair: (rank from 1 as big-endian u32, page views as u32 then the URL).
std::pair<std::string, std::string> ranked(std::uint32_t rank, std::uint32_t views,
                                           std::string_view url) {
  std::string key;
  append_be32(key, rank);
  return {std::move(key), raw_bytes(views) + std::string(url)};
}

class PageViewRank final : public MapReduceApp {
 public:
  std::string name() const override { return "pageviewrank"; }
  std::string description() const override {
    return "the --param top URLs with the most page views in a web log (page view count's two "
           "jobs, then a map-only job whose sort ranks them)";
  }
  std::string default_dataset() const override { return "weblog"; }
  std::uint32_t value_size() const override { return 4; }
  std::uint32_t output_value_size() const override { return 4; }
  bool has_reduce() const override { return false; }
  ParamDecls params() const override {
    return {unsigned_param("top", 10, 1, 999999999, "URLs in the ranking")};
  }
  std::vector<std::uint32_t> split_records(const std::uint8_t* data,
                                           std::size_t size) const override {
    check_input_size(*this, size);
    return split_lines(data, size);
  }
  std::vector<const MapReduceApp*> jobs() const override {
    return {&pvc_dedup_job(), &pvc_count_job(), &pvr_rank_job()};
  }
  void next_job_input(const Params&, std::size_t job, const KeyValueList& output,
                      std::string& into) const override {
    if (job == 0) return keys_as_lines(output, into);
    into.clear();  // job 2 -> 3: `XXXXXXXXURL` per URL
    for (const auto& [url, raw] : output) {
      into += fmt::format("{:08x}", 0xffffffffu - from_raw<std::uint32_t>(raw));
      into += url;
      into += '\n';
    }
  }
  // The first `top` pairs of the rank job's canonical output.
  KeyValueList final_output(const Params& params, KeyValueList last) const override {
    KeyValueList out;
    const std::size_t n =
        std::min<std::size_t>(last.size(), param_unsigned(resolve_params(params), "top"));
    for (std::size_t r = 0; r < n; ++r) {
      out.push_back(ranked(static_cast<std::uint32_t>(r + 1),
                           from_raw<std::uint32_t>(last[r].second),
                           std::string_view(last[r].first).substr(8)));
    }
    return out;
  }
  KeyValueList reference(const Params& params, const std::uint8_t* data,
                         std::size_t size) const override {
    const auto views = page_views(data, size);
    std::vector<std::pair<std::uint32_t, std::string_view>> order;
    order.reserve(views.size());
    for (const auto& [url, n] : views) order.emplace_back(n, url);
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    const std::size_t top = param_unsigned(resolve_params(params), "top");
    KeyValueList out;
    for (std::size_t r = 0; r < order.size() && r < top; ++r) {
      out.push_back(ranked(static_cast<std::uint32_t>(r + 1), order[r].first, order[r].second));
    }
    return out;
  }
  std::string format_key(std::string_view raw) const override {
    return std::to_string(read_be32(raw));
  }
  // `URL<TAB>page views`
  std::string format_value(std::string_view raw) const override {
    return std::string(raw.substr(std::min<std::size_t>(4, raw.size()))) + '\t' +
           std::to_string(from_raw<std::uint32_t>(raw));
  }
};

}  // namespace

const MapReduceApp& pageviewrank_app() {
  static const PageViewRank app;
  return app;
}

}  // namespace harness::apps
