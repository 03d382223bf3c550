#include "frameworks/blocks/scan.h"

#include "frameworks/blocks/cuda_programs.h"

namespace harness::blocks {

namespace {
constexpr std::uint32_t kGroup = 256;
constexpr std::uint32_t kTile = 1024;
}  // namespace

Scan::Scan(BufferPool& pool) : pool_(pool) {
  program_ =
      pool_.device().build(program_source("blocks/scan", {"frameworks/blocks/kernels/scan.cl"}));
  tiles_ = program_->kernel("scan_tiles");
  add_ = program_->kernel("scan_add_offsets");
}

// Returns the total of the level (only read back at the top level).
std::uint32_t Scan::scan_level(backend::Buffer& data, std::uint32_t n, int level) {
  auto& q = pool_.device().queue();
  std::uint32_t tiles = (n + kTile - 1) / kTile;
  if (tiles == 0) tiles = 1;
  backend::Buffer& sums = pool_.get("scan.sums" + std::to_string(level), std::size_t{tiles} * 4);
  backend::Buffer& overflow = pool_.get("scan.overflow", 4);
  q.launch(tiles_, backend::LaunchShape{tiles, kGroup}, data, n, sums, overflow);
  if (tiles == 1) {
    std::uint32_t total = 0;
    q.read(&total, sums, 0, 4);
    q.read(&overflow_, overflow, 0, 4);
    q.finish();
    return total;
  }
  std::uint32_t total = scan_level(sums, tiles, level + 1);
  q.launch(add_, backend::LaunchShape::cover(n, kGroup), data, n, sums);
  return total;
}

std::uint64_t Scan::exclusive(backend::Buffer& data, std::uint32_t n) {
  if (n == 0) return 0;
  pool_.device().queue().fill_zero(pool_.get("scan.overflow", 4), 0, 4);
  const std::uint32_t total = scan_level(data, n, 0);
  return overflow_ ? kOverflow : total;
}

}  // namespace harness::blocks
