#include "frameworks/mapreduce/common/mapreduce_runtime.h"

#include <memory>
#include <mutex>
#include <ostream>
#include <tuple>

#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/job_chain.h"
#include "harness/core/errors.h"
#include "harness/core/lru_cache.h"
#include "harness/core/stopwatch.h"

namespace harness::mapreduce {
namespace {

// References are computed once per (app, app parameters, input) and shared by
// every variant measured on that input, wherever its copy of it lives; the
// last few are kept (harness/core/lru_cache.h).
std::shared_ptr<const apps::KeyValueList> cached_reference(const apps::MapReduceApp& app,
                                                           const apps::Params& params,
                                                           const std::uint8_t* input,
                                                           std::size_t size,
                                                           const std::string& checksum) {
  static std::mutex mutex;
  static LruCache<std::tuple<std::string, apps::Params, std::string, std::size_t>,
                  apps::KeyValueList>
      cache(kCachedReferences);
  std::lock_guard lock(mutex);
  // Without a checksum (a caller that has none) the address stands in for it.
  const std::string id = checksum.empty()
                             ? "address:" + std::to_string(reinterpret_cast<std::uintptr_t>(input))
                             : checksum;
  return cache.get_or_make(std::make_tuple(app.name(), params, id, size), [&] {
    auto reference = std::make_shared<apps::KeyValueList>(app.reference(params, input, size));
    apps::sort_output(app, *reference);
    return std::shared_ptr<const apps::KeyValueList>(std::move(reference));
  });
}

class MapReducePoint final : public PointRunner {
 public:
  MapReducePoint(const PointContext& ctx, const RuntimeFactory& make_runtime)
      : app_(apps::find_mapreduce_app(ctx.app)),
        params_(app_.resolve_params(ctx.params)),
        policy_(ctx.validation),
        input_(ctx.input),
        size_(ctx.input_size),
        checksum_(ctx.input_checksum),
        chain_(app_, [&ctx, &make_runtime](const std::string& job) {
          PointContext job_ctx = ctx;
          job_ctx.app = job;
          return make_runtime(job_ctx);
        }) {
    if (policy_.kind != "exact" && policy_.kind != "set" && policy_.kind != "tolerance") {
      throw UsageError("MapReduce app '" + app_.name() + "' validates as 'exact', 'set' or " +
                       "'tolerance', not '" + policy_.kind + "'");
    }
    chain_.set_app_params(params_);
  }

  void prepare() override {
    if (!chain_.can_run(size_)) apps::check_input_size(app_, size_);
    reference_ = cached_reference(app_, params_, input_, size_, checksum_);
    chain_.prepare();
  }
  Measurement run_once() override {
    RunResult r = chain_.run(input_, size_);
    output_ = std::move(r.output);
    work_ = std::move(r.work);
    work_.input_bytes = size_;
    work_.items("output_keys", output_.size());  // output pairs (one per key with reduce)
    return r.measurement;
  }
  std::string validate_last() override {
    return apps::compare_by_policy(app_, *reference_, output_, policy_);
  }
  Work work() const override { return work_; }
  // `key<TAB>value` lines in canonical order (key and value as the app formats them).
  void dump_output(std::ostream& out) const override {
    for (const auto& [k, v] : output_) {
      out << app_.format_key(k) << '\t' << app_.format_value(v) << '\n';
    }
  }

 private:
  const apps::MapReduceApp& app_;
  apps::Params params_;
  ValidationPolicy policy_;
  const std::uint8_t* input_;
  std::size_t size_;
  std::string checksum_;
  JobChain chain_;
  std::shared_ptr<const apps::KeyValueList> reference_;
  apps::KeyValueList output_;
  Work work_;
};

}  // namespace

std::function<std::unique_ptr<PointRunner>(const PointContext&)> point_factory(
    RuntimeFactory make_runtime) {
  return [make_runtime](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
    return std::make_unique<MapReducePoint>(ctx, make_runtime);
  };
}

PreparedInput preprocess(const apps::MapReduceApp& app, const apps::Params& params,
                         const std::uint8_t* data, std::size_t size) {
  PreparedInput in;
  preprocess_into(app, params, data, size, in);
  return in;
}

void preprocess_into(const apps::MapReduceApp& app, const apps::Params& params,
                     const std::uint8_t* data, std::size_t size, PreparedInput& in) {
  in.data = data;
  in.size = size;
  app.split_records_into(data, size, in.offsets);
  in.side = app.side_data(params, data, size);
}

RunResult Runtime::run(const apps::MapReduceApp& app, const std::uint8_t* input, std::size_t size) {
  Stopwatch host;
  preprocess_into(app, app_params(), input, size, prepared_input_);
  const double preprocess_ms = host.elapsed_ms();
  RunResult result = run_records(app, prepared_input_, 0, prepared_input_.records());
  result.measurement.total_ms += preprocess_ms;
  auto& phases = result.measurement.phases;
  phases.insert(phases.begin(), {"preprocess", preprocess_ms});
  return result;
}

RunResult Runtime::run_records(const apps::MapReduceApp& app, const PreparedInput& /*input*/,
                               std::uint32_t /*first*/, std::uint32_t /*last*/) {
  throw UsageError(name() + " cannot run a slice of an input's records (app '" + app.name() +
                   "'), so it cannot co-process");
}

void add_gpu_variant_rows(const std::string& framework, const ParamDecls& family,
                          const std::vector<VariantRow>& rows, const RunsApp& runs,
                          const DeviceRuntimeFactory& make) {
  for (const VariantRow& row : rows) {
    ParamDecls decls = family;
    for (const auto& [k, value] : row.overrides) decls = with_default(std::move(decls), k, value);
    const Params defaults = defaults_of(decls);
    VariantInfo v;
    v.framework = framework;
    v.name = row.name;
    v.description = row.description;
    v.params = std::move(decls);
    for (const apps::MapReduceApp* app : apps::mapreduce_apps()) {
      if (runs(defaults, *app)) v.apps.push_back(app->name());
    }
    add_gpu_variant(std::move(v), make);
  }
}

void add_gpu_variant(VariantInfo v, DeviceRuntimeFactory make) {
  v.backends = {backend::Kind::opencl, backend::Kind::cuda};
  v.make = point_factory([framework = v.framework, make](const PointContext& ctx) {
    if (!ctx.device) throw UsageError(framework + " needs a GPU backend (opencl or cuda)");
    return make(*ctx.device, ctx.params);
  });
  Registry::instance().add_variant(std::move(v));
}

}  // namespace harness::mapreduce
