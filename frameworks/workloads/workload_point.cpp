#include "frameworks/workloads/workload_point.h"

#include <mutex>
#include <tuple>

#include "datasets/dataset.h"
#include "frameworks/workloads/registry.h"
#include "harness/core/errors.h"
#include "harness/core/lru_cache.h"

namespace harness::workloads {
namespace {

// The workload's own parameters out of a point's (which also holds the
// variant's knobs).
Params own_params(const Workload& w, const Params& all) {
  Params own;
  for (const ParamDecl& d : w.params()) {
    auto it = all.find(d.name);
    own[d.name] = it != all.end() ? it->second : d.default_value;
  }
  return own;
}

std::shared_ptr<const Output> cached_reference(const Workload& w, const Params& params,
                                               const PointContext& ctx) {
  static std::mutex mutex;
  // The last few references (harness/core/lru_cache.h): a reproduction runs
  // each input through several variants, backends and experiments in a row.
  static LruCache<std::tuple<std::string, Params, std::string, std::size_t>, Output> cache(
      kCachedReferences);
  std::lock_guard lock(mutex);
  // Without the runner's checksum (tests, embedders) the bytes are hashed: an
  // address alone named another input's reference once a freed input's
  // memory was reused for new bytes of the same size.
  const std::string id = ctx.input_checksum.empty()
                             ? "xxh64:" + std::to_string(datasets::xxh64(ctx.input, ctx.input_size))
                             : ctx.input_checksum;
  return cache.get_or_make(
      std::make_tuple(w.name(), own_params(w, params), id, ctx.input_size), [&] {
        std::shared_ptr<Output> out = w.reference(params, ctx.input, ctx.input_size);
        out->finish();
        return std::shared_ptr<const Output>(std::move(out));
      });
}

}  // namespace

WorkloadPoint::WorkloadPoint(const PointContext& ctx)
    : workload_(find_workload(ctx.app)), ctx_(ctx) {}

void WorkloadPoint::prepare() {
  workload_.check_input(ctx_.input, ctx_.input_size);
  reference_ = cached_reference(workload_, ctx_.params, ctx_);
  prepare_run();
}

std::string WorkloadPoint::validate_last() {
  if (!last_) return "no output (the run made none)";
  last_->finish();
  return last_->compare_with(*reference_, ctx_.validation);
}

void WorkloadPoint::dump_output(std::ostream& out) const {
  if (last_) last_->dump(out);
}

Work WorkloadPoint::input_work() const {
  Work w;
  w.input_bytes = ctx_.input_size;
  w.reads(level::host, ctx_.input_size);
  return w;
}

}  // namespace harness::workloads
