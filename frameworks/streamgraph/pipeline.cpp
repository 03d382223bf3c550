#include "frameworks/streamgraph/pipeline.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <queue>
#include <thread>

#include "frameworks/streamgraph/host_runner.h"
#include "harness/core/errors.h"

namespace harness::streamgraph {

namespace {

struct Stopped {};  // thrown inside a stage when another stage failed

// One block of a channel between stages: its host items and, for channels
// whose items stay on a device, the attachment that holds them.
template <class T>
struct Block {
  std::vector<T> items;
  std::shared_ptr<void> attachment;
};

// A bounded FIFO of blocks between two stages.
template <class T>
class BlockQueue {
 public:
  explicit BlockQueue(std::size_t capacity) : capacity_(std::max<std::size_t>(capacity, 1)) {}
  void push(Block<T> block) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return closed_ || blocks_.size() < capacity_; });
    if (closed_) throw Stopped{};
    blocks_.push_back(std::move(block));
    not_empty_.notify_one();
  }
  Block<T> pop() {
    std::unique_lock lock(mutex_);
    not_empty_.wait(lock, [&] { return closed_ || !blocks_.empty(); });
    if (closed_) throw Stopped{};
    Block<T> block = std::move(blocks_.front());
    blocks_.pop_front();
    not_full_.notify_one();
    return block;
  }
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    not_full_.notify_all();
    not_empty_.notify_all();
  }

 private:
  std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable not_full_, not_empty_;
  std::deque<Block<T>> blocks_;
  bool closed_ = false;
};

template <class T>
class RunnerAccess final : public ChannelAccess {
 public:
  explicit RunnerAccess(HostRunner<T>& r) : r_(r) {}
  std::size_t size(ChannelId c) override { return r_.fifo(c).size(); }
  const void* front(ChannelId c) override { return r_.fifo(c).front(); }
  void consume(ChannelId c, std::size_t items) override { r_.fifo(c).consume(items); }
  void append(ChannelId c, const void* items, std::size_t count) override {
    r_.fifo(c).append(static_cast<const T*>(items), count);
  }
  void attach(ChannelId c, std::shared_ptr<void> a) override { attached_[c] = std::move(a); }
  std::shared_ptr<void> take_attachment(ChannelId c) override {
    auto it = attached_.find(c);
    if (it == attached_.end()) return nullptr;
    std::shared_ptr<void> a = std::move(it->second);
    attached_.erase(it);
    return a;
  }

 private:
  HostRunner<T>& r_;
  std::map<ChannelId, std::shared_ptr<void>> attached_;
};

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

struct UnitInfo {
  std::vector<NodeId> nodes;               // in the schedule's order
  std::vector<ChannelId> inputs, outputs;  // channels from/to other stages
};

// Units in a topological order of the unit graph (ties: earliest first node).
std::vector<int> unit_order(const Graph& g, const Schedule& s, const PipelinePlan& plan,
                            const std::vector<int>& unit_of) {
  const auto k = plan.units.size();
  std::vector<std::vector<int>> succ(k);
  std::vector<int> indegree(k, 0);
  for (const Channel& c : g.channels()) {
    const int a = unit_of[static_cast<std::size_t>(c.src)];
    const int b = unit_of[static_cast<std::size_t>(c.dst)];
    if (a == b) continue;
    succ[static_cast<std::size_t>(a)].push_back(b);
    ++indegree[static_cast<std::size_t>(b)];
  }
  std::vector<int> first(k, 1 << 30);
  for (std::size_t u = 0; u < k; ++u) {
    for (NodeId v : plan.units[u].nodes)
      first[u] = std::min(first[u], s.position[static_cast<std::size_t>(v)]);
  }
  using Item = std::pair<int, int>;  // (first position, unit)
  std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
  for (std::size_t u = 0; u < k; ++u) {
    if (indegree[u] == 0) ready.emplace(first[u], static_cast<int>(u));
  }
  std::vector<int> order;
  while (!ready.empty()) {
    const int u = ready.top().second;
    ready.pop();
    order.push_back(u);
    for (int w : succ[static_cast<std::size_t>(u)]) {
      if (--indegree[static_cast<std::size_t>(w)] == 0)
        ready.emplace(first[static_cast<std::size_t>(w)], w);
    }
  }
  if (order.size() != k)
    throw UsageError("stream graph pipeline: the units feed each other in a cycle");
  return order;
}

