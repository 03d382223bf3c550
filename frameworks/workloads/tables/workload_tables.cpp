#include "frameworks/workloads/tables/workload_tables.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <ostream>

#include "frameworks/workloads/registry.h"
#include "harness/core/registry.h"
#include "harness/core/stopwatch.h"

namespace harness::workloads {
namespace {

std::vector<std::string> names_where(bool (*keep)(const Workload&)) {
  std::vector<std::string> names;
  for (const Workload* w : thesis_workloads()) {
    if (keep(*w)) names.push_back(w->name());
  }
  return names;
}

// tables/access-shares: one row of table 4.1. Validation: shares within
// [0, 1], something read, and every repetition measures the same.
class AccessSharesPoint final : public PointRunner {
 public:
  explicit AccessSharesPoint(const PointContext& ctx)
      : ctx_(ctx), workload_(find_workload(ctx.app)) {}
  void prepare() override { workload_.check_input(ctx_.input, ctx_.input_size); }
  Measurement run_once() override {
    Measurement m;
    Stopwatch clock;
    share_ = workload_.access_share(ctx_.params, ctx_.input, ctx_.input_size);
    m.total_ms = clock.elapsed_ms();
    m.phases.push_back({"walk", m.total_ms});
    const PaperFacts paper = workload_.paper();
    m.counters["read_pct"] = 100 * share_.read_share();
    m.counters["written_pct"] = 100 * share_.written_share();
    m.counters["records"] = static_cast<double>(share_.records);
    if (share_.records)
      m.counters["record_bytes"] =
          static_cast<double>(share_.input_bytes) / static_cast<double>(share_.records);
    if (paper.read_share) m.counters["paper_read_pct"] = 100 * *paper.read_share;
    if (paper.written_share) m.counters["paper_written_pct"] = 100 * *paper.written_share;
    if (paper.table4_1_bytes) m.counters["paper_gb"] = *paper.table4_1_bytes / 1e9;
    return m;
  }
  std::string validate_last() override {
    if (share_.input_bytes != ctx_.input_size)
      return fmt::format("walked {} bytes of a {}-byte input", share_.input_bytes, ctx_.input_size);
    if (share_.read_bytes == 0) return "the kernel reads nothing";
    if (share_.read_bytes > share_.input_bytes || share_.written_bytes > share_.input_bytes)
      return "more bytes touched than the input holds";
    if (first_ &&
        (first_->read_bytes != share_.read_bytes || first_->written_bytes != share_.written_bytes))
      return "another repetition measured other shares";
    first_ = share_;
    return "";
  }
  Work work() const override {
    Work w;
    w.input_bytes = ctx_.input_size;
    w.reads(level::host, ctx_.input_size);
    return w;
  }
  void dump_output(std::ostream& out) const override {
    out << fmt::format("{}\t{}\t{:.1f}\t{:.1f}\n", workload_.name(), workload_.record_type(),
                       100 * share_.read_share(), 100 * share_.written_share());
  }

 private:
  PointContext ctx_;
  const Workload& workload_;
  AccessShare share_;
  std::optional<AccessShare> first_;
};

// tables/kv-datasets: one row of table 6.1 at this input's size: records
// (one key-value pair inserted each), distinct keys (the reference's rows),
// and their densities. Validation: the reference's rows are at most the
// records, and repetitions agree.
class KvDatasetsPoint final : public PointRunner {
 public:
  explicit KvDatasetsPoint(const PointContext& ctx)
      : ctx_(ctx), workload_(find_workload(ctx.app)) {}
  void prepare() override { workload_.check_input(ctx_.input, ctx_.input_size); }
  Measurement run_once() override {
    Measurement m;
    Stopwatch clock;
    records_ = workload_.access_share(ctx_.params, ctx_.input, ctx_.input_size).records;
    auto answer = workload_.reference(ctx_.params, ctx_.input, ctx_.input_size);
    answer->finish();
    keys_ = answer->items();
    m.total_ms = clock.elapsed_ms();
    m.phases.push_back({"reference", m.total_ms});
    const double mib = static_cast<double>(ctx_.input_size) / (1 << 20);
    m.counters["records"] = static_cast<double>(records_);
    m.counters["distinct_keys"] = static_cast<double>(keys_);
    m.counters["pairs_per_key"] =
        keys_ ? static_cast<double>(records_) / static_cast<double>(keys_) : 0;
    m.counters["pairs_per_mib"] = static_cast<double>(records_) / mib;
    m.counters["keys_per_mib"] = static_cast<double>(keys_) / mib;
    const PaperFacts paper = workload_.paper();
    for (int d = 0; d < 4; ++d) {
      if (paper.table6_1_bytes[d] > 0)
        m.counters[fmt::format("paper_dataset{}_gb", d + 1)] = paper.table6_1_bytes[d] / 1e9;
    }
    return m;
  }
  std::string validate_last() override {
    if (records_ == 0 && ctx_.input_size > 0) return "no record found in a non-empty input";
    if (keys_ > records_) return fmt::format("{} distinct keys from {} records", keys_, records_);
    if (first_ && *first_ != std::make_pair(records_, keys_))
      return "another repetition counted otherwise";
    first_ = std::make_pair(records_, keys_);
    return "";
  }
  Work work() const override {
    Work w;
    w.input_bytes = ctx_.input_size;
    w.items("records", records_);
    return w;
  }
  void dump_output(std::ostream& out) const override {
    out << fmt::format("{}\t{}\t{}\t{}\n", workload_.name(), ctx_.input_size, records_, keys_);
  }

 private:
  PointContext ctx_;
  const Workload& workload_;
  std::uint64_t records_ = 0, keys_ = 0;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> first_;
};

}  // namespace

void register_workload_tables() {
  VariantInfo shares;
  shares.framework = "tables";
  shares.name = "access-shares";
  shares.description =
      "thesis.tab4_1: the share of the mapped input a workload's kernel reads and writes, "
      "measured by walking its access pattern, beside table 4.1's";
  shares.backends = {backend::Kind::cpu};
  shares.apps = names_where([](const Workload& w) { return w.paper().read_share.has_value(); });
  shares.make = [](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
    return std::make_unique<AccessSharesPoint>(ctx);
  };
  VariantInfo kv;
  kv.framework = "tables";
  kv.name = "kv-datasets";
  kv.description =
      "thesis.tab6_1: key-value pairs inserted and distinct keys kept per input byte, beside "
      "table 6.1's dataset sizes";
  kv.backends = {backend::Kind::cpu};
  kv.apps = names_where([](const Workload& w) { return w.paper().table6_1_bytes[0] > 0; });
  kv.make = [](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
    return std::make_unique<KvDatasetsPoint>(ctx);
  };
  Registry::instance().add_variant(std::move(shares));
  Registry::instance().add_variant(std::move(kv));
}

}  // namespace harness::workloads
