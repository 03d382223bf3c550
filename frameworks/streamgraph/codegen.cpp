#include "frameworks/streamgraph/codegen.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "harness/core/errors.h"

namespace harness::streamgraph {

namespace {

// OpenCL's guaranteed minimum of CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE and CUDA's __constant__ bank.
constexpr std::size_t kMaxConstantBytes = 64 * 1024;

std::int64_t work_items_of(const Graph& g, const Schedule& s, NodeId v) {
  const Node& n = g.node(v);
  const std::int64_t r = s.repetitions[static_cast<std::size_t>(v)];
  if (n.kind == NodeKind::filter) return r;
  if (n.kind == NodeKind::splitter && n.split == SplitKind::duplicate)
    return r * static_cast<std::int64_t>(n.outputs.size());
  std::int64_t w = 0;
  for (int x : n.weights) w += x;
  return r * w;
}

std::size_t constant_bytes_of(const Graph& g, const Schedule& s, const PartitionLayout& L,
                              const KernelPlan& K);

bool overlaps(const ChannelSlot& a, const ChannelSlot& b) {
  const bool live = a.first_level <= b.last_level && b.first_level <= a.last_level;
  const bool space = a.ws_offset < b.ws_offset + b.items && b.ws_offset < a.ws_offset + a.items;
  return live && space;
}

// The lowest offset where `c` overlaps no placed channel live at the same time.
std::int64_t first_fit(const ChannelSlot& c, const std::vector<const ChannelSlot*>& placed) {
  std::vector<std::pair<std::int64_t, std::int64_t>> busy;  // [begin, end) of live ones
  for (const ChannelSlot* p : placed) {
    if (c.first_level <= p->last_level && p->first_level <= c.last_level)
      busy.emplace_back(p->ws_offset, p->ws_offset + p->items);
  }
  std::sort(busy.begin(), busy.end());
  std::int64_t at = 0;
  for (const auto& [b, e] : busy) {
    if (at + c.items <= b) break;
    at = std::max(at, e);
  }
  return at;
}

}  // namespace

PartitionLayout layout_partition(const Graph& g, const Schedule& s, std::vector<NodeId> nodes) {
  PartitionLayout L;
  std::sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) {
    return s.position[static_cast<std::size_t>(a)] < s.position[static_cast<std::size_t>(b)];
  });
  L.nodes = nodes;
  std::map<NodeId, std::size_t> index;
  for (std::size_t i = 0; i < nodes.size(); ++i) index[nodes[i]] = i;
  auto inside = [&](NodeId v) { return index.count(v) > 0; };
  L.level.assign(nodes.size(), 0);
  std::vector<std::int64_t> width;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    int lv = 0;
    for (ChannelId c : g.node(nodes[i]).inputs) {
      const NodeId src = g.channel(c).src;
      if (inside(src)) lv = std::max(lv, L.level[index[src]] + 1);
    }
    L.level[i] = lv;
    L.levels = std::max(L.levels, lv + 1);
    if (width.size() <= static_cast<std::size_t>(lv))
      width.resize(static_cast<std::size_t>(lv) + 1, 0);
    const std::int64_t w = work_items_of(g, s, nodes[i]);
    width[static_cast<std::size_t>(lv)] += w;
    L.work_items += w;
  }
  for (std::int64_t w : width) L.threads_per_execution = std::max(L.threads_per_execution, w);
  auto level_of = [&](NodeId v) { return L.level[index[v]]; };

  const int last = std::max(0, L.levels - 1);
  for (NodeId v : nodes) {
    const Node& n = g.node(v);
    for (ChannelId c : n.inputs) {
      if (inside(g.channel(c).src)) continue;
      const ChannelBuffer& b = s.channels[static_cast<std::size_t>(c)];
      ChannelSlot slot;
      slot.channel = c;
      slot.steady = b.steady_items;
      slot.initial = b.initial_items;
      slot.items = b.steady_items + b.initial_items;
      slot.first_level = 0;
      slot.last_level = level_of(v);
      L.inputs.push_back(slot);
    }
    for (ChannelId c : n.outputs) {
      const ChannelBuffer& b = s.channels[static_cast<std::size_t>(c)];
      ChannelSlot slot;
      slot.channel = c;
      slot.steady = b.steady_items;
      slot.items = b.steady_items;
      slot.first_level = level_of(v);
      const NodeId dst = g.channel(c).dst;
      if (inside(dst)) {
        slot.last_level = level_of(dst);
        if (b.initial_items > 0) L.carries_items = true;
        L.internal.push_back(slot);
      } else {
        slot.last_level = last;
        L.outputs.push_back(slot);
      }
    }
  }
  // Inputs first, contiguously from 0 (all are live at the start).
  std::vector<const ChannelSlot*> placed;
  for (ChannelSlot& in : L.inputs) {
    in.ws_offset = L.in_items;
    in.db_offset = L.in_items;
    L.in_items += in.items;
    placed.push_back(&in);
  }
  // The others by the level they become live at, first fit.
  std::vector<ChannelSlot*> rest;
  for (ChannelSlot& c : L.internal) rest.push_back(&c);
  for (ChannelSlot& c : L.outputs) rest.push_back(&c);
  std::stable_sort(rest.begin(), rest.end(), [](const ChannelSlot* a, const ChannelSlot* b) {
    return a->first_level < b->first_level;
  });
  for (ChannelSlot* c : rest) {
    c->ws_offset = first_fit(*c, placed);
    placed.push_back(c);
  }
  for (const ChannelSlot* c : placed) L.ws_items = std::max(L.ws_items, c->ws_offset + c->items);
  // Outputs in address order, contiguous in DB.
  std::sort(L.outputs.begin(), L.outputs.end(),
            [](const ChannelSlot& a, const ChannelSlot& b) { return a.ws_offset < b.ws_offset; });
  for (ChannelSlot& out : L.outputs) {
    out.db_offset = L.out_items;
    L.out_items += out.items;
  }
  L.db_items = std::max(L.in_items, L.out_items);
  // Sanity: the allocation never overlaps two channels live at once.
  std::vector<const ChannelSlot*> all;
  for (const auto* list : {&L.inputs, &L.outputs, &L.internal}) {
    for (const ChannelSlot& c : *list) all.push_back(&c);
  }
  for (std::size_t i = 0; i < all.size(); ++i) {
    for (std::size_t j = i + 1; j < all.size(); ++j) {
      if (overlaps(*all[i], *all[j]))
        throw RunError("stream graph codegen: static allocation overlaps two live channels");
    }
  }
  return L;
}

