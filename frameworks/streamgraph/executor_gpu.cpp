#include "frameworks/streamgraph/executor_gpu.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "harness/core/embedded_files.h"
#include "harness/core/errors.h"

namespace harness::streamgraph {

namespace {

std::uint64_t budget_of(const backend::DeviceInfo& info, std::uint64_t shared_bytes) {
  if (shared_bytes > 0) return shared_bytes;
  return std::max(info.local_memory_bytes, info.local_memory_optin_bytes);
}

struct Piece {
  GeneratedKernel gk;
  std::shared_ptr<backend::Program> program;
  backend::Kernel kernel;
  std::int64_t in_steady = 0, in_initial = 0, out_steady = 0;  // sums over channels
};

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
  // OpenCL has no portable cap, so GPU groups stay at 512 (up to 128 registers).
  if (info.kind == backend::Kind::opencl && info.type == "gpu")
    t.max_group_size = std::min(t.max_group_size, 512);
  t.warp_size = info.warp_size > 0 ? info.warp_size : 32;
  return t;
}

struct GpuGraph::Impl {
  backend::Device& device;
  GpuRunOptions options;
  std::vector<Piece> pieces;
  std::vector<std::unique_ptr<backend::Queue>> queues;
  std::vector<backend::Buffer> d_in, d_out;
  std::vector<backend::HostBuffer> h_in, h_out;
  std::int64_t fragment_max = 1;  // executions a fragment's buffers hold

  Impl(backend::Device& d, GpuRunOptions o) : device(d), options(std::move(o)) {}

  std::string full_source(const Piece& p) const {
    return compose_source(p.gk.files) + "\n" + p.gk.code;
  }

