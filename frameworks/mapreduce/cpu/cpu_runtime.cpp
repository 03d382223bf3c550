#include "frameworks/mapreduce/cpu/cpu_runtime.h"

#include <map>

#include "frameworks/mapreduce/apps/registry.h"
#include "harness/core/errors.h"
#include "harness/core/host_cores.h"

namespace harness::cpu {

unsigned resolve_threads(unsigned requested) {
  return requested ? requested : harness::usable_cores();
}

namespace {
using Factory = std::unique_ptr<mapreduce::Runtime> (*)(const Options&);
const std::map<std::string, Factory>& factories() {
  static const std::map<std::string, Factory> table = {{"wordcount", &make_wordcount},
                                                       {"stringmatch", &make_stringmatch},
                                                       {"invertedindex", &make_invertedindex},
                                                       {"similarity", &make_similarity},
                                                       {"matrixmult", &make_matrixmult},
                                                       {"kmeans", &make_kmeans},
                                                       {"pvc_dedup", &make_pvc_dedup},
                                                       {"pvc_count", &make_pvc_count},
                                                       {"pvr_rank", &make_pvr_rank}};
  return table;
}
}  // namespace

std::unique_ptr<mapreduce::Runtime> make_runtime(const std::string& app, const Options& options) {
  auto it = factories().find(app);
  return it == factories().end() ? nullptr : it->second(options);
}

std::vector<std::string> built_apps() {
  std::vector<std::string> names;
  for (const apps::MapReduceApp* app : apps::mapreduce_apps()) {
    bool built = true;
    for (const apps::MapReduceApp* job : app->jobs())
      built = built && factories().count(job->name());
    if (built && (!app->jobs().empty() || factories().count(app->name()))) {
      names.push_back(app->name());
    }
  }
  return names;
}

void register_variants() {
  VariantInfo v;
  v.framework = "cpu";
  v.name = "default";
  v.description =
      "multi-threaded CPU MapReduce: per-thread hash tables partitioned by key, combine on insert; "
      "fast_path=1: word count's and string match's own one-pass maps";
  v.backends = {backend::Kind::cpu};
  v.params = {bool_param("fast_path", true, "word count's and string match's own one-pass maps"),
              unsigned_param("threads", 0, 0, 4096, "host threads; 0: one per core")};
  v.apps = built_apps();
  v.make = mapreduce::point_factory([](const PointContext& ctx) {
    Options o;
    o.threads = param_u32(ctx.params, "threads");
    o.fast_path = param_bool(ctx.params, "fast_path");
    auto runtime = make_runtime(ctx.app, o);
    if (!runtime) throw UsageError("the cpu runtime has no build of app '" + ctx.app + "'");
    return runtime;
  });
  Registry::instance().add_variant(std::move(v));
}

}  // namespace harness::cpu