KernelPlan plan_kernel(const PartitionLayout& L, const CodegenTarget& t) {
  KernelPlan k;
  const std::uint64_t per = std::max<std::uint64_t>(L.bytes_per_execution(), 4);
  const auto fit = static_cast<std::int64_t>(t.local_bytes / per);
  if (fit < 1) return k;
  const int warp = std::max(1, t.warp_size);
  const int cap = std::max(2 * warp, std::min(t.max_group_size, 1024) / warp * warp);
  const std::int64_t S = std::max<std::int64_t>(1, L.threads_per_execution);
  // Enough executions to give the compute warps work, within local memory.
  const std::int64_t want = std::max<std::int64_t>(1, (cap - warp) / S);
  const auto P = static_cast<int>(
      std::min<std::int64_t>({fit, want, static_cast<std::int64_t>(t.max_parallel_executions)}));
  auto round_warp = [&](std::int64_t x) {
    return static_cast<int>(std::max<std::int64_t>(warp, (x + warp - 1) / warp * warp));
  };
  int C = std::min(round_warp(P * S), cap - warp);
  // M matches the C threads' data needs: the share of moved items in all items handled.
  const double io = static_cast<double>(L.in_items + L.out_items);
  const double share = io / std::max(1.0, io + static_cast<double>(L.work_items));
  int M = round_warp(static_cast<std::int64_t>(static_cast<double>(C) * share));
  M = std::min(M, std::max(warp, cap - C));
  if (C + M > cap) C = std::max(warp, (cap - M) / warp * warp);
  k.parallel_executions = P;
  k.compute_threads = C;
  k.memory_threads = M;
  k.group_size = C + M;
  k.local_bytes = static_cast<std::uint64_t>(P) * per;
  return k;
}

