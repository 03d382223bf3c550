// The GPU memory budgets the SePo table's tests force iterations with.
#pragma once

#include <cstdint>

#include "frameworks/workloads/tests/family_point_testing.h"

namespace harness::testing {

// The budget that leaves what a roomy run (one iteration, under
// `roomy_budget`) had beside its heap, and a heap of `share` of the pages
// that run used, pages of `page` bytes (each also costs 8 B of free-list
// slot and flag), plus half a page of slack.
inline std::uint64_t sepo_budget_for(const PointRun& roomy, std::uint64_t roomy_budget,
                                     double share, double page) {
  const double page_bytes = page + 8;
  const double heap_pages = roomy.measurement.counters.at("heap_pages");
  const auto fixed =
      static_cast<std::uint64_t>(static_cast<double>(roomy_budget) - heap_pages * page_bytes);
  return fixed +
         static_cast<std::uint64_t>(roomy.measurement.counters.at("pages_used") * share *
                                    page_bytes) +
         static_cast<std::uint64_t>(page_bytes / 2);
}

}  // namespace harness::testing
