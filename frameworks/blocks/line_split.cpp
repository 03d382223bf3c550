#include "frameworks/blocks/line_split.h"

#include "frameworks/blocks/cuda_programs.h"

namespace harness::blocks {

namespace {
constexpr std::uint32_t kGroup = 256;
// Bytes a work-item scans: its reads stay within a few cache lines, and the
// counts to scan are a 64th of the input.
constexpr std::uint32_t kSegment = 64;

std::uint64_t segments_of(std::uint64_t size) { return (size + kSegment - 1) / kSegment; }
}  // namespace

LineSplit::LineSplit(BufferPool& pool) : pool_(pool), scan_(pool) {
  program_ = pool_.device().build(
      program_source("blocks/line_split", {"frameworks/blocks/kernels/line_split.cl"}));
  count_ = program_->kernel("line_split_count");
  write_ = program_->kernel("line_split_write");
}

std::uint64_t LineSplit::pool_bytes(std::uint64_t size) {
  // The counts (4 B a segment, and the pool's slack: an eighth and 256 B),
  // and the scan's sums: a 64th of the counts and a few KiB of slack (the
  // bound the hash table's packing also uses).
  const std::uint64_t segments = segments_of(size);
  return segments * 4 + segments / 2 + 256 + segments / 64 + 8192;
}

std::uint32_t LineSplit::count(const backend::Buffer& input, std::uint32_t size, bool skip_empty,
                               backend::Buffer& counts) {
  const auto segments = static_cast<std::uint32_t>(segments_of(size));
  pool_.device().queue().launch(count_, backend::LaunchShape::cover(segments, kGroup), input, size,
                                kSegment, segments, std::uint32_t{skip_empty}, counts);
  // At most one line a byte: the total fits 32 bits (size < 2^32).
  return static_cast<std::uint32_t>(scan_.exclusive(counts, segments));
}

std::uint32_t LineSplit::split(const backend::Buffer& input, std::uint32_t size,
                               const std::string& name) {
  auto& q = pool_.device().queue();
  const auto segments = static_cast<std::uint32_t>(segments_of(size));
  std::uint32_t lines = 0;
  if (segments > 0) {
    backend::Buffer& counts = pool_.get(name + ".counts", std::size_t{segments} * 4);
    lines = count(input, size, false, counts);
    starts_ = &pool_.get(name, (std::size_t{lines} + 1) * 4);
    q.launch(write_, backend::LaunchShape::cover(segments, kGroup), input, size, kSegment, segments,
             std::uint32_t{0}, counts, lines, std::uint32_t{0}, *starts_);
  } else {
    starts_ = &pool_.get(name, 4);
    q.fill_zero(*starts_, 0, 4);  // no line: the end, 0
  }
  return lines;
}

std::uint32_t LineSplit::split_wide(const backend::Buffer& input, std::uint32_t size,
                                    bool skip_empty, backend::Buffer& starts,
                                    std::uint64_t capacity) {
  auto& q = pool_.device().queue();
  const auto segments = static_cast<std::uint32_t>(segments_of(size));
  if (segments == 0) {
    const std::uint64_t end = 0;  // no line: the end, 0
    if (capacity >= 1) q.write(starts, 0, &end, 8);
    return 0;
  }
  backend::Buffer& counts = pool_.get("line_split_wide.counts", std::size_t{segments} * 4);
  const std::uint32_t lines = count(input, size, skip_empty, counts);
  if (std::uint64_t{lines} + 1 > capacity) return lines;
  q.launch(write_, backend::LaunchShape::cover(segments, kGroup), input, size, kSegment, segments,
           std::uint32_t{skip_empty}, counts, lines, std::uint32_t{1}, starts);
  q.finish();
  return lines;
}

}  // namespace harness::blocks