std::vector<std::vector<NodeId>> split_for_codegen(const Graph& g, const Schedule& s,
                                                   std::vector<NodeId> nodes,
                                                   const CodegenTarget& target, int* size_cuts) {
  std::sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) {
    return s.position[static_cast<std::size_t>(a)] < s.position[static_cast<std::size_t>(b)];
  });
  auto layout = [&](std::size_t begin, std::size_t end) {
    std::vector<NodeId> piece(nodes.begin() + static_cast<std::ptrdiff_t>(begin),
                              nodes.begin() + static_cast<std::ptrdiff_t>(end));
    return layout_partition(g, s, piece);
  };
  auto fits = [&](std::size_t begin, std::size_t end) {
    const PartitionLayout L = layout(begin, end);
    if (L.carries_items) return false;
    const KernelPlan K = plan_kernel(L, target);
    return K.parallel_executions >= 1 && constant_bytes_of(g, s, L, K) <= kMaxConstantBytes;
  };
  if (size_cuts) *size_cuts = 0;
  std::vector<std::vector<NodeId>> pieces;
  std::size_t begin = 0;
  while (begin < nodes.size()) {
    if (!fits(begin, begin + 1)) {
      throw UsageError("stream graph: operator '" + g.node(nodes[begin]).name +
                       "' alone needs more local memory than the " +
                       std::to_string(target.local_bytes) +
                       " bytes a work-group has, or more constant data than the " +
                       std::to_string(kMaxConstantBytes) + " bytes a kernel may have");
    }
    std::size_t end = begin + 1;
    if (fits(begin, nodes.size())) {
      end = nodes.size();
    } else {
      // The longest fitting prefix by bisection (the first cut found, not
      // necessarily the longest when fitting is not monotone).
      std::size_t lo = begin + 1, hi = nodes.size();  // fits(lo), !fits(hi)
      while (hi - lo > 1) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (fits(begin, mid)) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      end = lo;
      if (size_cuts && !layout(begin, end + 1).carries_items) ++*size_cuts;
    }
    pieces.emplace_back(nodes.begin() + static_cast<std::ptrdiff_t>(begin),
                        nodes.begin() + static_cast<std::ptrdiff_t>(end));
    begin = end;
  }
  return pieces;
}

namespace {

std::string float_literal(float x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", static_cast<double>(x));
  return std::string(buf) + "f";
}

template <class V, class F>
std::string join(const std::vector<V>& xs, F f) {
  std::string out;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (i) out += i % 16 == 0 ? ",\n  " : ", ";
    out += f(xs[i]);
  }
  return out;
}

std::string u(std::int64_t x) { return std::to_string(x) + "u"; }
std::string u32_literal(std::uint32_t x) { return std::to_string(x) + "u"; }

// What operators of a level must share to be instances of one loop: the kind
// and work function, the rates and the firings per execution (all channels
// of a graph carry one item type).
std::string work_key(const Graph& g, const Schedule& s, NodeId v) {
  const Node& n = g.node(v);
  const std::int64_t r = s.repetitions[static_cast<std::size_t>(v)];
  if (n.kind == NodeKind::filter) {
    const FilterSpec& f = n.filter;
    return fmt::format("filter {} pop {} peek {} push {} x {}",
                       f.kernel ? f.kernel->function : n.name, f.pop, f.peek, f.push, r);
  }
  if (n.kind == NodeKind::splitter && n.split == SplitKind::duplicate)
    return fmt::format("duplicate {} x {}", n.outputs.size(), r);
  std::string weights;
  for (int w : n.weights) weights += std::to_string(w) + " ";
  return fmt::format("{} {}x {}", n.kind == NodeKind::splitter ? "split" : "join", weights, r);
}

// The loops of the level steps, level by level: the operators of a level
// with the same work key, in the schedule's order, become one loop; loops
// follow the order of their first operator.
std::vector<LevelLoop> plan_loops(const Graph& g, const Schedule& s, const PartitionLayout& L) {
  std::vector<std::vector<std::size_t>> by_level(static_cast<std::size_t>(L.levels));
  for (std::size_t i = 0; i < L.nodes.size(); ++i)
    by_level[static_cast<std::size_t>(L.level[i])].push_back(i);
  std::vector<LevelLoop> loops;
  for (int level = 0; level < L.levels; ++level) {
    std::map<std::string, std::size_t> loop_of;  // work key -> its loop
    for (std::size_t i : by_level[static_cast<std::size_t>(level)]) {
      const NodeId v = L.nodes[i];
      const auto [it, added] = loop_of.emplace(work_key(g, s, v), loops.size());
      if (added) loops.push_back(LevelLoop{level, {}});
      loops[it->second].instances.push_back(v);
    }
  }
  return loops;
}

// Every distinct constant array of the partition's filters once, one after
// the other: a filter's constants are the pool plus its array's offset.
template <class T>
class ConstantPool {
 public:
  std::int64_t offset_of(const std::vector<T>& v) {
    const auto [it, added] = offsets_.emplace(v, static_cast<std::int64_t>(values_.size()));
    if (added) values_.insert(values_.end(), v.begin(), v.end());
    return it->second;
  }
  // At least one item: C has no empty arrays.
  std::vector<T> values() const { return values_.empty() ? std::vector<T>{T{}} : values_; }

