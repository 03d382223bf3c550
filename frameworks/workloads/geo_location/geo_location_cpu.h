// Geo Location's CPU-MT baseline (geo_location_cpu.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "frameworks/workloads/workload.h"

namespace harness::workloads::geo_location {

// The article ids of each location, on `threads` threads; the input passed
// for_each_article's checks.
std::unique_ptr<Output> group_articles(const std::uint8_t* data, std::size_t size,
                                       unsigned threads);

}  // namespace harness::workloads::geo_location
