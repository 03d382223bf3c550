#include "frameworks/mapreduce/atomicmr/atomicmr.h"

#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/atomicmr/hash_runtime.h"
#include "frameworks/mapreduce/mars/mars_runtime.h"

namespace harness::atomicmr {
namespace {

// Whether atomicmr/warp can run the app: every job's map emits exactly one
// pair with a fixed key size.
bool warp_runs(const apps::MapReduceApp& app) {
  if (app.jobs().empty()) return app.map_emits_one_key_size() > 0;
  for (const apps::MapReduceApp* job : app.jobs()) {
    if (job->map_emits_one_key_size() == 0) return false;
  }
  return true;
}

void add(VariantInfo v, ParamDecls params, mapreduce::DeviceRuntimeFactory make) {
  v.framework = "atomicmr";
  v.params = std::move(params);
  mapreduce::add_gpu_variant(std::move(v), std::move(make));
}

}  // namespace

void register_variants() {
  auto make_mars = [](backend::Device& device, const Params& params) {
    return mars::make_runtime(device, mars::options_from(params));
  };
  std::vector<std::string> all_apps, warp_apps;
  for (const apps::MapReduceApp* app : apps::mapreduce_apps()) {
    all_apps.push_back(app->name());
    if (warp_runs(*app)) warp_apps.push_back(app->name());
  }

  VariantInfo thread;
  thread.name = "thread";
  thread.description =
      "Mars without the count pass: every map and reduce emit reserves its output place with "
      "global atomics (S0's AtomicMR as run for string match)";
  thread.apps = all_apps;
  ParamDecls thread_params = mars::params();
  thread_params.push_back(*find_param(mars::atomic_params(), "reserve"));
  add(std::move(thread), with_default(std::move(thread_params), "reserve", "atomic_thread"),
      make_mars);

  VariantInfo warp;
  warp.name = "warp";
  warp.description =
      "Mars without the count pass: one global atomic per warp reserves the map output of its "
      "lanes (apps whose map emits one pair with a fixed key size: S0's AtomicMR for MM and KM); "
      "reduce per emit";
  warp.apps = warp_apps;
  ParamDecls warp_params = mars::params();
  for (const ParamDecl& d : mars::atomic_params()) warp_params.push_back(d);
  add(std::move(warp), with_default(std::move(warp_params), "reserve", "atomic_warp"), make_mars);

  VariantInfo hash;
  hash.name = "hash";
  hash.description =
      "MapCG-style grouping: map inserts every pair into a global hash table built with CAS "
      "(no sort), reduce per distinct key, output reserved with global atomics";
  hash.apps = all_apps;
  add(std::move(hash), hash_params(), [](backend::Device& device, const Params& params) {
    return make_hash_runtime(device, hash_options_from(params));
  });
}

}  // namespace harness::atomicmr