 private:
  std::map<std::vector<T>, std::int64_t> offsets_;
  std::vector<T> values_;
};

// One row per instance of a loop in a program-scope table (a single row when
// all instances have the same); at(k) reads item k of the running instance's.
struct RowTable {
  std::string name;
  std::int64_t stride = 0;  // 0: one row for every instance
  std::string at(const std::string& k) const {
    return stride ? name + "[inst * " + u(stride) + " + " + k + "]" : name + "[" + k + "]";
  }
};

// Writes the loops of the level steps. A loop runs every firing of every
// instance in every parallel execution of the round, over (instance,
// execution slot, item of the slot) spread over the C threads; what differs
// between instances (the WS offsets of their ports, their constants) comes
// from program-scope tables indexed by the instance `inst`, or is a literal
// where the instances agree. One loop per work, rather than one per
// operator, keeps the kernel small (the compile time grows with it) and
// gives the C threads the whole level's firings at once.
class LoopWriter {
 public:
  LoopWriter(const Graph& g, const Schedule& s, const PartitionLayout& L, const KernelPlan& K,
             std::string prefix)
      : g_(g),
        s_(s),
        K_(K),
        ws_items_(std::max<std::int64_t>(L.ws_items, 1)),
        p_(std::move(prefix)) {
    for (const auto* list : {&L.inputs, &L.outputs, &L.internal}) {
      for (const ChannelSlot& c : *list) ws_[c.channel] = c.ws_offset;
    }
  }

  // The loop's code, for the body of its level step; `index` names its tables.
  std::string write(const LevelLoop& loop, std::size_t index) {
    const Node& n = g_.node(loop.instances.front());
    table_prefix_ = p_ + "L" + std::to_string(index) + "_";
    std::ostringstream os;
    os << kIndent << "/* " << describe(loop) << " */\n";
    if (n.kind == NodeKind::filter) {
      write_filter(os, loop);
    } else if (n.kind == NodeKind::splitter && n.split == SplitKind::duplicate) {
      write_duplicate(os, loop);
    } else {
      write_round_robin(os, loop);
    }
    return os.str();
  }

  // The filter constants and the loops' tables, for program scope.
  std::string tables() const {
    std::ostringstream os;
    const std::vector<std::uint32_t> ip = ip_.values();
    const std::vector<float> fp = fp_.values();
    os << "/* filter constants, each distinct array once; a filter's are at its offset */\n"
       << "SG_CONST u32 " << p_ << "ip[" << ip.size() << "] = {" << join(ip, u32_literal) << "};\n"
       << "SG_CONST float " << p_ << "fp[" << fp.size() << "] = {" << join(fp, float_literal)
       << "};\n"
       << tables_.str();
    return os.str();
  }
  std::size_t constant_bytes() const {
    return table_bytes_ + 4 * (ip_.values().size() + fp_.values().size());
  }

 private:
  static constexpr const char* kIndent = "            ";

  std::string describe(const LevelLoop& loop) const {
    const NodeId first = loop.instances.front();
    const std::string firings =
        " x " + std::to_string(s_.repetitions[static_cast<std::size_t>(first)]);
    if (loop.instances.size() == 1) return g_.node(first).name + firings;
    const std::string& a = g_.node(first).name;
    const std::string& b = g_.node(loop.instances.back()).name;
    return fmt::format("{} instances ({}{}){}", loop.instances.size(), a, a == b ? "" : " .. " + b,
                       firings);
  }

  // A per-instance value: a literal when the instances agree, else a table.
  std::string column(const std::string& what, const std::vector<std::int64_t>& values) {
    if (std::all_of(values.begin(), values.end(),
                    [&](std::int64_t x) { return x == values.front(); }))
      return u(values.front());
    const std::string name = table_prefix_ + what;
    tables_ << "SG_CONST u32 " << name << "[" << values.size() << "] = {" << join(values, u)
            << "};\n";
    table_bytes_ += values.size() * 4;
    return name + "[inst]";
  }

