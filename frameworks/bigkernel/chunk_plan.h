// How many whole records one chunk holds, from the device memory a point may
// take: every lane (queue) holds one chunk buffer and the app's buffers beside
// it (the written fields, a chunk's hash table), all from a BufferPool.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace harness::bigkernel {

// Device bytes a BufferPool allocation of `bytes` takes (BufferPool::get's slack).
inline std::uint64_t pool_bytes(std::uint64_t bytes) { return bytes + bytes / 8 + 256; }

// The device bytes one lane needs for a chunk of `records` records (the chunk
// buffer and the app's buffers, pool slack included); non-decreasing in records.
using LaneBytes = std::function<std::uint64_t(std::uint64_t records)>;

// The most records a chunk may hold so that `lanes` lanes fit `available`
// bytes, at most `total_records` and `max_records`; 0 when not even one record
// fits.
std::uint64_t records_per_chunk(std::uint64_t total_records, std::uint32_t lanes,
                                std::uint64_t available, const LaneBytes& lane_bytes,
                                std::uint64_t max_records);

// `records` a round, at most, made whole work-groups of `group` records, or a
// multiple of 8 below one (a coalesced segment of a round's values of one
// width then needs no padding), or as they are below 8.
inline std::uint64_t whole_groups_or_eights(std::uint64_t records, std::uint64_t group) {
  return records >= group ? records / group * group : records >= 8 ? records / 8 * 8 : records;
}

// A chunk: records [first, first + count) of the mapped array.
struct Chunk {
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};
// Chunks of `per_chunk` records over `total_records` (the last one shorter);
// none for an empty input.
std::vector<Chunk> chunks(std::uint64_t total_records, std::uint64_t per_chunk);

}  // namespace harness::bigkernel