  void run_piece(std::size_t k, ChannelAccess& io, std::int64_t executions) {
    const Piece& piece = pieces[k];
    const PartitionLayout& L = piece.gk.layout;
    const KernelPlan& K = piece.gk.plan;
    for (const ChannelSlot& c : L.inputs) {
      const auto need = static_cast<std::size_t>(executions * c.steady + c.initial);
      if (io.size(c.channel) < need) {
        throw RunError(fmt::format(
            "stream graph GPU executor: {} needs {} items on channel {}, the host FIFO holds {}",
            piece.gk.kernel_name, need, c.channel, io.size(c.channel)));
      }
    }
    const auto F = static_cast<std::int64_t>(
        std::min<std::int64_t>(static_cast<std::int64_t>(queues.size()), executions));
    const auto& info = device.info();
    const std::int64_t resident =
        std::max<std::int64_t>(1, info.compute_units) *
        std::max<std::uint64_t>(
            1,
            std::min<std::uint64_t>(budget_of(info, 0) / std::max<std::uint64_t>(1, K.local_bytes),
                                    2048 / static_cast<std::uint64_t>(K.group_size)));
    for (std::int64_t f = 0; f < F; ++f) {
      const std::int64_t e0 = executions * f / F, e1 = executions * (f + 1) / F;
      const std::int64_t ef = e1 - e0;
      if (ef > fragment_max)
        throw RunError("stream graph GPU executor: block larger than its buffers");
      auto* h = static_cast<unsigned char*>(h_in[static_cast<std::size_t>(f)].data());
      std::size_t off = 0;
      for (const ChannelSlot& c : L.inputs) {
        const auto n = static_cast<std::size_t>(ef * c.steady + c.initial);
        const auto* src = static_cast<const unsigned char*>(io.front(c.channel)) +
                          static_cast<std::size_t>(e0 * c.steady) * 4;
        std::memcpy(h + off * 4, src, n * 4);
        off += n;
      }
      backend::Queue& q = *queues[static_cast<std::size_t>(f)];
      q.write(d_in[static_cast<std::size_t>(f)], 0, h, off * 4);
      const std::int64_t groups = std::min<std::int64_t>(
          (ef + K.parallel_executions - 1) / K.parallel_executions, resident);
      q.launch(piece.kernel,
               backend::LaunchShape{static_cast<std::uint32_t>(groups),
                                    static_cast<std::uint32_t>(K.group_size)},
               d_in[static_cast<std::size_t>(f)], d_out[static_cast<std::size_t>(f)],
               static_cast<std::uint32_t>(ef), backend::local_memory(K.local_bytes));
      const auto out_bytes = static_cast<std::size_t>(ef * piece.out_steady) * 4;
      q.read(h_out[static_cast<std::size_t>(f)].data(), d_out[static_cast<std::size_t>(f)], 0,
             out_bytes);
    }
    for (std::int64_t f = 0; f < F; ++f) {
      const std::int64_t ef = executions * (f + 1) / F - executions * f / F;
      queues[static_cast<std::size_t>(f)]->finish();
      const auto* h = static_cast<const unsigned char*>(h_out[static_cast<std::size_t>(f)].data());
      std::size_t off = 0;
      for (const ChannelSlot& c : L.outputs) {
        const auto n = static_cast<std::size_t>(ef * c.steady);
        io.append(c.channel, h + off * 4, n);
        off += n;
      }
    }
    for (const ChannelSlot& c : L.inputs)
      io.consume(c.channel, static_cast<std::size_t>(executions * c.steady));
  }
};

GpuGraph::GpuGraph(backend::Device& device, const Graph& g, const Schedule& s,
                   const Partitioning& p, const GpuRunOptions& options)
    : impl_(std::make_unique<Impl>(device, options)) {
  Impl& im = *impl_;
  const bool cuda = device.info().kind == backend::Kind::cuda;
  for (const Partition& part : p.partitions) {
    if (part.target == Target::cpu) {
      cpu_nodes_.push_back(part.nodes);
      continue;
    }
    int size_cuts = 0;
    auto pieces = split_for_codegen(g, s, part.nodes, options.target, &size_cuts);
    if (options.single && size_cuts > 0) {
      throw SkipPoint(
          fmt::format("no solution: the single partition's exact layout (levels run in parallel, "
                      "double buffer) does not fit {} bytes of local memory",
                      options.target.local_bytes));
    }
    for (auto& nodes : pieces) {
      Piece piece;
      const std::string kernel = fmt::format("sg_part{}", im.pieces.size());
      piece.gk = generate_kernel(g, s, nodes, options.target, kernel);
      for (const ChannelSlot& c : piece.gk.layout.inputs) {
        piece.in_steady += c.steady;
        piece.in_initial += c.initial;
      }
      for (const ChannelSlot& c : piece.gk.layout.outputs) piece.out_steady += c.steady;
      im.pieces.push_back(std::move(piece));
    }
  }
  cpu_partitions_ = static_cast<int>(cpu_nodes_.size());

  // Build (the device caches programs by name; the name carries a hash of the source).
  for (Piece& piece : im.pieces) {
    const std::string text = im.full_source(piece);
    const std::size_t hash = std::hash<std::string>{}(text);
    backend::ProgramSource src;
    src.name = fmt::format("streamgraph/{}/{}/{:016x}", options.name, piece.gk.kernel_name, hash);
    if (!options.dump_dir.empty()) {
      std::filesystem::create_directories(options.dump_dir);
      std::string file = options.name + "-" + piece.gk.kernel_name + (cuda ? ".cu" : ".cl");
      std::replace(file.begin(), file.end(), '/', '_');
      const auto path = std::filesystem::path(options.dump_dir) / file;
      std::ofstream out(path);
      out << text;
      if (!out) throw RunError("cannot write the generated source to " + path.string());
      dumped_.push_back(path.string());
    }
    if (cuda) {
      src.cuda_text = text;
      src.cuda_options = {"--maxrregcount=64"};
    } else {
      src.opencl_files = piece.gk.files;
      src.opencl_text = "\n" + piece.gk.code;
    }
    piece.program = device.build(src);
    piece.kernel = piece.program->kernel(piece.gk.kernel_name);
  }

  // Queues and buffers for the fragments of a block.
  const int streams = std::max(1, options.streams);
  im.fragment_max = std::max<std::int64_t>(1, (options.max_block + streams - 1) / streams);
  std::int64_t in_items = 1, out_items = 1;
  for (const Piece& piece : im.pieces) {
    in_items = std::max(in_items, im.fragment_max * piece.in_steady + piece.in_initial);
    out_items = std::max(out_items, im.fragment_max * piece.out_steady);
  }
  for (int q = 0; q < streams; ++q) {
    im.queues.push_back(device.create_queue());
    im.d_in.push_back(device.allocate(static_cast<std::size_t>(in_items) * 4));
    im.d_out.push_back(device.allocate(static_cast<std::size_t>(out_items) * 4));
    im.h_in.push_back(
        device.allocate_host(static_cast<std::size_t>(in_items) * 4, backend::HostMemory::pinned));
    im.h_out.push_back(
        device.allocate_host(static_cast<std::size_t>(out_items) * 4, backend::HostMemory::pinned));
  }
}

GpuGraph::~GpuGraph() {
  if (impl_) {
    for (auto& q : impl_->queues) q->finish();
  }
}

PipelinePlan GpuGraph::plan() {
  PipelinePlan plan;
  Impl* im = impl_.get();
  for (std::size_t k = 0; k < im->pieces.size(); ++k) {
    PipelineUnit unit;
    unit.nodes = im->pieces[k].gk.layout.nodes;
    unit.stage = 0;
    unit.device_run = [im, k](ChannelAccess& io, std::int64_t executions) {
      im->run_piece(k, io, executions);
    };
    plan.units.push_back(std::move(unit));
  }
  for (std::size_t c = 0; c < cpu_nodes_.size(); ++c) {
    PipelineUnit unit;
    unit.nodes = cpu_nodes_[c];
    unit.stage = static_cast<int>(c) + (im->pieces.empty() ? 0 : 1);
    plan.units.push_back(std::move(unit));
  }
  return plan;
}

int GpuGraph::gpu_pieces() const { return static_cast<int>(impl_->pieces.size()); }

std::vector<GeneratedKernel> GpuGraph::kernels() const {
  std::vector<GeneratedKernel> out;
  for (const Piece& p : impl_->pieces) out.push_back(p.gk);
  return out;
}

std::string GpuGraph::source(std::size_t i) const {
  return impl_->full_source(impl_->pieces.at(i));
}

}  // namespace harness::streamgraph
