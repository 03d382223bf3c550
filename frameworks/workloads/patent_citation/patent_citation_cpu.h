// Patent Citation's CPU-MT baseline (patent_citation_cpu.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "frameworks/workloads/workload.h"

namespace harness::workloads::patent_citation {

// The citing patents of each cited patent, on `threads` threads; the input
// passed check_records.
std::unique_ptr<Output> group_citations(const std::uint8_t* data, std::size_t size,
                                        unsigned threads);

}  // namespace harness::workloads::patent_citation
