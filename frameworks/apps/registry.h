// The MapReduce apps compiled into this binary.
#pragma once

#include <string>
#include <vector>

#include "frameworks/apps/mapreduce_app.h"

namespace harness::apps {

const MapReduceApp& wordcount_app();
const MapReduceApp& stringmatch_app();
const MapReduceApp& invertedindex_app();

const std::vector<const MapReduceApp*>& mapreduce_apps();
// Throws UsageError for an unknown name.
const MapReduceApp& find_mapreduce_app(const std::string& name);

}  // namespace harness::apps
