// One accessor per workload (each defined in <app>/<app>_workload.cpp).
#pragma once

#include "frameworks/workloads/workload.h"

namespace harness::workloads {

const Workload& wc_workload();
const Workload& upper_workload();
const Workload& grep_workload();
const Workload& patent_citation_workload();
const Workload& geo_location_workload();

}  // namespace harness::workloads
