#include "frameworks/blocks/dense_ids.h"

#include "frameworks/blocks/cuda_programs.h"

namespace harness::blocks {

namespace {
constexpr std::uint32_t kGroup = 256;
}  // namespace

DenseIds::DenseIds(BufferPool& pool) : pool_(pool), scan_(pool) {
  program_ = pool_.device().build(
      program_source("blocks/dense_ids", {"frameworks/blocks/kernels/dense_ids.cl"}));
  mark_ = program_->kernel("dense_ids_mark");
  renumber_ = program_->kernel("dense_ids_renumber");
  compact_ = program_->kernel("dense_ids_compact");
}

std::uint32_t DenseIds::number(const backend::Buffer& keys, std::uint32_t count, std::uint32_t n) {
  auto& q = pool_.device().queue();
  n_ = n;
  ids_ = &pool_.get("dense_ids.ids", (std::size_t{n} + 1) * 4);
  q.fill_zero(*ids_, 0, (std::size_t{n} + 1) * 4);
  if (count > 0) q.launch(mark_, backend::LaunchShape::cover(count, kGroup), keys, count, *ids_);
  // At most n ids are used: the total fits 32 bits.
  return static_cast<std::uint32_t>(scan_.exclusive(*ids_, n + 1));
}

void DenseIds::renumber(backend::Buffer& keys, std::uint32_t count) {
  if (count == 0) return;
  pool_.device().queue().launch(renumber_, backend::LaunchShape::cover(count, kGroup), keys, count,
                                *ids_);
}

void DenseIds::compact(const backend::Buffer& items, std::uint32_t words, backend::Buffer& out) {
  if (n_ == 0) return;
  pool_.device().queue().launch(compact_, backend::LaunchShape::cover(n_, kGroup), items, words, n_,
                                *ids_, out);
}

}  // namespace harness::blocks
