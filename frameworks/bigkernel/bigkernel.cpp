#include "frameworks/bigkernel/bigkernel.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/bigkernel/chunk_plan.h"
#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/cuda_programs.h"
#include "frameworks/blocks/pipeline.h"
#include "frameworks/workloads/kmeans_particles/cluster_ids_output.h"
#include "frameworks/workloads/kmeans_particles/particles_format.h"
#include "frameworks/workloads/netflix/netflix_format.h"
#include "frameworks/workloads/netflix/pair_scores_output.h"
#include "frameworks/workloads/workload_point.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "harness/core/sizes.h"
#include "harness/core/stopwatch.h"

namespace harness::bigkernel {
namespace {

using blocks::BufferPool;
using workloads::Output;

constexpr std::uint32_t kGroupSize = 256;

// A grow-only pinned host buffer (pageable where the backend cannot pin).
void ensure_host(backend::Device& device, backend::HostBuffer& buffer, std::size_t bytes) {
  if (buffer.size() >= bytes && buffer.data()) return;
  buffer = backend::HostBuffer();
  buffer = device.allocate_host(std::max<std::size_t>(bytes, 8), backend::HostMemory::pinned);
}

std::string d2h_ceiling(const backend::HostBuffer& b) {
  return b.kind() == backend::HostMemory::pageable ? "d2h_pageable" : "d2h_pinned";
}

// An app's plain kernel and its buffers beside the chunk.
class AppKernel {
 public:
  virtual ~AppKernel() = default;
  virtual std::size_t record_bytes() const = 0;
  // Device bytes of the buffers every lane shares (pool slack included), and
  // what they hold, for messages.
  virtual std::uint64_t fixed_bytes(const Params& params) const = 0;
  virtual std::string fixed_text() const = 0;
  // Untimed: builds the program, allocates the fixed device buffers.
  virtual void prepare(backend::Device& device, BufferPool& pool, const Params& params,
                       const std::uint8_t* input, std::size_t size) = 0;
  // Device bytes of one lane's buffers beside its chunk, for `records` records.
  virtual std::uint64_t side_bytes(std::uint64_t records) const = 0;
  // What side_bytes holds, for messages ("write buffer of 8 B a record").
  virtual std::string side_text() const = 0;
  // Timed: host storage for a run over `chunks` of at most `per_chunk` records.
  virtual void begin_run(const std::vector<Chunk>& chunks, std::uint64_t per_chunk) = 0;
  // Enqueues chunk `index`'s kernel on `q` (its chunk in `data`), then ends
  // the compute span, opens "copy_out" and copies the chunk's results back.
  virtual void enqueue(backend::Queue& q, backend::Buffer& data, std::uint32_t lane,
                       std::size_t index, const Chunk& chunk) = 0;
  // Timed: the run's Output from the results in host memory.
  virtual std::unique_ptr<Output> finish_run() = 0;
  virtual std::uint64_t copied_out() const = 0;
  virtual std::string copy_out_ceiling() const = 0;
};

backend::ProgramSource plain_program(const std::string& app, const std::string& file) {
  backend::ProgramSource src = program_source("bigkernel/" + app + "/plain", {file});
  src.opencl_options = "-DBK_MODE_PLAIN=1";
  return src;
}

class KmeansKernel final : public AppKernel {
 public:
  std::size_t record_bytes() const override { return workloads::kmeans_particles::kRecordBytes; }
  std::uint64_t fixed_bytes(const Params& params) const override {
    return pool_bytes(std::uint64_t{param_u32(params, "k")} * 4 * sizeof(double));
  }
  std::string fixed_text() const override { return "the centroids"; }
  void prepare(backend::Device& device, BufferPool& pool, const Params& params,
               const std::uint8_t* input, std::size_t size) override {
    namespace km = workloads::kmeans_particles;
    device_ = &device;
    pool_ = &pool;
    k_ = param_u32(params, "k");
    const std::vector<km::Point> centroids = km::first_k_centroids(input, size, k_);
    std::vector<double> flat;
    for (const km::Point& c : centroids) flat.insert(flat.end(), c.begin(), c.end());
    centroids_ = &pool.get("bk.centroids", flat.size() * sizeof(double));
    device.queue().write(*centroids_, 0, flat.data(), flat.size() * sizeof(double));
    device.queue().finish();
    program_ = device.build(
        plain_program("kmeans-particles", "frameworks/bigkernel/apps/kmeans_particles.clh"));
    kernel_ = program_->kernel("bk_kmeans_particles");
  }
  std::uint64_t side_bytes(std::uint64_t records) const override { return pool_bytes(records * 8); }
  std::string side_text() const override { return "write buffer of 8 B a record"; }
  void begin_run(const std::vector<Chunk>& chunks, std::uint64_t) override {
    records_ = chunks.empty() ? 0 : chunks.back().first + chunks.back().count;
    ensure_host(*device_, writes_host_, records_ * 8);
    copied_out_ = 0;
  }
  void enqueue(backend::Queue& q, backend::Buffer& data, std::uint32_t lane, std::size_t,
               const Chunk& c) override {
    backend::Buffer& writes = pool_->get("bk.writes.lane" + std::to_string(lane), c.count * 8);
    q.launch(kernel_, backend::LaunchShape::cover(c.count, kGroupSize), data,
             std::uint64_t{c.first * record_bytes()}, static_cast<std::uint32_t>(record_bytes()),
             writes, std::uint64_t{c.first}, static_cast<std::uint32_t>(c.count), *centroids_, k_);
    q.end_span();
    q.begin_span("copy_out");
    q.read_async(writes_host_, c.first * 8, writes, 0, c.count * 8);
    copied_out_ += c.count * 8;
  }
  std::unique_ptr<Output> finish_run() override {
    auto out = std::make_unique<workloads::kmeans_particles::ClusterIdsOutput>(records_, k_);
    const auto* ids = static_cast<const std::int64_t*>(writes_host_.data());
    for (std::size_t i = 0; i < records_; ++i) out->ids()[i] = static_cast<std::uint32_t>(ids[i]);
    return out;
  }
  std::uint64_t copied_out() const override { return copied_out_; }
  std::string copy_out_ceiling() const override { return d2h_ceiling(writes_host_); }

