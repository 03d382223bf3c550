#include "frameworks/blocks/record_offsets.h"

#include "frameworks/blocks/cuda_programs.h"
#include "harness/core/errors.h"

namespace harness::blocks {

RecordOffsets::RecordOffsets(BufferPool& pool) : pool_(pool) {
  program_ = pool_.device().build(
      program_source("blocks/record_offsets", {"frameworks/blocks/kernels/record_offsets.cl"}));
  strided_ = program_->kernel("record_offsets_strided");
}

backend::Buffer& RecordOffsets::write(std::uint32_t first, std::uint32_t stride,
                                      std::uint32_t count, const std::string& name) {
  if (std::uint64_t{first} + std::uint64_t{stride} * count > 0xffffffffULL) {
    throw RunError("record offsets: " + std::to_string(count) + " records of " +
                   std::to_string(stride) + " bytes from byte " + std::to_string(first) +
                   " end past the 4 GiB of 32-bit offsets");
  }
  backend::Buffer& offsets = pool_.get(name, (std::size_t{count} + 1) * 4);
  pool_.device().queue().launch(strided_,
                                backend::LaunchShape::cover(std::uint64_t{count} + 1, 256), first,
                                stride, count, offsets);
  return offsets;
}

}  // namespace harness::blocks
