#include "frameworks/blocks/pipeline.h"

#include <algorithm>

#include "harness/core/errors.h"

namespace harness::blocks {

CopyComputePipeline::CopyComputePipeline(backend::Device& device, BufferPool& pool,
                                         std::string name)
    : device_(device), pool_(pool), name_(std::move(name)) {}

void CopyComputePipeline::set_lanes(std::uint32_t lanes) {
  if (lanes == 0) throw UsageError(name_ + ": a pipeline needs at least one lane");
  while (lanes_.size() < lanes) lanes_.push_back(device_.create_queue());
  lanes_.resize(lanes);
}

CopyComputePipeline::Busy CopyComputePipeline::run(const std::uint8_t* host,
                                                   const std::vector<Piece>& pieces,
                                                   const Compute& compute,
                                                   const std::string& compute_span) {
  if (lanes_.empty()) set_lanes(1);
  std::size_t longest = 1;
  for (const Piece& p : pieces) longest = std::max(longest, p.bytes);
  // One buffer per lane, reused by the lane's pieces in queue order.
  std::vector<backend::Buffer*> buffers;
  for (std::size_t l = 0; l < lanes_.size(); ++l) {
    buffers.push_back(&pool_.get(name_ + ".lane" + std::to_string(l), longest));
  }
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    backend::Queue& q = *lanes_[i % lanes_.size()];
    backend::Buffer& buffer = *buffers[i % lanes_.size()];
    q.begin_span("copy_in");
    if (pieces[i].bytes > 0) q.write(buffer, 0, host + pieces[i].offset, pieces[i].bytes);
    q.end_span();
    q.begin_span(compute_span);
    compute(q, buffer, i);
    q.end_span();
  }
  Busy busy;
  for (auto& lane : lanes_) {
    for (const auto& s : lane->take_spans()) {  // finishes the lane
      (s.name == "copy_in"    ? busy.copy_ms
       : s.name == "copy_out" ? busy.copy_out_ms
                              : busy.compute_ms) += s.milliseconds;
    }
  }
  return busy;
}

std::vector<CopyComputePipeline::Piece> CopyComputePipeline::cut(
    std::size_t size, std::size_t nominal, const std::function<std::size_t(std::size_t)>& cut) {
  if (nominal == 0) throw UsageError("pipeline: pieces need a nominal size of at least 1 byte");
  std::vector<Piece> pieces;
  for (std::size_t b = 0; b < size;) {
    const std::size_t want = b + std::min(nominal, size - b);
    std::size_t e = cut ? cut(want) : want;
    if (e <= b || e > size) {
      throw RunError("pipeline: the cut after byte " + std::to_string(want) + " returned " +
                     std::to_string(e) + ", outside (" + std::to_string(b) + ", " +
                     std::to_string(size) + "]");
    }
    pieces.push_back({b, e - b});
    b = e;
  }
  return pieces;
}

}  // namespace harness::blocks
