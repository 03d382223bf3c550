#include "frameworks/mapreduce/apps/registry.h"

#include "harness/core/errors.h"

namespace harness::apps {

const std::vector<const MapReduceApp*>& mapreduce_apps() {
  static const std::vector<const MapReduceApp*> apps = {
      &wordcount_app(),  &stringmatch_app(),   &invertedindex_app(), &similarity_app(),
      &matrixmult_app(), &pageviewcount_app(), &pageviewrank_app(),  &kmeans_app()};
  return apps;
}

const std::vector<const MapReduceApp*>& mapreduce_programs() {
  static const std::vector<const MapReduceApp*> programs = [] {
    std::vector<const MapReduceApp*> out;
    for (const MapReduceApp* app : mapreduce_apps()) {
      if (app->jobs().empty()) out.push_back(app);
    }
    out.insert(out.end(), {&pvc_dedup_job(), &pvc_count_job(), &pvr_rank_job()});
    return out;
  }();
  return programs;
}

const MapReduceApp& find_mapreduce_app(const std::string& name) {
  std::string known;
  for (const MapReduceApp* a : mapreduce_apps()) {
    if (a->name() == name) return *a;
    known += (known.empty() ? "" : ", ") + a->name();
  }
  for (const MapReduceApp* a : mapreduce_programs()) {
    if (a->name() == name) return *a;
  }
  throw UsageError("unknown MapReduce app '" + name + "' (known: " + known + ")");
}

}  // namespace harness::apps