 private:
  backend::Device* device_ = nullptr;
  BufferPool* pool_ = nullptr;
  std::uint32_t k_ = 0;
  backend::Buffer* centroids_ = nullptr;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel kernel_;
  backend::HostBuffer writes_host_;
  std::uint64_t records_ = 0, copied_out_ = 0;
};

// A chunk's table: at least twice its records, a power of two.
std::uint64_t table_slots(std::uint64_t records) {
  return std::bit_ceil(std::max<std::uint64_t>(2 * records, 2));
}

class NetflixKernel final : public AppKernel {
 public:
  static_assert(sizeof(workloads::netflix::PairTally) == 16, "the device table's slot layout");
  std::size_t record_bytes() const override { return workloads::netflix::kRecordBytes; }
  std::uint64_t fixed_bytes(const Params&) const override { return pool_bytes(4) + pool_bytes(8); }
  std::string fixed_text() const override { return "the table-full flag"; }
  void prepare(backend::Device& device, BufferPool& pool, const Params&, const std::uint8_t*,
               std::size_t) override {
    device_ = &device;
    pool_ = &pool;
    full_ = &pool.get("bk.table_full", 4);
    no_writes_ = &pool.get("bk.no_writes", 8);
    program_ = device.build(plain_program("netflix", "frameworks/bigkernel/apps/netflix.clh"));
    kernel_ = program_->kernel("bk_netflix");
  }
  std::uint64_t side_bytes(std::uint64_t records) const override {
    return pool_bytes(table_slots(records) * 16);
  }
  std::string side_text() const override {
    return "hash table of 16 B slots, a power of two at least twice the records";
  }
  void begin_run(const std::vector<Chunk>& chunks, std::uint64_t per_chunk) override {
    stride_ = table_slots(per_chunk) * 16;
    ensure_host(*device_, tables_host_, chunks.size() * stride_);
    slots_.assign(chunks.size(), 0);
    copied_out_ = 0;
    device_->queue().fill_zero(*full_, 0, 4);
    device_->queue().finish();
  }
  void enqueue(backend::Queue& q, backend::Buffer& data, std::uint32_t lane, std::size_t index,
               const Chunk& c) override {
    const std::uint64_t slots = table_slots(c.count);
    backend::Buffer& table = pool_->get("bk.table.lane" + std::to_string(lane), slots * 16);
    q.fill_zero(table, 0, slots * 16);
    q.launch(kernel_, backend::LaunchShape::cover(c.count, kGroupSize), data,
             std::uint64_t{c.first * record_bytes()}, static_cast<std::uint32_t>(record_bytes()),
             *no_writes_, std::uint64_t{c.first}, static_cast<std::uint32_t>(c.count), table,
             static_cast<std::uint32_t>(slots - 1), *full_);
    q.end_span();
    q.begin_span("copy_out");
    q.read_async(tables_host_, index * stride_, table, 0, slots * 16);
    slots_[index] = slots;
    copied_out_ += slots * 16;
  }
  // The chunks' tables merged: every pair once, its sums added.
  std::unique_ptr<Output> finish_run() override {
    using workloads::netflix::PairTally;
    std::uint32_t full = 0;
    device_->queue().read(&full, *full_, 0, 4);
    if (full) throw RunError("bigkernel netflix: a chunk's hash table filled up");
    std::vector<PairTally> rows;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      const auto* t = reinterpret_cast<const PairTally*>(
          static_cast<const std::uint8_t*>(tables_host_.data()) + i * stride_);
      for (std::uint64_t s = 0; s < slots_[i]; ++s) {
        if (t[s].pair != 0) rows.push_back(t[s]);
      }
    }
    return workloads::netflix::combine_tallies(std::move(rows));
  }
  std::uint64_t copied_out() const override { return copied_out_; }
  std::string copy_out_ceiling() const override { return d2h_ceiling(tables_host_); }

