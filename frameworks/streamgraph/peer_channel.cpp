#include "frameworks/streamgraph/peer_channel.h"

#include <fmt/format.h>

#include "harness/core/errors.h"

namespace harness::streamgraph {

Landing::~Landing() { owner_.release(slot_); }

backend::Buffer& Landing::buffer() { return owner_.buffers_[slot_]; }

PeerChannel::PeerChannel(ChannelId channel, backend::Device& from, backend::Device& to,
                         backend::PeerCopy path, std::int64_t max_items, std::size_t buffers,
                         bool same_gpu)
    : channel_(channel),
      from_(from),
      to_(to),
      path_(path),
      max_items_(max_items),
      same_gpu_(same_gpu) {
  if (path == backend::PeerCopy::none)
    throw UsageError(fmt::format("stream graph: channel {} cannot be copied from {} to {}", channel,
                                 from.info().name, to.info().name));
  for (std::size_t i = 0; i < buffers; ++i) {
    buffers_.push_back(
        to.allocate(static_cast<std::size_t>(std::max<std::int64_t>(1, max_items)) * 4));
    free_.push_back(buffers - 1 - i);
  }
}

std::shared_ptr<Landing> PeerChannel::acquire(std::int64_t items) {
  if (items > max_items_)
    throw RunError(fmt::format(
        "stream graph peer channel {}: a block of {} items is larger than its buffers ({})",
        channel_, items, max_items_));
  std::lock_guard lock(mutex_);
  if (free_.empty())
    throw RunError(fmt::format("stream graph peer channel {}: all {} landing buffers are in use",
                               channel_, buffers_.size()));
  const std::size_t slot = free_.back();
  free_.pop_back();
  return std::make_shared<Landing>(*this, slot, items);
}

void PeerChannel::release(std::size_t slot) {
  std::lock_guard lock(mutex_);
  free_.push_back(slot);
}

}  // namespace harness::streamgraph
