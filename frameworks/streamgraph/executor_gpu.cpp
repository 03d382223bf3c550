#include "frameworks/streamgraph/executor_gpu.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "frameworks/streamgraph/peer_channel.h"
#include "harness/core/embedded_files.h"
#include "harness/core/errors.h"
#include "harness/core/host_cores.h"

namespace harness::streamgraph {

namespace {

std::uint64_t budget_of(const backend::DeviceInfo& info, std::uint64_t shared_bytes) {
  if (shared_bytes > 0) return shared_bytes;
  return std::max(info.local_memory_bytes, info.local_memory_optin_bytes);
}

struct Piece {
  GeneratedKernel gk;
  int gpu = 0;        // logical GPU
  int partition = 0;  // in the Partitioning
  std::shared_ptr<backend::Program> program;
  backend::Kernel kernel;
  std::int64_t in_steady = 0, in_initial = 0, out_steady = 0;  // sums over channels
  // Per input / output slot: the device channel it arrives or leaves by (null: host FIFO).
  std::vector<std::shared_ptr<PeerChannel>> in_peer, out_peer;
  std::atomic<int> ran_on{-1};
  // Device time of its kernels since construction or reset_stats(); written
  // by the stage thread of its GPU only.
  double kernel_ms = 0;
};

// One logical GPU: its device, queues (one per fragment) and buffers.
struct Gpu {
  backend::Device* device = nullptr;
  int stage = -1;  // pipeline stage (-1: no pieces)
  // The thread of its stage in the current run (set by the stage's setup;
  // written and read by that thread only).
  std::thread::id thread;
  std::vector<std::unique_ptr<backend::Queue>> queues;
  std::vector<backend::Buffer> d_in, d_out;
  std::vector<backend::HostBuffer> h_in, h_out;
  GpuStats stats;
};

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// Consecutive slots that travel the same way (host or peer), as item ranges
// of a fragment's packed buffer: one copy per run of host slots.
struct Run {
  std::size_t first = 0, last = 0;  // slots [first, last)
  std::int64_t offset = 0, items = 0;
};
std::vector<Run> host_runs(const std::vector<ChannelSlot>& slots,
                           const std::vector<std::shared_ptr<PeerChannel>>& peer, std::int64_t ef,
                           bool inputs) {
  std::vector<Run> runs;
  std::int64_t off = 0;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const std::int64_t n = ef * slots[i].steady + (inputs ? slots[i].initial : 0);
    if (!peer[i]) {
      if (!runs.empty() && runs.back().last == i) {
        runs.back().last = i + 1;
        runs.back().items += n;
      } else {
        runs.push_back(Run{i, i + 1, off, n});
      }
    }
    off += n;
  }
  return runs;
}

// Calls f(0) .. f(n - 1) on up to `threads` threads (0: one per hardware
// thread); rethrows the exception of the lowest index that threw, after all
// have finished.
void run_in_parallel(std::size_t n, int threads, const std::function<void(std::size_t)>& f) {
  std::size_t workers = threads > 0 ? static_cast<std::size_t>(threads) : harness::usable_cores();
  workers = std::min(workers, n);
  std::vector<std::exception_ptr> errors(n);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t k = next++; k < n; k = next++) {
      try {
        f(k);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < workers; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace

DeviceLimits device_limits(const backend::DeviceInfo& info, std::uint64_t shared_bytes) {
  DeviceLimits d = DeviceLimits::h200();
  d.name = info.name;
  d.shared_bytes_per_sm = budget_of(info, shared_bytes);
  d.sms = std::max(1, info.compute_units);
  d.warp_size = info.warp_size > 0 ? info.warp_size : 32;
  return d;
}

CodegenTarget codegen_target(const backend::DeviceInfo& info, std::uint64_t shared_bytes) {
  CodegenTarget t;
  t.local_bytes = budget_of(info, shared_bytes);
  t.max_group_size = std::max(64, info.max_work_group_size);
  // A kernel may allow fewer work-items than the device (registers): CUDA
  // builds cap registers at 64 a thread (1024 threads fit an SM's 64 K);
  // OpenCL has no portable cap, so GPU groups stay at 256, which any
  // register count fits (NVIDIA allows at most 255 a thread). At 512 a
  // MatrixMult3 piece needed more than 128 and its launch failed with
  // CL_OUT_OF_RESOURCES on an H100.
  if (info.kind == backend::Kind::opencl && info.type == "gpu")
    t.max_group_size = std::min(t.max_group_size, 256);
  t.warp_size = info.warp_size > 0 ? info.warp_size : 32;
  return t;
}

ChannelMode parse_channel_mode(const std::string& name) {
  if (name == "host") return ChannelMode::host;
  if (name == "p2p") return ChannelMode::p2p;
  throw UsageError("streamgraph: channels=" + name + " is not 'host' or 'p2p'");
}

struct GpuGraph::Impl {
  GpuRunOptions options;
  std::vector<Gpu> gpus;
  std::vector<std::unique_ptr<Piece>> pieces;
  std::vector<std::shared_ptr<PeerChannel>> peers;
  ChannelRoutes routes;
  std::int64_t fragment_max = 1;  // executions a fragment's buffers hold

  explicit Impl(GpuRunOptions o) : options(std::move(o)) {}

  std::string full_source(const Piece& p) const {
    return compose_source(p.gk.files) + "\n" + p.gk.code;
  }

  void run_piece(std::size_t k, ChannelAccess& io, std::int64_t executions) {
    Piece& piece = *pieces[k];
    Gpu& gpu = gpus[static_cast<std::size_t>(piece.gpu)];
    // In a pipeline, on the thread of its GPU's stage (run alone, on any thread).
    const std::thread::id self = std::this_thread::get_id();
    if (gpu.thread != std::thread::id() && gpu.thread != self)
      throw RunError(
          fmt::format("stream graph GPU executor: {} of GPU {} ran outside that GPU's thread",
                      piece.gk.kernel_name, piece.gpu));
    piece.ran_on = gpu.thread == self ? piece.gpu : -1;
    const PartitionLayout& L = piece.gk.layout;
    const KernelPlan& K = piece.gk.plan;
    // Inputs: host FIFOs hold the window; peer channels bring the block's landing buffer.
    std::vector<std::shared_ptr<Landing>> in_land(L.inputs.size());
    for (std::size_t i = 0; i < L.inputs.size(); ++i) {
      const ChannelSlot& c = L.inputs[i];
      const auto need = static_cast<std::size_t>(executions * c.steady + c.initial);
      if (piece.in_peer[i]) {
        in_land[i] = std::static_pointer_cast<Landing>(io.take_attachment(c.channel));
        if (!in_land[i] || in_land[i]->items() != executions * c.steady || io.size(c.channel) != 0)
          throw RunError(
              fmt::format("stream graph GPU executor: {} expected a device block of {} items on "
                          "peer channel {}",
                          piece.gk.kernel_name, executions * c.steady, c.channel));
      } else if (io.size(c.channel) < need) {
        throw RunError(fmt::format(
            "stream graph GPU executor: {} needs {} items on channel {}, the host FIFO holds {}",
            piece.gk.kernel_name, need, c.channel, io.size(c.channel)));
      }
    }
    std::vector<std::shared_ptr<Landing>> out_land(L.outputs.size());
    for (std::size_t i = 0; i < L.outputs.size(); ++i) {
      if (piece.out_peer[i])
        out_land[i] = piece.out_peer[i]->acquire(executions * L.outputs[i].steady);
    }
    const auto F = static_cast<std::int64_t>(
        std::min<std::int64_t>(static_cast<std::int64_t>(gpu.queues.size()), executions));
    const auto& info = gpu.device->info();
    const std::int64_t resident =
        std::max<std::int64_t>(1, info.compute_units) *
        std::max<std::uint64_t>(
            1,
            std::min<std::uint64_t>(budget_of(info, 0) / std::max<std::uint64_t>(1, K.local_bytes),
                                    2048 / static_cast<std::uint64_t>(K.group_size)));
    for (std::int64_t f = 0; f < F; ++f) {
      const auto fi = static_cast<std::size_t>(f);
      const std::int64_t e0 = executions * f / F, e1 = executions * (f + 1) / F;
      const std::int64_t ef = e1 - e0;
      if (ef > fragment_max)
        throw RunError("stream graph GPU executor: block larger than its buffers");
      backend::Queue& q = *gpu.queues[fi];
      auto t = Clock::now();
      auto* h = static_cast<unsigned char*>(gpu.h_in[fi].data());
      std::int64_t off = 0;
      for (std::size_t i = 0; i < L.inputs.size(); ++i) {
        const ChannelSlot& c = L.inputs[i];
        const std::int64_t n = ef * c.steady + c.initial;
        if (!piece.in_peer[i]) {
          const auto* src = static_cast<const unsigned char*>(io.front(c.channel)) +
                            static_cast<std::size_t>(e0 * c.steady) * 4;
          std::memcpy(h + off * 4, src, static_cast<std::size_t>(n) * 4);
        }
        off += n;
      }
      gpu.stats.staging_ms += ms_since(t);
      q.begin_span("h2d");
      for (const Run& r : host_runs(L.inputs, piece.in_peer, ef, true)) {
        q.write(gpu.d_in[fi], static_cast<std::size_t>(r.offset) * 4, h + r.offset * 4,
                static_cast<std::size_t>(r.items) * 4);
        gpu.stats.h2d_bytes += static_cast<std::uint64_t>(r.items) * 4;
      }
      q.end_span();
      for (const bool same_gpu : {true, false}) {
        q.begin_span(same_gpu ? "channel" : "p2p");
        off = 0;
        for (std::size_t i = 0; i < L.inputs.size(); ++i) {
          const ChannelSlot& c = L.inputs[i];
          const std::int64_t n = ef * c.steady + c.initial;
          if (piece.in_peer[i] && piece.in_peer[i]->same_gpu() == same_gpu) {  // initial is 0
            q.copy(gpu.d_in[fi], static_cast<std::size_t>(off) * 4, in_land[i]->buffer(),
                   static_cast<std::size_t>(e0 * c.steady) * 4, static_cast<std::size_t>(n) * 4);
          }
          off += n;
        }
        q.end_span();
      }
      const std::int64_t groups = std::min<std::int64_t>(
          (ef + K.parallel_executions - 1) / K.parallel_executions, resident);
      q.begin_span("kernel");
      q.launch(piece.kernel,
               backend::LaunchShape{static_cast<std::uint32_t>(groups),
                                    static_cast<std::uint32_t>(K.group_size)},
               gpu.d_in[fi], gpu.d_out[fi], static_cast<std::uint32_t>(ef),
               backend::local_memory(K.local_bytes));
      q.end_span();
      q.begin_span("d2h");
      for (const Run& r : host_runs(L.outputs, piece.out_peer, ef, false)) {
        q.read(static_cast<unsigned char*>(gpu.h_out[fi].data()) + r.offset * 4, gpu.d_out[fi],
               static_cast<std::size_t>(r.offset) * 4, static_cast<std::size_t>(r.items) * 4);
        gpu.stats.d2h_bytes += static_cast<std::uint64_t>(r.items) * 4;
      }
      q.end_span();
      for (const bool same_gpu : {true, false}) {
        q.begin_span(same_gpu ? "channel" : "p2p");
        off = 0;
        for (std::size_t i = 0; i < L.outputs.size(); ++i) {
          const ChannelSlot& c = L.outputs[i];
          const std::int64_t n = ef * c.steady;
          if (piece.out_peer[i] && piece.out_peer[i]->same_gpu() == same_gpu) {
            const PeerChannel& pc = *piece.out_peer[i];
            q.copy_peer(out_land[i]->buffer(), pc.to(), static_cast<std::size_t>(e0 * c.steady) * 4,
                        gpu.d_out[fi], static_cast<std::size_t>(off) * 4,
                        static_cast<std::size_t>(n) * 4);
            (same_gpu ? gpu.stats.channel_bytes : gpu.stats.p2p_bytes) +=
                static_cast<std::uint64_t>(n) * 4;
          }
          off += n;
        }
        q.end_span();
      }
    }
    for (std::int64_t f = 0; f < F; ++f) {
      const auto fi = static_cast<std::size_t>(f);
      const std::int64_t ef = executions * (f + 1) / F - executions * f / F;
      auto t = Clock::now();
      for (const backend::TimedSpan& span : gpu.queues[fi]->take_spans()) {  // finishes the queue
        if (span.name == "kernel") {
          gpu.stats.kernel_ms += span.milliseconds;
          piece.kernel_ms += span.milliseconds;
        } else if (span.name == "h2d")
          gpu.stats.h2d_ms += span.milliseconds;
        else if (span.name == "d2h")
          gpu.stats.d2h_ms += span.milliseconds;
        else if (span.name == "channel")
          gpu.stats.channel_ms += span.milliseconds;
        else
          gpu.stats.p2p_ms += span.milliseconds;
      }
      gpu.stats.wait_ms += ms_since(t);
      t = Clock::now();
      const auto* h = static_cast<const unsigned char*>(gpu.h_out[fi].data());
      std::size_t off = 0;
      for (std::size_t i = 0; i < L.outputs.size(); ++i) {
        const auto n = static_cast<std::size_t>(ef * L.outputs[i].steady);
        if (!piece.out_peer[i]) io.append(L.outputs[i].channel, h + off * 4, n);
        off += n;
      }
      gpu.stats.staging_ms += ms_since(t);
    }
    for (std::size_t i = 0; i < L.inputs.size(); ++i) {
      if (!piece.in_peer[i])
        io.consume(L.inputs[i].channel, static_cast<std::size_t>(executions * L.inputs[i].steady));
    }
    for (std::size_t i = 0; i < L.outputs.size(); ++i) {
      if (out_land[i]) io.attach(L.outputs[i].channel, std::move(out_land[i]));
    }
  }
};

namespace {

// Every GPU partition on GPU 0.
Mapping one_gpu(const Partitioning& p) {
  Mapping m;
  m.gpus = 1;
  for (const Partition& part : p.partitions) {
    m.gpu_of_partition.push_back(part.target == Target::gpu ? 0 : -1);
    m.cpu_thread_of_partition.push_back(-1);
  }
  return m;
}

}  // namespace

GpuGraph::GpuGraph(backend::Device& device, const Graph& g, const Schedule& s,
                   const Partitioning& p, const GpuRunOptions& options)
    : GpuGraph(std::vector<backend::Device*>{&device}, g, s, p, one_gpu(p), options) {}

GpuGraph::GpuGraph(const std::vector<backend::Device*>& devices, const Graph& g, const Schedule& s,
                   const Partitioning& p, const Mapping& mapping, const GpuRunOptions& options)
    : impl_(std::make_unique<Impl>(options)) {
  Impl& im = *impl_;
  if (devices.empty() || std::find(devices.begin(), devices.end(), nullptr) != devices.end())
    throw UsageError("stream graph GPU executor: no GPU given");
  if (mapping.gpu_of_partition.size() != p.partitions.size())
    throw UsageError("stream graph GPU executor: the mapping does not match the partitions");
  im.gpus.resize(devices.size());
  for (std::size_t i = 0; i < devices.size(); ++i) im.gpus[i].device = devices[i];
  for (std::size_t pi = 0; pi < p.partitions.size(); ++pi) {
    const Partition& part = p.partitions[pi];
    if (part.target == Target::cpu) {
      cpu_nodes_.push_back(part.nodes);
      continue;
    }
    const int gpu = mapping.gpu_of_partition[pi];
    if (gpu < 0 || gpu >= static_cast<int>(devices.size()))
      throw UsageError(
          fmt::format("stream graph GPU executor: partition {} is mapped to GPU {} of {}", pi, gpu,
                      devices.size()));
    int size_cuts = 0;
    auto pieces = split_for_codegen(g, s, part.nodes, options.target, &size_cuts);
    if (options.single && size_cuts > 0) {
      throw SkipPoint(
          fmt::format("no solution: the single partition's exact layout (levels run in parallel, "
                      "double buffer) does not fit {} bytes of local memory",
                      options.target.local_bytes));
    }
    for (auto& nodes : pieces) {
      auto piece = std::make_unique<Piece>();
      const std::string kernel = fmt::format("sg_part{}", im.pieces.size());
      piece->gk = generate_kernel(g, s, nodes, options.target, kernel);
      piece->gpu = gpu;
      piece->partition = static_cast<int>(pi);
      for (const ChannelSlot& c : piece->gk.layout.inputs) {
        piece->in_steady += c.steady;
        piece->in_initial += c.initial;
      }
      for (const ChannelSlot& c : piece->gk.layout.outputs) piece->out_steady += c.steady;
      piece->in_peer.resize(piece->gk.layout.inputs.size());
      piece->out_peer.resize(piece->gk.layout.outputs.size());
      im.gpus[static_cast<std::size_t>(gpu)].stats.pieces += 1;
      im.pieces.push_back(std::move(piece));
    }
  }
  cpu_partitions_ = static_cast<int>(cpu_nodes_.size());
  int stage = 0;
  for (Gpu& gpu : im.gpus) {
    if (gpu.stats.pieces > 0) gpu.stage = stage++;
  }

  // Channels between pieces: kept in device memory on one GPU; between GPUs
  // staged on the host, or peer to peer where they can be.
  const int streams = std::max(1, options.streams);
  im.fragment_max = std::max<std::int64_t>(1, (options.max_block + streams - 1) / streams);
  std::vector<int> piece_of(static_cast<std::size_t>(g.node_count()), -1);
  for (std::size_t k = 0; k < im.pieces.size(); ++k) {
    for (NodeId v : im.pieces[k]->gk.layout.nodes)
      piece_of[static_cast<std::size_t>(v)] = static_cast<int>(k);
  }
  // A device buffer between two pieces: the producer's queue copies the
  // channel's block there, the consumer's copies it in.
  auto route_on_device = [&](ChannelId c, Piece& from, Piece& to, std::size_t out_slot,
                             std::size_t in_slot, backend::PeerCopy path, std::size_t buffers) {
    auto peer = std::make_shared<PeerChannel>(
        c, *im.gpus[static_cast<std::size_t>(from.gpu)].device,
        *im.gpus[static_cast<std::size_t>(to.gpu)].device, path,
        options.max_block * to.gk.layout.inputs[in_slot].steady, buffers, from.gpu == to.gpu);
    to.in_peer[in_slot] = peer;
    from.out_peer[out_slot] = peer;
    im.peers.push_back(peer);
  };
  for (ChannelId c = 0; c < g.channel_count(); ++c) {
    const int a = piece_of[static_cast<std::size_t>(g.channel(c).src)];
    const int b = piece_of[static_cast<std::size_t>(g.channel(c).dst)];
    if (a < 0 || b < 0 || a == b) continue;  // a CPU partition's, or inside one piece
    Piece& from = *im.pieces[static_cast<std::size_t>(a)];
    Piece& to = *im.pieces[static_cast<std::size_t>(b)];
    std::size_t in_slot = 0, out_slot = 0;
    while (to.gk.layout.inputs[in_slot].channel != c) ++in_slot;
    while (from.gk.layout.outputs[out_slot].channel != c) ++out_slot;
    const bool peeks = to.gk.layout.inputs[in_slot].initial > 0;
    if (from.gpu == to.gpu) {
      // Section 6.1: a channel between partitions on one GPU is passed by
      // pointer, not copied through the host. Both pieces run on the GPU's
      // thread, the consumer after the producer within a block, so two
      // buffers never run out. A consumer that peeks across executions keeps
      // the host FIFO, which holds the items it peeks at.
      if (!options.device_channels || peeks) {
        ++im.routes.same_gpu_host;
        continue;
      }
      route_on_device(c, from, to, out_slot, in_slot, backend::PeerCopy::same_device, 2);
      ++im.routes.same_gpu_device;
      continue;
    }
    ++im.routes.crossing;
    im.routes.crossing_bytes_per_execution +=
        static_cast<std::uint64_t>(s.channels[static_cast<std::size_t>(c)].steady_items) * 4;
    if (options.channels == ChannelMode::host) {
      ++im.routes.host;
      continue;
    }
    backend::Device& src = *im.gpus[static_cast<std::size_t>(from.gpu)].device;
    backend::Device& dst = *im.gpus[static_cast<std::size_t>(to.gpu)].device;
    const backend::PeerCopy path = src.peer_copy(dst);
    if (path == backend::PeerCopy::none || peeks) {
      ++im.routes.host;
      ++im.routes.fallback;
      ++(peeks ? im.routes.fallback_peek : im.routes.fallback_no_peer);
      continue;
    }
    route_on_device(c, from, to, out_slot, in_slot, path, options.queue_blocks + 2);
    ++im.routes.p2p;
    // The slowest path taken: driver-staged < direct < same device.
    auto rank = [](backend::PeerCopy x) {
      return x == backend::PeerCopy::driver ? 1 : x == backend::PeerCopy::direct ? 2 : 3;
    };
    if (im.routes.path == backend::PeerCopy::none || rank(path) < rank(im.routes.path))
      im.routes.path = path;
  }

  // Build on each piece's device (devices cache programs by name; the name
  // carries a hash of the source), several pieces at once: a graph of many
  // pieces spends most of its set-up in the run-time compiler.
  std::vector<std::string> texts;
  for (auto& piece_ptr : im.pieces) {
    const Piece& piece = *piece_ptr;
    const bool cuda =
        im.gpus[static_cast<std::size_t>(piece.gpu)].device->info().kind == backend::Kind::cuda;
    texts.push_back(im.full_source(piece));
    if (!options.dump_dir.empty()) {
      std::filesystem::create_directories(options.dump_dir);
      std::string file = options.name + "-" + piece.gk.kernel_name + (cuda ? ".cu" : ".cl");
      std::replace(file.begin(), file.end(), '/', '_');
      const auto path = std::filesystem::path(options.dump_dir) / file;
      if (std::find(dumped_.begin(), dumped_.end(), path.string()) == dumped_.end()) {
        std::ofstream out(path);
        out << texts.back();
        if (!out) throw RunError("cannot write the generated source to " + path.string());
        dumped_.push_back(path.string());
      }
    }
  }
  auto build_piece = [&](std::size_t k) {
    Piece& piece = *im.pieces[k];
    backend::Device& device = *im.gpus[static_cast<std::size_t>(piece.gpu)].device;
    backend::ProgramSource src;
    src.name = fmt::format("streamgraph/{}/{}/{:016x}", options.name, piece.gk.kernel_name,
                           std::hash<std::string>{}(texts[k]));
    if (device.info().kind == backend::Kind::cuda) {
      src.cuda_text = texts[k];
      src.cuda_options = {"--maxrregcount=64"};
    } else {
      src.opencl_files = piece.gk.files;
      src.opencl_text = "\n" + piece.gk.code;
    }
    piece.program = device.build(src);
    piece.kernel = piece.program->kernel(piece.gk.kernel_name);
  };
  run_in_parallel(im.pieces.size(), options.build_threads, build_piece);

  // Per GPU with pieces: queues and buffers for the fragments of a block.
  for (std::size_t gi = 0; gi < im.gpus.size(); ++gi) {
    Gpu& gpu = im.gpus[gi];
    if (gpu.stage < 0) continue;
    std::int64_t in_items = 1, out_items = 1;
    for (const auto& piece : im.pieces) {
      if (piece->gpu != static_cast<int>(gi)) continue;
      in_items = std::max(in_items, im.fragment_max * piece->in_steady + piece->in_initial);
      out_items = std::max(out_items, im.fragment_max * piece->out_steady);
    }
    backend::Device& device = *gpu.device;
    for (int q = 0; q < streams; ++q) {
      gpu.queues.push_back(device.create_queue());
      gpu.d_in.push_back(device.allocate(static_cast<std::size_t>(in_items) * 4));
      gpu.d_out.push_back(device.allocate(static_cast<std::size_t>(out_items) * 4));
      gpu.h_in.push_back(device.allocate_host(static_cast<std::size_t>(in_items) * 4,
                                              backend::HostMemory::pinned));
      gpu.h_out.push_back(device.allocate_host(static_cast<std::size_t>(out_items) * 4,
                                               backend::HostMemory::pinned));
    }
  }
}

GpuGraph::~GpuGraph() {
  if (impl_) {
    for (Gpu& gpu : impl_->gpus) {
      for (auto& q : gpu.queues) q->finish();
    }
  }
}

PipelinePlan GpuGraph::plan() {
  PipelinePlan plan;
  Impl* im = impl_.get();
  int gpu_stages = 0;
  for (std::size_t gi = 0; gi < im->gpus.size(); ++gi) {
    const Gpu& gpu = im->gpus[gi];
    if (gpu.stage < 0) continue;
    gpu_stages = std::max(gpu_stages, gpu.stage + 1);
    plan.stage_setup.resize(static_cast<std::size_t>(gpu_stages));
    Gpu* target = &im->gpus[gi];
    plan.stage_setup[static_cast<std::size_t>(gpu.stage)] = [target] {
      target->device->make_current();
      target->thread = std::this_thread::get_id();
    };
  }
  for (std::size_t k = 0; k < im->pieces.size(); ++k) {
    PipelineUnit unit;
    unit.nodes = im->pieces[k]->gk.layout.nodes;
    unit.stage = im->gpus[static_cast<std::size_t>(im->pieces[k]->gpu)].stage;
    unit.device_run = [im, k](ChannelAccess& io, std::int64_t executions) {
      im->run_piece(k, io, executions);
    };
    plan.units.push_back(std::move(unit));
  }
  for (std::size_t c = 0; c < cpu_nodes_.size(); ++c) {
    PipelineUnit unit;
    unit.nodes = cpu_nodes_[c];
    unit.stage = static_cast<int>(c) + gpu_stages;
    plan.units.push_back(std::move(unit));
  }
  return plan;
}

int GpuGraph::gpu_pieces() const { return static_cast<int>(impl_->pieces.size()); }
int GpuGraph::gpus() const { return static_cast<int>(impl_->gpus.size()); }
int GpuGraph::gpus_used() const {
  return static_cast<int>(std::count_if(impl_->gpus.begin(), impl_->gpus.end(),
                                        [](const Gpu& g) { return g.stage >= 0; }));
}

std::vector<int> GpuGraph::gpu_of_piece() const {
  std::vector<int> out;
  for (const auto& p : impl_->pieces) out.push_back(p->gpu);
  return out;
}
std::vector<int> GpuGraph::partition_of_piece() const {
  std::vector<int> out;
  for (const auto& p : impl_->pieces) out.push_back(p->partition);
  return out;
}
std::vector<int> GpuGraph::ran_on() const {
  std::vector<int> out;
  for (const auto& p : impl_->pieces) out.push_back(p->ran_on.load());
  return out;
}
const ChannelRoutes& GpuGraph::routes() const { return impl_->routes; }
std::vector<GpuStats> GpuGraph::stats() const {
  std::vector<GpuStats> out;
  for (const Gpu& g : impl_->gpus) out.push_back(g.stats);
  return out;
}
void GpuGraph::reset_stats() {
  for (Gpu& g : impl_->gpus) {
    const int pieces = g.stats.pieces;
    g.stats = GpuStats{};
    g.stats.pieces = pieces;
  }
  for (auto& p : impl_->pieces) p->kernel_ms = 0;
}
std::vector<double> GpuGraph::piece_kernel_ms() const {
  std::vector<double> out;
  for (const auto& p : impl_->pieces) out.push_back(p->kernel_ms);
  return out;
}

std::vector<GeneratedKernel> GpuGraph::kernels() const {
  std::vector<GeneratedKernel> out;
  for (const auto& p : impl_->pieces) out.push_back(p->gk);
  return out;
}

std::string GpuGraph::source(std::size_t i) const {
  return impl_->full_source(*impl_->pieces.at(i));
}

}  // namespace harness::streamgraph