template <class T>
PipelineResult run_typed(const Graph& g, const Schedule& s, const PipelinePlan& plan,
                         const PipelineOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto n = static_cast<std::size_t>(g.node_count());
  std::vector<int> unit_of(n, -1);
  int stages = 0;
  for (std::size_t u = 0; u < plan.units.size(); ++u) {
    if (plan.units[u].stage < 0) throw UsageError("stream graph pipeline: a unit has no stage");
    stages = std::max(stages, plan.units[u].stage + 1);
    for (NodeId v : plan.units[u].nodes) {
      if (v < 0 || static_cast<std::size_t>(v) >= n || unit_of[static_cast<std::size_t>(v)] >= 0)
        throw UsageError("stream graph pipeline: the units do not cover the graph exactly once");
      unit_of[static_cast<std::size_t>(v)] = static_cast<int>(u);
    }
  }
  if (std::find(unit_of.begin(), unit_of.end(), -1) != unit_of.end())
    throw UsageError("stream graph pipeline: the units do not cover the graph exactly once");
  const std::vector<int> order = unit_order(g, s, plan, unit_of);
  auto stage_of_node = [&](NodeId v) {
    return plan.units[static_cast<std::size_t>(unit_of[static_cast<std::size_t>(v)])].stage;
  };

  std::vector<UnitInfo> units(plan.units.size());
  for (std::size_t u = 0; u < plan.units.size(); ++u) {
    UnitInfo& info = units[u];
    info.nodes = plan.units[u].nodes;
    std::sort(info.nodes.begin(), info.nodes.end(), [&](NodeId a, NodeId b) {
      return s.position[static_cast<std::size_t>(a)] < s.position[static_cast<std::size_t>(b)];
    });
    const int stage = plan.units[u].stage;
    for (NodeId v : info.nodes) {
      for (ChannelId c : g.node(v).inputs) {
        if (stage_of_node(g.channel(c).src) != stage) info.inputs.push_back(c);
      }
      for (ChannelId c : g.node(v).outputs) {
        if (stage_of_node(g.channel(c).dst) != stage) info.outputs.push_back(c);
      }
    }
  }
  std::vector<std::unique_ptr<BlockQueue<T>>> queues(static_cast<std::size_t>(g.channel_count()));
  for (ChannelId c = 0; c < g.channel_count(); ++c) {
    const Channel& ch = g.channel(c);
    if (stage_of_node(ch.src) != stage_of_node(ch.dst))
      queues[static_cast<std::size_t>(c)] = std::make_unique<BlockQueue<T>>(o.queue_blocks);
  }
  std::vector<std::vector<int>> stage_units(static_cast<std::size_t>(stages));
  for (int u : order)
    stage_units[static_cast<std::size_t>(plan.units[static_cast<std::size_t>(u)].stage)].push_back(
        u);

  const std::int64_t batch = std::max<std::int64_t>(1, o.batch);
  const std::int64_t blocks = (o.iterations + batch - 1) / batch;
  std::mutex error_mutex;
  std::exception_ptr first_error;
  std::uint64_t host_firings = 0;
  std::vector<double> blocked(static_cast<std::size_t>(stages), 0.0);
  auto stop_all = [&] {
    for (auto& q : queues) {
      if (q) q->close();
    }
  };

  auto stage_main = [&](int stage) {
    double waited = 0;
    try {
      if (static_cast<std::size_t>(stage) < plan.stage_setup.size() &&
          plan.stage_setup[static_cast<std::size_t>(stage)])
        plan.stage_setup[static_cast<std::size_t>(stage)]();
      HostRunner<T> runner(g);
      RunnerAccess<T> access(runner);
      // Block -1 is the initialization.
      for (std::int64_t b = -1; b < blocks; ++b) {
        const std::int64_t executions = b < 0 ? 0 : std::min(batch, o.iterations - b * batch);
        for (int u : stage_units[static_cast<std::size_t>(stage)]) {
          const UnitInfo& info = units[static_cast<std::size_t>(u)];
          const PipelineUnit& unit = plan.units[static_cast<std::size_t>(u)];
          for (ChannelId c : info.inputs) {
            const auto t = Clock::now();
            Block<T> block = queues[static_cast<std::size_t>(c)]->pop();
            waited += seconds_since(t);
            runner.fifo(c).append(block.items.data(), block.items.size());
            if (block.attachment) access.attach(c, std::move(block.attachment));
          }
          if (b < 0) {
            for (NodeId v : info.nodes) runner.fire(v, s.init_firings[static_cast<std::size_t>(v)]);
          } else if (unit.device_run) {
            unit.device_run(access, executions);
          } else {
            for (std::int64_t e = 0; e < executions; ++e) {
              for (NodeId v : info.nodes)
                runner.fire(v, s.repetitions[static_cast<std::size_t>(v)]);
            }
          }
          for (ChannelId c : info.outputs) {
            Block<T> block{runner.fifo(c).take_all(), access.take_attachment(c)};
            const auto t = Clock::now();
            queues[static_cast<std::size_t>(c)]->push(std::move(block));
            waited += seconds_since(t);
          }
        }
      }
      std::lock_guard lock(error_mutex);
      host_firings += runner.firings();
      blocked[static_cast<std::size_t>(stage)] = waited;
    } catch (const Stopped&) {
    } catch (...) {
      {
        std::lock_guard lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
      }
      stop_all();
    }
  };

  std::vector<std::thread> threads;
  for (int st = 1; st < stages; ++st) threads.emplace_back(stage_main, st);
  stage_main(0);  // the calling thread runs stage 0 (a GPU stage keeps its device's thread)
  for (auto& t : threads) t.join();
  if (first_error) std::rethrow_exception(first_error);

  PipelineResult r;
  r.iterations = o.iterations;
  r.blocks = blocks;
  r.stages = stages;
  r.host_firings = host_firings;
  r.stage_blocked_seconds = std::move(blocked);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

void ChannelAccess::attach(ChannelId c, std::shared_ptr<void>) {
  throw RunError("stream graph pipeline: channel " + std::to_string(c) +
                 " cannot carry device blocks here");
}
std::shared_ptr<void> ChannelAccess::take_attachment(ChannelId) { return nullptr; }

namespace {

double node_work(const Graph& g, const Schedule& s, NodeId v) {
  const Node& n = g.node(v);
  double ops = 0;
  if (n.kind == NodeKind::filter) {
    ops = n.filter.cost > 0 ? n.filter.cost : static_cast<double>(n.filter.peek + n.filter.push);
  } else {
    for (int w : n.weights) ops += w;
  }
  return ops * static_cast<double>(s.repetitions[static_cast<std::size_t>(v)]);
}

}  // namespace

PipelineResult run_pipeline(const Graph& g, const Schedule& s, const PipelinePlan& plan,
                            const PipelineOptions& options) {
  return g.item_type() == ItemType::f32 ? run_typed<float>(g, s, plan, options)
                                        : run_typed<std::uint32_t>(g, s, plan, options);
}

PipelinePlan cpu_thread_plan(const Graph& g, const Schedule& s, int threads) {
  const int k = std::clamp(threads, 1, std::max(1, g.node_count()));
  double total = 0;
  for (NodeId v : s.order) total += node_work(g, s, v);
  PipelinePlan plan;
  plan.units.emplace_back();
  double done = 0;
  for (std::size_t i = 0; i < s.order.size(); ++i) {
    const NodeId v = s.order[i];
    PipelineUnit* cur = &plan.units.back();
    // Start the next range once this one has its share (and nodes remain for the others).
    const auto made = static_cast<int>(plan.units.size());
    const std::size_t left = s.order.size() - i;
    if (!cur->nodes.empty() && made < k &&
        (done >= total * made / k || left <= static_cast<std::size_t>(k - made))) {
      plan.units.emplace_back();
      plan.units.back().stage = made;
      cur = &plan.units.back();
    }
    cur->nodes.push_back(v);
    done += node_work(g, s, v);
  }
  return plan;
}

}  // namespace harness::streamgraph
