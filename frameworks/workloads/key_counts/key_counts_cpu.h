// key-counts' CPU-MT implementation: a radix-partitioned hash aggregation
// (radix_aggregate.h, shared with netflix). Each thread scatters the keys of
// its own contiguous range to its buffers of the keys' hash partitions (8
// bytes a key); each partition is then counted by one thread in an
// open-addressing table sized for it (linear probing, 16-byte slots, at most
// 2/3 full, a count of 0 marking a free slot, so every key value, 2^64 - 1
// included, is a key), whose rows go to the partition's own range of the
// output's storage.
#pragma once

#include <cstddef>
#include <cstdint>

#include "frameworks/workloads/key_counts/key_counts_output.h"

namespace harness::workloads::key_counts {

// Fills `out` with the count of every distinct key of keys[0, count), in
// pieces (one per hash partition), on `threads` >= 1 threads.
void count_keys_parallel(const std::uint64_t* keys, std::size_t count, unsigned threads,
                         KeyCountsOutput& out);

}  // namespace harness::workloads::key_counts
