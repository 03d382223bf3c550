#include "frameworks/mapreduce/apps/records.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "frameworks/mapreduce/apps/mapreduce_app.h"
#include "harness/core/cuts.h"
#include "harness/core/errors.h"
#include "harness/core/host_cores.h"
#include "harness/core/line_pieces.h"
#include "harness/core/parallel.h"

namespace harness::apps {
namespace {

// Appends the start offsets of the records in [begin, end); begin is a line start.
void split_range(const std::uint8_t* data, std::size_t begin, std::size_t end, std::size_t max,
                 bool (*can_cut)(std::uint8_t, std::uint8_t), std::vector<std::uint32_t>& out) {
  out.reserve((end - begin) / 64 + 1);
  std::size_t start = begin;
  while (start < end) {
    const std::size_t window = max ? std::min(end - start, max) : end - start;
    const void* nl = std::memchr(data + start, '\n', window);
    std::size_t stop;
    if (nl) {
      stop = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nl) - data) + 1;
    } else {
      stop = start + window;
      while (stop < end && can_cut && !can_cut(data[stop - 1], data[stop])) ++stop;
    }
    out.push_back(static_cast<std::uint32_t>(start));
    start = stop;
  }
}

}  // namespace

std::vector<std::uint32_t> split_lines(const std::uint8_t* data, std::size_t size,
                                       std::size_t max_record_bytes,
                                       bool (*can_cut)(std::uint8_t, std::uint8_t)) {
  std::vector<std::uint32_t> offsets;
  append_over_line_pieces(
      data, size,
      [&](std::size_t begin, std::size_t end, std::vector<std::uint32_t>& part) {
        split_range(data, begin, end, max_record_bytes, can_cut, part);
      },
      offsets);
  offsets.push_back(static_cast<std::uint32_t>(size));
  return offsets;
}

std::vector<std::uint32_t> reserve_task_records(const std::string& app, std::uint64_t count,
                                                std::uint64_t end) {
  if (count >= kMaxInputBytes || end >= kMaxInputBytes) {
    throw RunError(fmt::format(
        "{}: {} tasks (codes up to {}) do not fit the 32-bit record offsets (at most {})", app,
        count, end, kMaxInputBytes - 1));
  }
  std::vector<std::uint32_t> codes;
  codes.reserve(count + 1);
  return codes;
}

void parallel_blocks(std::size_t count, const std::function<void(std::size_t, std::size_t)>& fn) {
  const auto threads = static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(harness::usable_cores(), count)));
  parallel_for(threads, [&](unsigned t) { fn(count * t / threads, count * (t + 1) / threads); });
}

}  // namespace harness::apps
