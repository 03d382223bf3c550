#include "frameworks/workloads/cpu_mt/cpu_mt.h"

#include <cstring>

#include "frameworks/workloads/registry.h"
#include "frameworks/workloads/workload_point.h"
#include "harness/core/host_cores.h"
#include "harness/core/huge_page_array.h"
#include "harness/core/stopwatch.h"

namespace harness::workloads {
namespace {

class CpuMtPoint final : public WorkloadPoint {
 public:
  CpuMtPoint(const PointContext& ctx, unsigned threads) : WorkloadPoint(ctx), threads_(threads) {
    if (threads_ == 0) threads_ = harness::usable_cores();
  }
  // In-place workloads get a private copy of the input, refreshed untimed
  // (not once a run showed the workload has no in-place implementation:
  // kmeans-particles writes its ids to an array of its own).
  void before_repetition() override {
    if (!workload_.modifies_input() || ctx_.input_size == 0 || no_in_place_) return;
    last_.reset();
    if (copy_.size() != ctx_.input_size) copy_ = HugePageArray<std::uint8_t>(ctx_.input_size);
    std::memcpy(copy_.data(), ctx_.input, ctx_.input_size);
  }
  Measurement run_once() override {
    last_.reset();  // the previous output's memory is not the next run's to reuse
    Measurement m;
    Stopwatch clock;
    const bool have_copy = copy_.size() == ctx_.input_size && ctx_.input_size > 0;
    if (have_copy)
      last_ = workload_.run_cpu_in_place(ctx_.params, copy_.data(), ctx_.input_size, threads_);
    in_place_ = last_ != nullptr;
    if (have_copy && !in_place_) {
      no_in_place_ = true;
      copy_ = HugePageArray<std::uint8_t>();
    }
    if (!last_) last_ = workload_.run_cpu(ctx_.params, ctx_.input, ctx_.input_size, threads_);
    m.total_ms = clock.elapsed_ms();
    m.phases.push_back({"compute", m.total_ms});
    m.counters["threads"] = threads_;
    return m;
  }
  // An in-place workload writes its copy back (up to every byte of it).
  Work work() const override {
    Work w = input_work();
    if (in_place_) w.writes(level::host, ctx_.input_size);
    return w;
  }

 private:
  unsigned threads_;
  HugePageArray<std::uint8_t> copy_;
  bool in_place_ = false;     // the last run rewrote copy_
  bool no_in_place_ = false;  // a run with a copy got no in-place output
};

std::vector<std::string> workload_names() {
  std::vector<std::string> names;
  for (const Workload* w : thesis_workloads()) names.push_back(w->name());
  return names;
}

}  // namespace

void register_cpu_mt() {
  VariantInfo mt;
  mt.framework = "cpu-mt";
  mt.name = "default";
  mt.description =
      "the thesis workloads' multi-threaded CPU implementations (CPU-MT of figures 4.10, 5.14, "
      "6.9), on every host core";
  mt.backends = {backend::Kind::cpu};
  mt.params = {unsigned_param("threads", 0, 0, 4096, "host threads; 0: one per core")};
  mt.apps = workload_names();
  mt.make = [](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
    return std::make_unique<CpuMtPoint>(ctx, param_u32(ctx.params, "threads"));
  };
  VariantInfo serial = mt;
  serial.name = "serial";
  serial.description =
      "the same implementations on one host thread (the serial CPU baseline of figure 4.10)";
  serial.params = {};
  serial.make = [](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
    return std::make_unique<CpuMtPoint>(ctx, 1);
  };
  Registry::instance().add_variant(std::move(mt));
  Registry::instance().add_variant(std::move(serial));
}

}  // namespace harness::workloads
