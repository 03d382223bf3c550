// Inverted Index's CPU-MT baseline (inverted_index_cpu.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "frameworks/workloads/workload.h"

namespace harness::workloads::inverted_index {

// The pages linking to each URL of data[0, size), on `threads` threads; the
// input passed for_each_link's check.
std::unique_ptr<Output> index_links(const std::uint8_t* data, std::size_t size, unsigned threads);

}  // namespace harness::workloads::inverted_index
