// Host firing of operators (shared by the executors): FIFO channels in host
// memory and one operator firing on them. A runner owns one FIFO per channel
// of the graph; executors that run parts of a graph on several threads give
// each thread its own runner and hand items between them in blocks.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "frameworks/streamgraph/graph.h"
#include "harness/core/errors.h"

namespace harness::streamgraph {

// A channel's items in host memory: appended at the back, consumed from the
// front; consumed items are dropped once they are the larger half.
template <class T>
class Fifo {
 public:
  std::size_t size() const { return data_.size() - head_; }
  const T* front() const { return data_.data() + head_; }
  T* append(std::size_t n) {
    const std::size_t old = data_.size();
    data_.resize(old + n);
    return data_.data() + old;
  }
  void append(const T* items, std::size_t n) {
    if (n > 0) std::memcpy(append(n), items, n * sizeof(T));
  }
  void consume(std::size_t n) {
    head_ += n;
    if (head_ >= 1024 && head_ * 2 >= data_.size()) {
      data_.erase(data_.begin(), data_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  // Every item, moved out (the FIFO is left empty).
  std::vector<T> take_all() {
    if (head_ > 0) data_.erase(data_.begin(), data_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
    std::vector<T> out;
    out.swap(data_);
    return out;
  }

 private:
  std::vector<T> data_;
  std::size_t head_ = 0;
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

  void fire(NodeId v) {
    const Node& n = g_.node(v);
    ++firings_;
    switch (n.kind) {
      case NodeKind::filter: {
        const T* in = nullptr;
        Fifo<T>* src = nullptr;
        if (!n.inputs.empty()) {
          src = &fifo(n.inputs[0]);
          require(*src, static_cast<std::size_t>(n.filter.peek), v);
          in = src->front();
        }
        T* out = n.outputs.empty()
                     ? nullptr
                     : fifo(n.outputs[0]).append(static_cast<std::size_t>(n.filter.push));
        const auto& work = *work_[static_cast<std::size_t>(v)];
        if (!work) throw RunError("stream graph executor: '" + n.name + "' has no host work");
        work(in, out);
        if (src) src->consume(static_cast<std::size_t>(n.filter.pop));
        break;
      }
      case NodeKind::splitter: {
        Fifo<T>& src = fifo(n.inputs[0]);
        if (n.split == SplitKind::duplicate) {
          require(src, 1, v);
          const T item = src.front()[0];
          for (ChannelId c : n.outputs) fifo(c).append(1)[0] = item;
          src.consume(1);
        } else {
          for (std::size_t p = 0; p < n.outputs.size(); ++p) {
            const auto w = static_cast<std::size_t>(n.weights[p]);
            require(src, w, v);
            fifo(n.outputs[p]).append(src.front(), w);
            src.consume(w);
          }
        }
        break;
      }
      case NodeKind::joiner: {
        Fifo<T>& dst = fifo(n.outputs[0]);
        for (std::size_t p = 0; p < n.inputs.size(); ++p) {
          const auto w = static_cast<std::size_t>(n.weights[p]);
          Fifo<T>& src = fifo(n.inputs[p]);
          require(src, w, v);
          dst.append(src.front(), w);
          src.consume(w);
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

  const Graph& g_;
  std::vector<Fifo<T>> fifos_;
  std::vector<const std::function<void(const T*, T*)>*> work_;
  std::uint64_t firings_ = 0;
};

}  // namespace harness::streamgraph
