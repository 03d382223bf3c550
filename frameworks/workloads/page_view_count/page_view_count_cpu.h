// Page View Count's CPU-MT baseline (page_view_count_cpu.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "frameworks/workloads/workload.h"

namespace harness::workloads::page_view_count {

// The page views of each URL of data[0, size), on `threads` threads.
std::unique_ptr<Output> count_page_views(const std::uint8_t* data, std::size_t size,
                                         unsigned threads);

}  // namespace harness::workloads::page_view_count
