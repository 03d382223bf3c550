// The thesis workloads compiled into this binary, registered as apps of kind
// "workload" (harness/suite/register_all.cpp).
#pragma once

#include <string>
#include <vector>

#include "frameworks/workloads/workload.h"

namespace harness::workloads {

// In the thesis' order (table 4.1, table 5.1, table 6.1).
const std::vector<const Workload*>& thesis_workloads();
// Throws UsageError naming the known workloads.
const Workload& find_workload(const std::string& name);

}  // namespace harness::workloads
