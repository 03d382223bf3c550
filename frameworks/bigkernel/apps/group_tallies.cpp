#include "frameworks/bigkernel/apps/group_tallies.h"

#include "frameworks/bigkernel/apps/app_kernels.h"
#include "frameworks/bigkernel/chunk_plan.h"

namespace harness::bigkernel {

std::uint64_t GroupTallies::side_bytes(std::uint64_t records) const {
  return pool_bytes(groups(records) * words_ * 4);
}

void GroupTallies::begin_run(const std::vector<Chunk>& chunks, std::uint64_t per_chunk) {
  stride_ = groups(per_chunk);
  host_->resize(chunks.size() * stride_ * words_);
  chunks_ = chunks;
  copied_out_ = 0;
}

backend::Buffer& GroupTallies::device_buffer(blocks::BufferPool& pool, std::uint32_t lane,
                                             const Chunk& c) const {
  return pool.get("bk.tallies.lane" + std::to_string(lane), groups(c.count) * words_ * 4);
}

void GroupTallies::copy_back(backend::Queue& q, const backend::Buffer& tallies, std::size_t index,
                             const Chunk& c) {
  const std::uint64_t bytes = groups(c.count) * words_ * 4;
  q.begin_span("copy_out");
  q.read_async(host_->host_buffer(), index * stride_ * words_ * 4, tallies, 0, bytes);
  copied_out_ += bytes;
}

std::string GroupTallies::copy_out_ceiling() const { return d2h_ceiling(host_->kind()); }

}  // namespace harness::bigkernel