  RowTable rows(const std::string& what, const std::vector<std::vector<std::int64_t>>& rows) {
    const bool shared = std::all_of(
        rows.begin(), rows.end(), [&](const std::vector<std::int64_t>& r) { return r == rows[0]; });
    std::vector<std::int64_t> flat;
    for (std::size_t k = 0; k < (shared ? 1 : rows.size()); ++k)
      flat.insert(flat.end(), rows[k].begin(), rows[k].end());
    RowTable t{table_prefix_ + what, shared ? 0 : static_cast<std::int64_t>(rows[0].size())};
    tables_ << "SG_CONST u32 " << t.name << "[" << flat.size() << "] = {" << join(flat, u)
            << "};\n";
    table_bytes_ += flat.size() * 4;
    return t;
  }

  // Opens the loop over `instances` x P slots x `per_slot` items, in that
  // order (the threads of a warp mostly share an instance, so their table
  // reads agree); inside, `inst`, `slot`, `rem` (the item of the slot) and
  // `w` (the slot's WS).
  void open(std::ostream& os, std::size_t instances, std::int64_t per_slot) const {
    const std::int64_t per_instance = K_.parallel_executions * per_slot;
    const std::string item = p_ + "item";
    os << kIndent << "for (u32 i = tid; i < "
       << u(static_cast<std::int64_t>(instances) * per_instance)
       << "; i += " << u(K_.compute_threads) << ") {\n";
    std::string j = "i";
    if (instances > 1) {
      os << kIndent << "  const u32 inst = i / " << u(per_instance) << ";\n"
         << kIndent << "  const u32 j = i - inst * " << u(per_instance) << ";\n";
      j = "j";
    }
    os << kIndent << "  const u32 slot = " << j << " / " << u(per_slot) << ";\n"
       << kIndent << "  const u32 rem = " << j << " - slot * " << u(per_slot) << ";\n"
       << kIndent << "  if (cbase + slot < executions) {\n"
       << kIndent << "    LOCAL_PTR " << item << "* w = lm + slot * " << u(ws_items_) << ";\n";
  }
  void close(std::ostream& os) const { os << kIndent << "  }\n" << kIndent << "}\n"; }

  std::int64_t repetitions(const LevelLoop& loop) const {
    return s_.repetitions[static_cast<std::size_t>(loop.instances.front())];
  }

  // Firing rem of the instance: the work function on its peek window and push items.
  void write_filter(std::ostream& os, const LevelLoop& loop) {
    const FilterSpec& f = g_.node(loop.instances.front()).filter;
    std::vector<std::int64_t> in, out, ip, fp;
    for (NodeId v : loop.instances) {
      const Node& n = g_.node(v);
      in.push_back(n.inputs.empty() ? 0 : ws_.at(n.inputs[0]));
      out.push_back(n.outputs.empty() ? 0 : ws_.at(n.outputs[0]));
      ip.push_back(ip_.offset_of(n.filter.kernel->iparams));
      fp.push_back(fp_.offset_of(n.filter.kernel->fparams));
    }
    const std::string in_at = column("in", in), out_at = column("out", out);
    const std::string ip_at = column("ip", ip), fp_at = column("fp", fp);
    open(os, loop.instances.size(), repetitions(loop));
    os << kIndent << "    " << f.kernel->function << "(w + " << in_at << " + rem * " << u(f.pop)
       << ", w + " << out_at << " + rem * " << u(f.push) << ", " << p_ << "ip + " << ip_at << ", "
       << p_ << "fp + " << fp_at << ");\n";
    close(os);
  }

  // Item f of firing to every port: rem = f x ports + port.
  void write_duplicate(std::ostream& os, const LevelLoop& loop) {
    const auto ports = static_cast<std::int64_t>(g_.node(loop.instances.front()).outputs.size());
    std::vector<std::int64_t> in;
    std::vector<std::vector<std::int64_t>> to;
    for (NodeId v : loop.instances) {
      const Node& n = g_.node(v);
      in.push_back(ws_.at(n.inputs[0]));
      to.emplace_back();
      for (ChannelId c : n.outputs) to.back().push_back(ws_.at(c));
    }
    const std::string in_at = column("in", in);
    const RowTable port_at = rows("ports", to);
    open(os, loop.instances.size(), repetitions(loop) * ports);
    os << kIndent << "    const u32 f = rem / " << u(ports) << ";\n"
       << kIndent << "    const u32 port = rem - f * " << u(ports) << ";\n"
       << kIndent << "    w[" << port_at.at("port") << " + f] = w[" << in_at << " + f];\n";
    close(os);
  }

