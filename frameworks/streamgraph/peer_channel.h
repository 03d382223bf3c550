// Device channels between pieces: between two GPUs, peer to peer (section
// 6.2's alternative to the host-staged FIFO), or between two pieces of one
// GPU. The producing piece's queue copies a channel's items of a block from
// its output buffer straight into a landing buffer on the consuming device
// (Queue::copy_peer), and the block's pipeline message carries the landing
// buffer instead of host items. Landing buffers come from a
// fixed pool per channel: a block holds one from the producer's copy until
// the consumer's kernel has read it, and the pipeline keeps at most
// `queue_blocks` blocks of a channel between two stages, so queue_blocks + 2
// buffers never run out.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "frameworks/streamgraph/graph.h"
#include "harness/backend/backend.h"

namespace harness::streamgraph {

class PeerChannel;

// One block's items of a peer channel, on the consuming device; returns its
// buffer to the pool when released.
class Landing {
 public:
  Landing(PeerChannel& owner, std::size_t slot, std::int64_t items)
      : owner_(owner), slot_(slot), items_(items) {}
  ~Landing();
  Landing(const Landing&) = delete;
  Landing& operator=(const Landing&) = delete;
  backend::Buffer& buffer();
  std::int64_t items() const { return items_; }  // the block's items (executions x steady)

 private:
  PeerChannel& owner_;
  std::size_t slot_;
  std::int64_t items_;
};

class PeerChannel {
 public:
  // Buffers of `max_items` 32-bit items on `to` (allocated here); `same_gpu`:
  // the two pieces run on one logical GPU.
  PeerChannel(ChannelId channel, backend::Device& from, backend::Device& to, backend::PeerCopy path,
              std::int64_t max_items, std::size_t buffers, bool same_gpu);
  ChannelId channel() const { return channel_; }
  bool same_gpu() const { return same_gpu_; }
  backend::Device& from() const { return from_; }
  backend::Device& to() const { return to_; }
  backend::PeerCopy path() const { return path_; }
  // A free landing buffer for a block of `items`; RunError when none is free
  // or the block is larger than the buffers.
  std::shared_ptr<Landing> acquire(std::int64_t items);

 private:
  friend class Landing;
  void release(std::size_t slot);

  ChannelId channel_;
  backend::Device& from_;
  backend::Device& to_;
  backend::PeerCopy path_;
  std::int64_t max_items_;
  bool same_gpu_;
  std::vector<backend::Buffer> buffers_;
  std::mutex mutex_;
  std::vector<std::size_t> free_;
};

}  // namespace harness::streamgraph
