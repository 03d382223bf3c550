// Opinion Finder's CPU-MT implementation (opinion_cpu.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "frameworks/workloads/opinion_finder/opinion_format.h"

namespace harness::workloads::opinion {

// The tally of the whole records of data[0, size) on `threads` threads;
// keywords as parse_subject returns them.
Tally tally_parallel(const std::vector<std::string>& keywords, const std::uint8_t* data,
                     std::size_t size, unsigned threads);

}  // namespace harness::workloads::opinion
