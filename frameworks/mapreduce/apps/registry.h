// The MapReduce apps compiled into this binary.
#pragma once

#include <string>
#include <vector>

#include "frameworks/mapreduce/apps/mapreduce_app.h"

namespace harness::apps {

const MapReduceApp& wordcount_app();
const MapReduceApp& stringmatch_app();
const MapReduceApp& invertedindex_app();
const MapReduceApp& similarity_app();
const MapReduceApp& matrixmult_app();
const MapReduceApp& pageviewcount_app();
const MapReduceApp& pageviewrank_app();
const MapReduceApp& kmeans_app();

// Jobs of the chained apps (MapReduceApp::jobs): compiled and run like apps,
// not registered as apps of their own.
const MapReduceApp& pvc_dedup_job();
const MapReduceApp& pvc_count_job();
const MapReduceApp& pvr_rank_job();

// The apps users run (registered as AppInfo), in the papers' order.
const std::vector<const MapReduceApp*>& mapreduce_apps();
// Every program a runtime may build: the one-job apps and the jobs of the
// chained ones.
const std::vector<const MapReduceApp*>& mapreduce_programs();
// An app or a job by name; throws UsageError for an unknown name.
const MapReduceApp& find_mapreduce_app(const std::string& name);

}  // namespace harness::apps
