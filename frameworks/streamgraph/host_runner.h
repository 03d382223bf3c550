// Host firing of operators (shared by the executors): FIFO channels in host
// memory and one operator firing on them. A runner owns one FIFO per channel
// of the graph; executors that run parts of a graph on several threads give
// each thread its own runner and hand items between them in blocks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "frameworks/streamgraph/graph.h"
#include "harness/core/errors.h"

namespace harness::streamgraph {

// A channel's items in host memory: appended at the back, consumed from the
// front. Appended room is not zero-filled (the firing writes it); consumed
// items are dropped, by moving the live ones down, once they are the larger
// half of the buffer.
template <class T>
class Fifo {
  static_assert(std::is_trivially_copyable_v<T>, "FIFO items are copied with memcpy");

 public:
  std::size_t size() const { return end_ - head_; }
  const T* front() const { return data_.get() + head_; }
  T* append(std::size_t n) {
    if (end_ + n > capacity_) make_room(n);
    T* at = data_.get() + end_;
    end_ += n;
    return at;
  }
  void append(const T* items, std::size_t n) {
    if (n > 0) std::memcpy(append(n), items, n * sizeof(T));
  }
  void consume(std::size_t n) {
    head_ += n;
    if (head_ == end_) head_ = end_ = 0;
  }
  // Every item, moved out (the FIFO is left empty).
  std::vector<T> take_all() {
    std::vector<T> out(front(), front() + size());
    head_ = end_ = 0;
    return out;
  }

 private:
  void make_room(std::size_t n) {
    const std::size_t live = size();
    if (head_ > 0 && live + n <= capacity_ && head_ >= live) {
      std::memmove(data_.get(), front(), live * sizeof(T));
    } else {
      const std::size_t capacity = std::max<std::size_t>({64, 2 * capacity_, live + n});
      std::unique_ptr<T[]> grown(new T[capacity]);
      if (live > 0) std::memcpy(grown.get(), front(), live * sizeof(T));
      data_ = std::move(grown);
      capacity_ = capacity;
    }
    head_ = 0;
    end_ = live;
  }

  std::unique_ptr<T[]> data_;
  std::size_t capacity_ = 0;
  std::size_t head_ = 0;
  std::size_t end_ = 0;
};

template <class T>
class HostRunner {
 public:
  explicit HostRunner(const Graph& g) : g_(g), fifos_(static_cast<std::size_t>(g.channel_count())) {
    for (const Node& n : g.nodes()) {
      if (n.kind == NodeKind::filter) {
        work_.push_back(&n.filter.work.template get<T>());
      } else {
        work_.push_back(nullptr);
      }
    }
  }

  // `count` consecutive firings of v. Splitters and joiners move the items of
  // all of them in one pass, and a filter's input is checked once: a duplicate
  // splitter fires once per item, so firing it item by item would make a
  // graph's host run cost a dispatch per item it copies.
  void fire(NodeId v, std::int64_t count = 1) {
    if (count <= 0) return;
    const Node& n = g_.node(v);
    const auto times = static_cast<std::size_t>(count);
    firings_ += times;
    switch (n.kind) {
      case NodeKind::filter: {
        const auto pop = static_cast<std::size_t>(n.filter.pop);
        const auto push = static_cast<std::size_t>(n.filter.push);
        const T* in = nullptr;
        Fifo<T>* src = nullptr;
        if (!n.inputs.empty()) {
          src = &fifo(n.inputs[0]);
          require(*src, (times - 1) * pop + static_cast<std::size_t>(n.filter.peek), v);
          in = src->front();
        }
        T* out = n.outputs.empty() ? nullptr : fifo(n.outputs[0]).append(times * push);
        const auto& work = *work_[static_cast<std::size_t>(v)];
        if (!work) throw RunError("stream graph executor: '" + n.name + "' has no host work");
        for (std::size_t k = 0; k < times; ++k) {
          work(in ? in + k * pop : nullptr, out ? out + k * push : nullptr);
        }
        if (src) src->consume(times * pop);
        break;
      }
      case NodeKind::splitter: {
        Fifo<T>& src = fifo(n.inputs[0]);
        if (n.split == SplitKind::duplicate) {
          require(src, times, v);
          for (ChannelId c : n.outputs) fifo(c).append(src.front(), times);
          src.consume(times);
        } else {
          const auto round = static_cast<std::size_t>(g_.pop_rate(v, 0));
          require(src, times * round, v);
          std::size_t offset = 0;
          for (std::size_t p = 0; p < n.outputs.size(); ++p) {
            const auto w = static_cast<std::size_t>(n.weights[p]);
            T* dst = fifo(n.outputs[p]).append(times * w);
            for (std::size_t k = 0; k < times; ++k)
              copy_items(src.front() + k * round + offset, dst + k * w, w);
            offset += w;
          }
          src.consume(times * round);
        }
        break;
      }
      case NodeKind::joiner: {
        const auto round = static_cast<std::size_t>(g_.push_rate(v, 0));
        T* dst = fifo(n.outputs[0]).append(times * round);
        std::size_t offset = 0;
        for (std::size_t p = 0; p < n.inputs.size(); ++p) {
          const auto w = static_cast<std::size_t>(n.weights[p]);
          Fifo<T>& src = fifo(n.inputs[p]);
          require(src, times * w, v);
          for (std::size_t k = 0; k < times; ++k)
            copy_items(src.front() + k * w, dst + k * round + offset, w);
          src.consume(times * w);
          offset += w;
        }
        break;
      }
    }
  }

  Fifo<T>& fifo(ChannelId c) { return fifos_[static_cast<std::size_t>(c)]; }
  std::uint64_t firings() const { return firings_; }
  void add_firings(std::uint64_t n) { firings_ += n; }

 private:
  void require(const Fifo<T>& f, std::size_t items, NodeId v) const {
    if (f.size() < items) {
      throw RunError("stream graph executor: '" + g_.node(v).name + "' needs " +
                     std::to_string(items) + " items, its input holds " + std::to_string(f.size()) +
                     " (schedule does not match the graph)");
    }
  }

  static void copy_items(const T* from, T* to, std::size_t n) {
    if (n > 0) std::memcpy(to, from, n * sizeof(T));
  }

  const Graph& g_;
  std::vector<Fifo<T>> fifos_;
  std::vector<const std::function<void(const T*, T*)>*> work_;
  std::uint64_t firings_ = 0;
};

}  // namespace harness::streamgraph
