#include "frameworks/apps/registry.h"

#include "harness/core/errors.h"

namespace harness::apps {

const std::vector<const MapReduceApp*>& mapreduce_apps() {
  static const std::vector<const MapReduceApp*> apps = {&wordcount_app(), &stringmatch_app(),
                                                        &invertedindex_app()};
  return apps;
}

const MapReduceApp& find_mapreduce_app(const std::string& name) {
  std::string known;
  for (const MapReduceApp* a : mapreduce_apps()) {
    if (a->name() == name) return *a;
    known += (known.empty() ? "" : ", ") + a->name();
  }
  throw UsageError("unknown MapReduce app '" + name + "' (known: " + known + ")");
}

}  // namespace harness::apps
