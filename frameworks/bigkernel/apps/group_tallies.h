// Apps whose answer is a few numbers (wc, opinion-finder): each work-group of
// a chunk's launch writes one tally of `words` u32 to a device buffer of its
// lane, copied back into a pinned host region per chunk and added on the host
// after the run. What their AppKernels share of it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frameworks/bigkernel/app_kernel.h"
#include "frameworks/blocks/pinned_array.h"

namespace harness::bigkernel {

class GroupTallies {
 public:
  explicit GroupTallies(std::uint32_t words) : words_(words) {}

  // Work-groups of a launch over `records` records.
  static std::uint64_t groups(std::uint64_t records) {
    return launch_threads(records) / kGroupSize;
  }
  // Device bytes a launch over `records` records needs (AppKernel::side_bytes).
  std::uint64_t side_bytes(std::uint64_t records) const;
  // Once the device is known (AppKernel::prepare_app).
  void prepare(backend::Device& device) { host_.emplace(device); }
  // A run's chunks, at most `per_chunk` records each (AppKernel::begin_run).
  void begin_run(const std::vector<Chunk>& chunks, std::uint64_t per_chunk);
  // The device buffer of `lane` for chunk `c`'s launch.
  backend::Buffer& device_buffer(blocks::BufferPool& pool, std::uint32_t lane,
                                 const Chunk& c) const;
  // Queues the copy of chunk `index`'s tallies back (in span "copy_out").
  void copy_back(backend::Queue& q, const backend::Buffer& tallies, std::size_t index,
                 const Chunk& c);
  // fn(chunk, tally) for every work-group's tally of the run, after it.
  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (std::size_t i = 0; i < chunks_.size(); ++i) {
      const std::uint32_t* tally = host_->data() + i * stride_ * words_;
      for (std::uint64_t g = 0; g < groups(chunks_[i].count); ++g, tally += words_)
        fn(chunks_[i], tally);
    }
  }
  // The persistent kernel (persistent.h): the device pointer of the host
  // region, where a pass's virtual work-group g writes its tally at g x words
  // (its rounds are the chunks, each a whole number of work-groups).
  std::uint32_t* persistent_region() {
    return static_cast<std::uint32_t*>(persistent_device_pointer(host_->data()));
  }
  const std::vector<Chunk>& chunks() const { return chunks_; }
  std::uint64_t copied_out() const { return copied_out_; }
  std::string copy_out_ceiling() const;

 private:
  std::uint32_t words_;
  std::optional<blocks::PinnedArray<std::uint32_t>> host_;
  std::vector<Chunk> chunks_;
  std::uint64_t stride_ = 0;  // tallies a chunk's region holds
  std::uint64_t copied_out_ = 0;
};

}  // namespace harness::bigkernel
