#include "frameworks/blocks/line_split.h"

#include "frameworks/blocks/cuda_programs.h"

namespace harness::blocks {

namespace {
constexpr std::uint32_t kGroup = 256;
// Bytes a work-item scans: its reads stay within a few cache lines, and the
// counts to scan are a 64th of the input.
constexpr std::uint32_t kSegment = 64;
}  // namespace

LineSplit::LineSplit(BufferPool& pool) : pool_(pool), scan_(pool) {
  program_ = pool_.device().build(
      program_source("blocks/line_split", {"frameworks/blocks/kernels/line_split.cl"}));
  count_ = program_->kernel("line_split_count");
  write_ = program_->kernel("line_split_write");
}

std::uint32_t LineSplit::split(const backend::Buffer& input, std::uint32_t size,
                               const std::string& name) {
  auto& q = pool_.device().queue();
  const std::uint32_t segments = (size + kSegment - 1) / kSegment;
  std::uint32_t lines = 0;
  if (segments > 0) {
    backend::Buffer& counts = pool_.get(name + ".counts", std::size_t{segments} * 4);
    q.launch(count_, backend::LaunchShape::cover(segments, kGroup), input, size, kSegment, segments,
             counts);
    // At most one line a byte: the total fits 32 bits (size < 2^32).
    lines = static_cast<std::uint32_t>(scan_.exclusive(counts, segments));
    starts_ = &pool_.get(name, (std::size_t{lines} + 1) * 4);
    q.launch(write_, backend::LaunchShape::cover(segments, kGroup), input, size, kSegment, segments,
             counts, lines, *starts_);
  } else {
    starts_ = &pool_.get(name, 4);
    q.fill_zero(*starts_, 0, 4);  // no line: the end, 0
  }
  return lines;
}

}  // namespace harness::blocks