 private:
  backend::Device* device_ = nullptr;
  BufferPool* pool_ = nullptr;
  backend::Buffer *full_ = nullptr, *no_writes_ = nullptr;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel kernel_;
  backend::HostBuffer tables_host_;
  std::uint64_t stride_ = 0, copied_out_ = 0;
  std::vector<std::uint64_t> slots_;
};

std::unique_ptr<AppKernel> make_app_kernel(const std::string& app) {
  if (app == workloads::kmeans_particles::kApp) return std::make_unique<KmeansKernel>();
  if (app == workloads::netflix::kApp) return std::make_unique<NetflixKernel>();
  throw UsageError("bigkernel runs kmeans-particles and netflix, not " + app);
}

// single-buffer (one lane) and double-buffer (two): chunks of whole records
// copied into a lane's buffer, the plain kernel run on it, the written fields
// or the chunk's table copied back, each lane in its queue's order.
class BufferedPoint final : public workloads::WorkloadPoint {
 public:
  BufferedPoint(const PointContext& ctx, std::string variant, std::uint32_t lanes)
      : WorkloadPoint(ctx), variant_(std::move(variant)), lanes_(lanes) {
    if (!ctx.device) throw UsageError("bigkernel/" + variant_ + " needs a GPU backend device");
    device_ = ctx.device;
    pool_ = std::make_unique<BufferPool>(*device_);
    pipeline_ = std::make_unique<blocks::CopyComputePipeline>(*device_, *pool_, "bk.chunk");
    pipeline_->set_lanes(lanes_);
    app_ = make_app_kernel(ctx.app);
  }

