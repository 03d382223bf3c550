#include "frameworks/cpu/cpu_runtime.h"

#include <map>
#include <mutex>

#include "harness/core/errors.h"

namespace harness::cpu {

unsigned resolve_threads(unsigned requested) {
  if (requested) return requested;
  unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

void parallel_for(unsigned workers, const std::function<void(unsigned)>& fn) {
  std::vector<std::thread> pool;
  pool.reserve(workers);
  std::exception_ptr error;
  std::mutex mutex;
  for (unsigned w = 0; w < workers; ++w) {
    pool.emplace_back([&, w] {
      try {
        fn(w);
      } catch (...) {
        std::lock_guard lock(mutex);
        error = std::current_exception();
      }
    });
  }
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

void register_variants() {
  static const std::map<std::string, std::unique_ptr<mapreduce::Runtime> (*)(const Options&)>
      factories = {{"wordcount", &make_wordcount}};
  VariantInfo v;
  v.framework = "cpu";
  v.name = "default";
  v.description =
      "multi-threaded CPU MapReduce: per-thread hash tables partitioned by key, combine on insert";
  v.backends = {backend::Kind::cpu};
  v.default_params = {{"threads", "0"}};
  for (const auto& [app, _] : factories) v.apps.push_back(app);
  v.make = mapreduce::point_factory([](const PointContext& ctx) {
    auto it = factories.find(ctx.app);
    if (it == factories.end())
      throw UsageError("the cpu runtime has no build of app '" + ctx.app + "'");
    Options o;
    o.threads = mapreduce::param_u32(ctx.params, "threads");
    return it->second(o);
  });
  Registry::instance().add_variant(std::move(v));
}

}  // namespace harness::cpu
