#include "frameworks/bigkernel/chunk_plan.h"

#include <algorithm>

#include "harness/core/errors.h"

namespace harness::bigkernel {

std::uint64_t records_per_chunk(std::uint64_t total_records, std::uint32_t lanes,
                                std::uint64_t available, const LaneBytes& lane_bytes,
                                std::uint64_t max_records) {
  const auto fits = [&](std::uint64_t records) {
    const std::uint64_t lane = lane_bytes(records);
    return lane <= available / std::max<std::uint32_t>(lanes, 1);
  };
  std::uint64_t hi = std::min(std::max<std::uint64_t>(total_records, 1), max_records);
  if (hi == 0 || !fits(1)) return 0;
  std::uint64_t lo = 1;  // fits
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid)) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

std::vector<Chunk> chunks(std::uint64_t total_records, std::uint64_t per_chunk) {
  if (per_chunk == 0 && total_records > 0) throw RunError("bigkernel: a chunk of 0 records");
  std::vector<Chunk> out;
  for (std::uint64_t first = 0; first < total_records; first += per_chunk) {
    out.push_back({first, std::min(per_chunk, total_records - first)});
  }
  return out;
}

}  // namespace harness::bigkernel
