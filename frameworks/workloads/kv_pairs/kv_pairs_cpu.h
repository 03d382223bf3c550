// kv-pairs' CPU-MT baseline (kv_pairs_cpu.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "frameworks/workloads/workload.h"

namespace harness::workloads::kv_pairs {

// Each key's values' first words, with their count and sum, on `threads`
// threads; the input passed read_layout. The output points into `data`.
std::unique_ptr<Output> group_pairs(const std::uint8_t* data, std::size_t size, unsigned threads);

}  // namespace harness::workloads::kv_pairs
