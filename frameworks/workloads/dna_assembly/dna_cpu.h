// DNA Assembly's CPU-MT implementation (dna_cpu.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "frameworks/workloads/dna_assembly/dna_part_table.h"

namespace harness::workloads::dna {

// Parts are split among kPartitions tables by their hash's top bits, so that
// a partition's table (a 1024th of the parts) stays in a core's cache.
inline constexpr unsigned kPartitionBits = 10;
inline constexpr std::size_t kPartitions = std::size_t{1} << kPartitionBits;

// The parts of the whole records of data[0, size) on `threads` threads: one
// table per partition, each part in the table of its partition.
std::vector<PartTable> count_parts_parallel(const std::uint8_t* data, std::size_t size,
                                            unsigned threads);

// Partial counts in slots (a GPU's per-chunk hash tables or their compacted
// rows; a slot whose count is 0 is empty): every part once, its counts added
// and its masks OR-ed, by the same two phases on `threads` threads.
std::vector<PartTable> combine_parts_parallel(const std::vector<std::span<const PartSlot>>& tables,
                                              unsigned threads);

}  // namespace harness::workloads::dna