  // Item k of firing f (rem = f x W + k, W the weights' sum) between the
  // whole stream and its port. Per instance a row of the ports' WS offsets
  // (equal weights w: the port is k / w) or, per item of a firing, (offset of
  // its port + its index there, the port's weight).
  void write_round_robin(std::ostream& os, const LevelLoop& loop) {
    const Node& first = g_.node(loop.instances.front());
    const bool split = first.kind == NodeKind::splitter;
    std::int64_t W = 0;
    for (int x : first.weights) W += x;
    const int w0 = first.weights.front();
    const bool uniform =
        std::all_of(first.weights.begin(), first.weights.end(), [&](int x) { return x == w0; });
    std::vector<std::int64_t> whole;
    std::vector<std::vector<std::int64_t>> map;
    for (NodeId v : loop.instances) {
      const Node& n = g_.node(v);
      const auto& ports = split ? n.outputs : n.inputs;
      whole.push_back(ws_.at(split ? n.inputs[0] : n.outputs[0]));
      map.emplace_back();
      for (std::size_t q = 0; q < ports.size(); ++q) {
        if (uniform) {
          map.back().push_back(ws_.at(ports[q]));
          continue;
        }
        for (int k = 0; k < n.weights[q]; ++k) {
          map.back().push_back(ws_.at(ports[q]) + k);
          map.back().push_back(n.weights[q]);
        }
      }
    }
    const std::string whole_at = column("whole", whole);
    const RowTable port_at = rows("ports", map);
    open(os, loop.instances.size(), repetitions(loop) * W);
    os << kIndent << "    const u32 f = rem / " << u(W) << ";\n"
       << kIndent << "    const u32 k = rem - f * " << u(W) << ";\n"
       << kIndent << "    const u32 port = ";
    if (uniform) {
      os << port_at.at("k / " + u(w0)) << " + f * " << u(w0) << " + k % " << u(w0) << ";\n";
    } else {
      os << port_at.at("2u * k") << " + f * " << port_at.at("2u * k + 1u") << ";\n";
    }
    if (split) {
      os << kIndent << "    w[port] = w[" << whole_at << " + rem];\n";
    } else {
      os << kIndent << "    w[" << whole_at << " + rem] = w[port];\n";
    }
    close(os);
  }

  const Graph& g_;
  const Schedule& s_;
  const KernelPlan& K_;
  const std::int64_t ws_items_;
  const std::string p_;  // of every generated name
  std::map<ChannelId, std::int64_t> ws_;
  ConstantPool<std::uint32_t> ip_;
  ConstantPool<float> fp_;
  std::ostringstream tables_;
  std::size_t table_bytes_ = 0;
  std::string table_prefix_;  // of the loop being written
};

// Bytes of constant data (filter constants and the loops' tables) the
// kernel of `L` would have: the loops written and their code dropped.
std::size_t constant_bytes_of(const Graph& g, const Schedule& s, const PartitionLayout& L,
                              const KernelPlan& K) {
  LoopWriter loops(g, s, L, K, "x_");
  const std::vector<LevelLoop> planned = plan_loops(g, s, L);
  for (std::size_t k = 0; k < planned.size(); ++k) loops.write(planned[k], k);
  return loops.constant_bytes();
}

}  // namespace

