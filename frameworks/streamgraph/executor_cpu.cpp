#include "frameworks/streamgraph/executor_cpu.h"

#include <chrono>
#include <cstring>

#include "harness/core/errors.h"

namespace harness::streamgraph {

namespace {

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
  void consume(std::size_t n) {
    head_ += n;
    if (head_ >= 1024 && head_ * 2 >= data_.size()) {
      data_.erase(data_.begin(), data_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

 private:
  std::vector<T> data_;
  std::size_t head_ = 0;
};

template <class T>
class Runner {
 public:
  explicit Runner(const Graph& g) : g_(g), fifos_(static_cast<std::size_t>(g.channel_count())) {
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
        (*work_[static_cast<std::size_t>(v)])(in, out);
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
            std::memcpy(fifo(n.outputs[p]).append(w), src.front(), w * sizeof(T));
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
          std::memcpy(dst.append(w), src.front(), w * sizeof(T));
          src.consume(w);
        }
        break;
      }
    }
  }

  std::uint64_t firings() const { return firings_; }

 private:
  Fifo<T>& fifo(ChannelId c) { return fifos_[static_cast<std::size_t>(c)]; }
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

template <class T>
CpuRunResult run_typed(const Graph& g, const Schedule& s, std::int64_t iterations) {
  const auto t0 = std::chrono::steady_clock::now();
  Runner<T> runner(g);
  for (NodeId v : s.order) {
    for (std::int64_t k = 0; k < s.init_firings[static_cast<std::size_t>(v)]; ++k) runner.fire(v);
  }
  for (std::int64_t it = 0; it < iterations; ++it) {
    for (NodeId v : s.order) {
      for (std::int64_t k = 0; k < s.repetitions[static_cast<std::size_t>(v)]; ++k) runner.fire(v);
    }
  }
  CpuRunResult r;
  r.iterations = iterations;
  r.firings = runner.firings();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

CpuRunResult run_sequential(const Graph& g, const Schedule& s, std::int64_t iterations) {
  return g.item_type() == ItemType::f32 ? run_typed<float>(g, s, iterations)
                                        : run_typed<std::uint32_t>(g, s, iterations);
}

}  // namespace harness::streamgraph