 protected:
  void prepare_run() override {
    const std::size_t rb = app_->record_bytes();
    records_ = ctx_.input_size / rb;
    const LaneBytes lane = [this, rb](std::uint64_t r) {
      return pool_bytes(r * rb) + app_->side_bytes(r);
    };
    // Checked before anything is allocated, so a small budget fails here.
    const std::uint64_t fixed = app_->fixed_bytes(ctx_.params);
    const std::uint64_t available = device_->memory_available();
    const std::uint64_t max_alloc = device_->info().max_allocation_bytes;
    const std::uint64_t max_records =
        std::min<std::uint64_t>(std::numeric_limits<std::uint32_t>::max() / 2,
                                max_alloc ? max_alloc / rb / 2 : ~std::uint64_t{0});
    per_chunk_ = fixed <= available
                     ? records_per_chunk(records_, lanes_, available - fixed, lane, max_records)
                     : 0;
    if (per_chunk_ == 0) {
      const std::uint64_t budget = device_->memory_budget();
      throw RunError(fmt::format(
          "bigkernel/{}: the GPU memory budget {} ({} B available) is too small: one round needs "
          "{} B ({} lane(s) x (a chunk of one {} B record + its {}) + {}, with the pool's slack)",
          variant_, budget ? format_size(budget) : "(none)", available, fixed + lanes_ * lane(1),
          lanes_, rb, app_->side_text(), app_->fixed_text()));
    }
    app_->prepare(*device_, *pool_, ctx_.params, ctx_.input, ctx_.input_size);
    chunks_ = chunks(records_, per_chunk_);
    pieces_.clear();
    for (const Chunk& c : chunks_) pieces_.push_back({c.first * rb, c.count * rb});
  }

  Measurement run_once() override {
    last_.reset();
    Measurement m;
    Stopwatch clock;
    app_->begin_run(chunks_, per_chunk_);
    blocks::CopyComputePipeline::Busy busy;
    if (!chunks_.empty()) {
      busy = pipeline_->run(
          ctx_.input, pieces_, [this](backend::Queue& q, backend::Buffer& data, std::size_t i) {
            app_->enqueue(q, data, static_cast<std::uint32_t>(i % lanes_), i, chunks_[i]);
          });
    }
    Stopwatch merge;
    last_ = app_->finish_run();
    const double merge_ms = merge.elapsed_ms();
    m.total_ms = clock.elapsed_ms();
    m.phases = {{"copy_in", busy.copy_ms},
                {"compute", busy.compute_ms},
                {"copy_out", busy.copy_out_ms},
                {"merge", merge_ms}};
    m.counters["lanes"] = lanes_;
    m.counters["chunks"] = static_cast<double>(chunks_.size());
    m.counters["records_per_chunk"] = static_cast<double>(per_chunk_);
    m.counters["chunk_bytes"] = static_cast<double>(per_chunk_ * app_->record_bytes());
    return m;
  }

  Work work() const override {
    Work w = input_work();
    w.items("records", records_)
        .reads(level::h2d, ctx_.input_size, "copy_in", "h2d_pageable")
        .reads(level::dram, ctx_.input_size, "compute")
        .writes(level::d2h, app_->copied_out(), "copy_out", app_->copy_out_ceiling());
    return w;
  }

 private:
  std::string variant_;
  std::uint32_t lanes_;
  backend::Device* device_ = nullptr;
  std::unique_ptr<BufferPool> pool_;
  std::unique_ptr<blocks::CopyComputePipeline> pipeline_;
  std::unique_ptr<AppKernel> app_;
  std::uint64_t records_ = 0, per_chunk_ = 0;
  std::vector<Chunk> chunks_;
  std::vector<blocks::CopyComputePipeline::Piece> pieces_;
};

}  // namespace

void register_family() {
  const std::vector<std::string> apps = {workloads::kmeans_particles::kApp,
                                         workloads::netflix::kApp};
  struct Def {
    const char* name;
    std::uint32_t lanes;
    const char* description;
  };
  for (const Def& d : {Def{"single-buffer", 1,
                           "BigKernel's single-buffer baseline: chunks of whole records sized from "
                           "the GPU memory budget, copied, computed by the plain kernel and their "
                           "results copied back, one queue"},
                       Def{"double-buffer", 2,
                           "BigKernel's double-buffer baseline: the same plain kernel on two "
                           "buffers and two queues, one chunk's copy beside the other's kernel"}}) {
    VariantInfo v;
    v.framework = "bigkernel";
    v.name = d.name;
    v.description = d.description;
    v.backends = {backend::Kind::opencl, backend::Kind::cuda};
    v.apps = apps;
    const std::string name = d.name;
    const std::uint32_t lanes = d.lanes;
    v.make = [name, lanes](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
      return std::make_unique<BufferedPoint>(ctx, name, lanes);
    };
    Registry::instance().add_variant(std::move(v));
  }
}

}  // namespace harness::bigkernel
