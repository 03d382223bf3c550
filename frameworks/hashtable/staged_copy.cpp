#include "frameworks/hashtable/staged_copy.h"

#include <algorithm>
#include <cstring>

#include "harness/core/parallel.h"

namespace harness::hashtable {
namespace {

// Host copies below this size stay on one thread.
constexpr std::uint64_t kBytesPerThread = std::uint64_t{1} << 20;

}  // namespace

StagedCopy::StagedCopy(backend::Device& device, std::uint64_t chunk_bytes)
    : chunk_bytes_(std::max<std::uint64_t>(chunk_bytes, 1)) {
  for (backend::HostBuffer& b : staging_)
    b = device.allocate_host(chunk_bytes_, backend::HostMemory::pinned);
}

void StagedCopy::copy(backend::Queue& q, const backend::Buffer& src,
                      const std::vector<Range>& ranges) {
  // Cut the ranges into chunks of at most chunk_bytes_, each from the first
  // byte not yet read.
  std::vector<Chunk> chunks;
  std::uint64_t read_to = 0;
  for (std::size_t r = 0; r < ranges.size();) {
    if (ranges[r].bytes == 0) {
      ++r;
      continue;
    }
    Chunk c;
    c.begin = std::max(read_to, ranges[r].offset);
    c.first = r;
    const std::uint64_t limit = c.begin + chunk_bytes_;
    bool cut = false;
    c.end = c.begin;
    while (r < ranges.size() && ranges[r].offset < limit) {
      const std::uint64_t range_end = ranges[r].offset + ranges[r].bytes;
      if (range_end > limit) {  // the rest in the next chunk
        c.end = limit;
        cut = true;
        break;
      }
      c.end = std::max(c.end, range_end);
      ++r;
    }
    c.last = cut ? r + 1 : r;
    read_to = c.end;
    chunks.push_back(c);
  }
  if (chunks.empty()) return;

  // The part of each range a chunk holds, copied out of the staging buffer
  // on the host's cores: thread t takes bytes [t, t + 1) x total / threads of
  // the chunk's parts laid end to end.
  const auto scatter = [&](const Chunk& c, const std::uint8_t* staged) {
    struct Part {
      const std::uint8_t* from;
      std::uint8_t* to;
      std::uint64_t bytes, before;  // `before`: the bytes of the parts before it
    };
    std::vector<Part> parts;
    std::uint64_t total = 0;
    for (std::size_t i = c.first; i < c.last; ++i) {
      const Range& r = ranges[i];
      const std::uint64_t begin = std::max(r.offset, c.begin);
      const std::uint64_t end = std::min(r.offset + r.bytes, c.end);
      if (end <= begin) continue;
      parts.push_back({staged + (begin - c.begin), r.to + (begin - r.offset), end - begin, total});
      total += end - begin;
    }
    if (total == 0) return;
    const unsigned threads = workers_for(total, 0, kBytesPerThread);
    parallel_for(threads, [&](unsigned t) {
      const std::uint64_t lo = total * t / threads, hi = total * (t + 1) / threads;
      auto p =
          std::upper_bound(parts.begin(), parts.end(), lo,
                           [](std::uint64_t at, const Part& part) { return at < part.before; });
      for (--p; p != parts.end() && p->before < hi; ++p) {
        const std::uint64_t from = std::max(lo, p->before) - p->before;
        const std::uint64_t to = std::min(hi, p->before + p->bytes) - p->before;
        if (to > from) std::memcpy(p->to + from, p->from + from, to - from);
      }
    });
  };

  // Chunk i + 1 is read into one staging buffer while chunk i is copied out
  // of the other.
  std::array<backend::Event, 2> read;
  const auto start = [&](std::size_t i) {
    read[i % 2] =
        q.read_async(staging_[i % 2], 0, src, chunks[i].begin, chunks[i].end - chunks[i].begin);
  };
  start(0);
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (i + 1 < chunks.size()) start(i + 1);
    read[i % 2].wait();
    scatter(chunks[i], static_cast<const std::uint8_t*>(staging_[i % 2].data()));
  }
}

}  // namespace harness::hashtable