GeneratedKernel generate_kernel(const Graph& g, const Schedule& s, const std::vector<NodeId>& nodes,
                                const CodegenTarget& target, const std::string& kernel_name) {
  GeneratedKernel gk;
  gk.kernel_name = kernel_name;
  gk.layout = layout_partition(g, s, nodes);
  const PartitionLayout& L = gk.layout;
  if (L.carries_items) {
    throw UsageError("stream graph codegen: partition '" + kernel_name +
                     "' has an internal channel that carries items between executions");
  }
  gk.plan = plan_kernel(L, target);
  const KernelPlan& K = gk.plan;
  if (K.parallel_executions < 1) {
    throw UsageError("stream graph codegen: partition '" + kernel_name + "' needs " +
                     std::to_string(L.bytes_per_execution()) +
                     " bytes of local memory for one execution, more than the " +
                     std::to_string(target.local_bytes) + " a work-group has");
  }
  std::set<std::string> files;
  for (NodeId v : L.nodes) {
    const Node& n = g.node(v);
    if (n.kind != NodeKind::filter) continue;
    if (n.filter.stateful || !n.filter.kernel) {
      throw UsageError("stream graph codegen: '" + n.name +
                       "' is stateful or has no dialect work function; it runs on the CPU");
    }
    files.insert(n.filter.kernel->source);
  }
  gk.loops = plan_loops(g, s, L);
  std::ostringstream os;
  const std::string T = g.item_type() == ItemType::f32 ? "float" : "u32";
  const std::string p = kernel_name + "_";
  os << "/* Generated by frameworks/streamgraph/codegen.cpp: " << L.nodes.size() << " operators in "
     << gk.loops.size() << " loops, " << L.levels << " levels, " << L.inputs.size() << " input and "
     << L.outputs.size() << " output channels.\n"
     << " * Per execution: WS " << L.ws_items << " items (inputs " << L.in_items << " first), DB "
     << L.db_items << " items (outputs " << L.out_items << ").\n"
     << " * P = " << K.parallel_executions
     << " parallel executions per work-group, C = " << K.compute_threads
     << " compute and M = " << K.memory_threads << " memory threads, " << K.local_bytes
     << " bytes of local memory. */\n";
  os << "#ifndef SG_GENERATED_PRELUDE\n#define SG_GENERATED_PRELUDE\n"
     << "#if defined(HARNESS_DIALECT_CUDA)\n#define SG_CONST __constant__ const\n"
     << "#define SG_EXTERN_C extern \"C\"\n#else\n#define SG_CONST __constant\n"
     << "#define SG_EXTERN_C\n#endif\n#endif\n";
  os << "typedef " << T << " " << p << "item;\n";
  const int steps = std::max(1, L.levels);
  LoopWriter loops(g, s, L, K, p);
  std::vector<std::string> step_code(static_cast<std::size_t>(steps));
  for (std::size_t k = 0; k < gk.loops.size(); ++k)
    step_code[static_cast<std::size_t>(gk.loops[k].level)] += loops.write(gk.loops[k], k);
  os << loops.tables();
  if (loops.constant_bytes() > kMaxConstantBytes) {
    throw UsageError(fmt::format(
        "stream graph codegen: partition '{}' needs {} bytes of constant data (filter constants "
        "and splitter/joiner tables), more than the {} a kernel may have",
        kernel_name, loops.constant_bytes(), kMaxConstantBytes));
  }
  // Channel tables for the memory threads and the swap.
  const std::string item = p + "item";
  os << "/* input item q of an execution: global index */\n"
     << "DEVICE_FN u32 " << p << "in_index(u32 q, u32 ex, u32 executions) {\n";
  {
    std::int64_t a = 0, b = 0;
    for (const ChannelSlot& c : L.inputs) {
      os << "  if (q < " << u(c.db_offset + c.items) << ") return executions * " << u(a) << " + "
         << u(b) << " + ex * " << u(c.steady) << " + (q - " << u(c.db_offset) << ");\n";
      a += c.steady;
      b += c.initial;
    }
  }
  os << "  return 0u;\n}\n";
  os << "/* output item q of an execution: global index */\n"
     << "DEVICE_FN u32 " << p << "out_index(u32 q, u32 ex, u32 executions) {\n";
  {
    std::int64_t a = 0;
    for (const ChannelSlot& c : L.outputs) {
      os << "  if (q < " << u(c.db_offset + c.items) << ") return executions * " << u(a)
         << " + ex * " << u(c.steady) << " + (q - " << u(c.db_offset) << ");\n";
      a += c.steady;
    }
  }
  os << "  return 0u;\n}\n";
  os << "/* output item q of an execution: its WS address (>= q) */\n"
     << "DEVICE_FN u32 " << p << "out_ws(u32 q) {\n";
  for (const ChannelSlot& c : L.outputs) {
    os << "  if (q < " << u(c.db_offset + c.items) << ") return q - " << u(c.db_offset) << " + "
       << u(c.ws_offset) << ";\n";
  }
  os << "  return 0u;\n}\n";

  const int P = K.parallel_executions;
  const int C = K.compute_threads;
  const int M = K.memory_threads;
  const int G = K.group_size;
  const std::int64_t WS = std::max<std::int64_t>(L.ws_items, 1);
  const std::int64_t DB = std::max<std::int64_t>(L.db_items, 1);
  const std::int64_t total_db = P * DB;
  const std::int64_t chunk = (total_db + steps - 1) / steps;

  const std::int64_t swap_chunks = (total_db + G - 1) / G;
  const std::int64_t phases_per_round = steps + 2 * swap_chunks;
  // One loop over phases with a single barrier at its end (PoCL 3.1
  // miscompiled several barriers inside one loop body: levels were skipped).
  os << "SG_EXTERN_C KERNEL " << kernel_name << "(GLOBAL const " << item << "* gin, GLOBAL " << item
     << "* gout, u32 executions, LOCAL_DYNAMIC_PARAM(" << item << ", lm)) {\n"
     << "  LOCAL_DYNAMIC(" << item << ", lm);\n"
     << "  const u32 tid = LOCAL_ID;\n"
     << "  const u32 per_round = NUM_GROUPS * " << u(P) << ";\n"
     << "  const u32 rounds = (executions + per_round - 1u) / per_round;\n"
     << "  LOCAL_PTR " << item << "* db = lm + " << u(P * WS) << ";\n"
     << "  " << item << " vin = 0, vout = 0; /* the swap's registers */\n"
     << "  /* per round: " << steps << " level steps (C compute, M move DB <-> global), then "
     << swap_chunks << " swap chunks of a read and a write phase */\n"
     << "  const u32 phases = (rounds + 2u) * " << u(phases_per_round) << ";\n"
     << "  for (u32 ph = 0u; ph < phases; ++ph) {\n"
     << "    const u32 t = ph / " << u(phases_per_round) << ";\n"
     << "    const u32 step = ph - t * " << u(phases_per_round) << ";\n"
     << "    if (step < " << u(steps) << ") {\n"
     << "      if (tid < " << u(C) << ") {\n"
     << "        const u32 cbase = ((t - 1u) * NUM_GROUPS + GROUP_ID) * " << u(P) << ";\n"
     << "        if (t >= 1u && t <= rounds) {\n";
  for (int step = 0; step < steps; ++step) {
    os << "          " << (step ? "} else if" : "if") << " (step == " << u(step) << ") {\n"
       << step_code[static_cast<std::size_t>(step)];
  }
  os << "          }\n"
     << "        }\n"
     << "      } else {\n"
     << "        /* memory threads: this step's share of DB */\n"
     << "        const u32 sbase = ((t - 2u) * NUM_GROUPS + GROUP_ID) * " << u(P) << ";\n"
     << "        const u32 lbase = (t * NUM_GROUPS + GROUP_ID) * " << u(P) << ";\n"
     << "        const u32 lo = step * " << u(chunk) << ";\n"
     << "        const u32 hi = lo + " << u(chunk) << " < " << u(total_db) << " ? lo + " << u(chunk)
     << " : " << u(total_db) << ";\n"
     << "        for (u32 i = lo + (tid - " << u(C) << "); i < hi; i += " << u(M) << ") {\n"
     << "          const u32 slot = i / " << u(DB) << ";\n"
     << "          const u32 q = i - slot * " << u(DB) << ";\n"
     << "          if (t >= 2u && q < " << u(L.out_items) << " && sbase + slot < executions)\n"
     << "            gout[" << p << "out_index(q, sbase + slot, executions)] = db[i];\n"
     << "          if (t < rounds && q < " << u(L.in_items) << " && lbase + slot < executions)\n"
     << "            db[i] = gin[" << p << "in_index(q, lbase + slot, executions)];\n"
     << "        }\n"
     << "      }\n"
     << "    } else {\n"
     << "      /* swap: inputs DB -> WS, outputs WS -> DB, in increasing chunks, each read\n"
     << "         completely (even phase) before it is written (odd phase) */\n"
     << "      const u32 sw = step - " << u(steps) << ";\n"
     << "      const u32 i = (sw / 2u) * " << u(G) << " + tid;\n"
     << "      const u32 slot = i / " << u(DB) << ";\n"
     << "      const u32 q = i - slot * " << u(DB) << ";\n"
     << "      if (i < " << u(total_db) << ") {\n"
     << "        if ((sw & 1u) == 0u) {\n"
     << "          if (q < " << u(L.in_items) << ") vin = db[i];\n"
     << "          if (q < " << u(L.out_items) << ") vout = lm[slot * " << u(WS) << " + " << p
     << "out_ws(q)];\n"
     << "        } else {\n"
     << "          if (q < " << u(L.in_items) << ") lm[slot * " << u(WS) << " + q] = vin;\n"
     << "          if (q < " << u(L.out_items) << ") db[i] = vout;\n"
     << "        }\n"
     << "      }\n"
     << "    }\n"
     << "    BARRIER_LOCAL();\n"
     << "  }\n}\n";
  gk.code = os.str();
  gk.files = {"harness/dialect/dialect.h", "frameworks/streamgraph/kernels/sg_work.clh"};
  gk.files.insert(gk.files.end(), files.begin(), files.end());
  return gk;
}

}  // namespace harness::streamgraph
