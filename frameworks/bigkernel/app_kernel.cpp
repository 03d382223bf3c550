#include "frameworks/bigkernel/app_kernel.h"

#include <algorithm>
#include <bit>
#include <optional>

#include "frameworks/blocks/cuda_programs.h"
#include "frameworks/blocks/pinned_array.h"
#include "frameworks/workloads/kmeans_particles/cluster_ids_output.h"
#include "frameworks/workloads/kmeans_particles/particles_format.h"
#include "frameworks/workloads/netflix/netflix_cpu.h"
#include "frameworks/workloads/netflix/netflix_format.h"
#include "frameworks/workloads/netflix/pair_scores_output.h"
#include "harness/core/errors.h"
#include "harness/core/parallel.h"

namespace harness::bigkernel {
namespace {

using workloads::Output;

const char* mode_name(Mode m) {
  return m == Mode::plain ? "plain" : m == Mode::addrgen ? "addrgen" : "compute";
}

// Host work of the write-back and the merge: every core, a thread per
// 64 Ki items at least.
constexpr std::uint64_t kItemsPerHostThread = 65536;

std::string d2h_ceiling(backend::HostMemory kind) {
  return kind == backend::HostMemory::pageable ? "d2h_pageable" : "d2h_pinned";
}

class KmeansKernel final : public AppKernel {
 public:
  std::string app() const override { return workloads::kmeans_particles::kApp; }
  std::size_t record_bytes() const override { return workloads::kmeans_particles::kRecordBytes; }
  std::uint32_t max_reads() const override { return 4; }
  std::uint32_t max_value_bytes() const override { return 32; }
  std::uint64_t fixed_bytes(const Params& params) const override {
    return pool_bytes(std::uint64_t{param_u32(params, "k")} * 4 * sizeof(double)) + pool_bytes(8);
  }
  std::string fixed_text() const override { return "the centroids"; }
  std::uint64_t side_bytes(std::uint64_t records) const override { return pool_bytes(records * 8); }
  std::string side_text() const override { return "write buffer of 8 B a record"; }
  void begin_run(const std::vector<Chunk>& chunks, std::uint64_t) override {
    records_ = chunks.empty() ? 0 : chunks.back().first + chunks.back().count;
    writes_host_->resize(records_);
    copied_out_ = 0;
  }
  void enqueue_addrgen(backend::Queue& q, const MappedArgs& mapped, const Chunk& c) override {
    launch_mapped(q, kernel(Mode::addrgen), backend::LaunchShape::cover(c.count, kGroupSize),
                  mapped, unused(), static_cast<std::uint32_t>(record_bytes()), unused(),
                  std::uint64_t{c.first}, static_cast<std::uint32_t>(c.count), *centroids_, k_);
  }
  void enqueue(backend::Queue& q, Mode mode, const MappedArgs& mapped, std::uint32_t lane,
               std::size_t, const Chunk& c) override {
    backend::Buffer& writes = pool_->get("bk.writes.lane" + std::to_string(lane), c.count * 8);
    MappedArgs m = mapped;
    m.chunk_base = c.first * record_bytes();  // write slot 0 is the chunk's first record
    launch_mapped(q, kernel(mode), backend::LaunchShape::cover(c.count, kGroupSize), m, unused(),
                  static_cast<std::uint32_t>(record_bytes()), writes, std::uint64_t{c.first},
                  static_cast<std::uint32_t>(c.count), *centroids_, k_);
    q.end_span();
    q.begin_span("copy_out");
    q.read_async(writes_host_->host_buffer(), c.first * 8, writes, 0, c.count * 8);
    copied_out_ += c.count * 8;
  }
  std::unique_ptr<Output> finish_run() override {
    auto out = std::make_unique<workloads::kmeans_particles::ClusterIdsOutput>(records_, k_);
    const std::int64_t* ids = writes_host_->data();
    std::uint32_t* to = out->ids();
    // The CPU write-back stage: every host core (33 M ids took 50 ms on one).
    parallel_ranges(records_, 0, kItemsPerHostThread, [&](std::uint64_t b, std::uint64_t e) {
      for (std::uint64_t i = b; i < e; ++i) to[i] = static_cast<std::uint32_t>(ids[i]);
    });
    return out;
  }
  std::uint64_t copied_out() const override { return copied_out_; }
  std::string copy_out_ceiling() const override { return d2h_ceiling(writes_host_->kind()); }

 protected:
  void prepare_app(const Params& params, const std::uint8_t* input, std::size_t size) override {
    namespace km = workloads::kmeans_particles;
    k_ = param_u32(params, "k");
    writes_host_.emplace(*device_);
    const std::vector<km::Point> centroids = km::first_k_centroids(input, size, k_);
    std::vector<double> flat;
    for (const km::Point& c : centroids) flat.insert(flat.end(), c.begin(), c.end());
    centroids_ =
        &pool_->get("bk.centroids", std::max<std::size_t>(flat.size(), 1) * sizeof(double));
    if (!flat.empty()) {
      device_->queue().write(*centroids_, 0, flat.data(), flat.size() * sizeof(double));
    }
    device_->queue().finish();
  }
  std::string source_file() const override {
    return "frameworks/bigkernel/apps/kmeans_particles.clh";
  }
  std::string kernel_name() const override { return "bk_kmeans_particles"; }

 private:
  std::uint32_t k_ = 0;
  backend::Buffer* centroids_ = nullptr;
  std::optional<blocks::PinnedArray<std::int64_t>> writes_host_;
  std::uint64_t records_ = 0, copied_out_ = 0;
};

// A chunk's table: at least twice its records, a power of two.
std::uint64_t table_slots(std::uint64_t records) {
  return std::bit_ceil(std::max<std::uint64_t>(2 * records, 2));
}

class NetflixKernel final : public AppKernel {
 public:
  static_assert(sizeof(workloads::netflix::PairTally) == 16, "the device table's slot layout");
  std::string app() const override { return workloads::netflix::kApp; }
  std::size_t record_bytes() const override { return workloads::netflix::kRecordBytes; }
  std::uint32_t max_reads() const override { return 4; }
  // u32 user_a, u32 user_b, u16 rating_a, u16 rating_b: 12 bytes, 16 with the
  // thread layout's 8-byte rounding.
  std::uint32_t max_value_bytes() const override { return 16; }
  std::uint64_t fixed_bytes(const Params&) const override { return pool_bytes(4) + pool_bytes(8); }
  std::string fixed_text() const override { return "the table-full flag"; }
  std::uint64_t side_bytes(std::uint64_t records) const override {
    return pool_bytes(table_slots(records) * 16) + pool_bytes(records * 16) + pool_bytes(4);
  }
  std::string side_text() const override {
    return "hash table of 16 B slots, a power of two at least twice the records, and its "
           "compacted rows";
  }
  void begin_run(const std::vector<Chunk>& chunks, std::uint64_t per_chunk) override {
    // A chunk adds at most one row a record: its compacted rows' room.
    stride_ = std::max<std::uint64_t>(per_chunk, 1);
    rows_host_->resize(chunks.size() * stride_);
    counts_host_->resize(chunks.size());
    chunks_ = chunks.size();
    copied_out_ = 0;
    device_->queue().fill_zero(*full_, 0, 4);
    device_->queue().finish();
  }
  void enqueue_addrgen(backend::Queue& q, const MappedArgs& mapped, const Chunk& c) override {
    // The table is never touched in ADDRGEN (BK_COMPUTING 0).
    launch_mapped(q, kernel(Mode::addrgen), backend::LaunchShape::cover(c.count, kGroupSize),
                  mapped, unused(), static_cast<std::uint32_t>(record_bytes()), unused(),
                  std::uint64_t{c.first}, static_cast<std::uint32_t>(c.count), unused(),
                  std::uint32_t{0}, *full_);
  }
  void enqueue(backend::Queue& q, Mode mode, const MappedArgs& mapped, std::uint32_t lane,
               std::size_t index, const Chunk& c) override {
    const std::uint64_t slots = table_slots(c.count);
    backend::Buffer& table = pool_->get("bk.table.lane" + std::to_string(lane), slots * 16);
    q.fill_zero(table, 0, slots * 16);
    MappedArgs m = mapped;
    m.chunk_base = c.first * record_bytes();
    launch_mapped(q, kernel(mode), backend::LaunchShape::cover(c.count, kGroupSize), m, unused(),
                  static_cast<std::uint32_t>(record_bytes()), unused(), std::uint64_t{c.first},
                  static_cast<std::uint32_t>(c.count), table, static_cast<std::uint32_t>(slots - 1),
                  *full_);
    // Only the filled slots come back: compacted on the device (a chunk's
    // table is 2-4 times its records), at most one row a record.
    backend::Buffer& rows = pool_->get("bk.rows.lane" + std::to_string(lane), c.count * 16);
    backend::Buffer& count = pool_->get("bk.row_count.lane" + std::to_string(lane), 4);
    q.fill_zero(count, 0, 4);
    q.launch(compact_, backend::LaunchShape::cover(slots, 256), table,
             static_cast<std::uint32_t>(slots), rows, count);
    q.end_span();
    q.begin_span("copy_out");
    q.read_async(rows_host_->host_buffer(), index * stride_ * 16, rows, 0, c.count * 16);
    q.read_async(counts_host_->host_buffer(), index * 4, count, 0, 4);
    copied_out_ += c.count * 16 + 4;
  }
  // The chunks' tables merged on every host core: every pair once, its sums
  // added (the workload's CPU-MT aggregation, fed the tables' slots).
  std::unique_ptr<Output> finish_run() override {
    namespace nf = workloads::netflix;
    std::uint32_t full = 0;
    device_->queue().read(&full, *full_, 0, 4);
    if (full) throw RunError("bigkernel netflix: a chunk's hash table filled up");
    std::vector<nf::TallySlots> tables;
    std::uint64_t slots = 0;
    for (std::size_t i = 0; i < chunks_; ++i) {
      tables.push_back({rows_host_->data() + i * stride_, (*counts_host_)[i]});
      slots += (*counts_host_)[i];
    }
    auto out = std::make_unique<nf::PairScoresOutput>();
    nf::combine_slots_parallel(tables, workers_for(slots, 0, kItemsPerHostThread), *out);
    return out;
  }
  std::uint64_t copied_out() const override { return copied_out_; }
  std::string copy_out_ceiling() const override { return d2h_ceiling(rows_host_->kind()); }

 protected:
  void prepare_app(const Params&, const std::uint8_t*, std::size_t) override {
    full_ = &pool_->get("bk.table_full", 4);
    compact_ = any_program_kernel("bk_netflix_compact");
    rows_host_.emplace(*device_);
    counts_host_.emplace(*device_);
  }
  std::string source_file() const override { return "frameworks/bigkernel/apps/netflix.clh"; }
  std::string kernel_name() const override { return "bk_netflix"; }

 private:
  backend::Buffer* full_ = nullptr;
  backend::Kernel compact_;
  std::optional<blocks::PinnedArray<workloads::netflix::PairTally>> rows_host_;
  std::optional<blocks::PinnedArray<std::uint32_t>> counts_host_;
  std::uint64_t stride_ = 0, copied_out_ = 0;  // stride_: rows a chunk's region holds
  std::size_t chunks_ = 0;
};

}  // namespace

void AppKernel::prepare(backend::Device& device, blocks::BufferPool& pool, const Params& params,
                        const std::uint8_t* input, std::size_t size,
                        const std::vector<Mode>& modes) {
  device_ = &device;
  pool_ = &pool;
  unused_ = &pool.get("bk.unused", 8);
  kernels_.assign(3, backend::Kernel());
  programs_.clear();
  for (Mode m : modes) {
    backend::ProgramSource src =
        program_source("bigkernel/" + app() + "/" + mode_name(m), {source_file()});
    src.opencl_options = m == Mode::plain     ? "-DBK_MODE_PLAIN=1"
                         : m == Mode::addrgen ? "-DBK_MODE_ADDRGEN=1"
                                              : "-DBK_MODE_COMPUTE=1";
    programs_.push_back(device.build(src));
    kernels_[static_cast<int>(m)] = programs_.back()->kernel(kernel_name());
  }
  prepare_app(params, input, size);
}

backend::Kernel AppKernel::any_program_kernel(const std::string& name) const {
  return programs_.at(0)->kernel(name);
}

const backend::Kernel& AppKernel::kernel(Mode mode) const {
  return kernels_.at(static_cast<int>(mode));
}

std::unique_ptr<AppKernel> make_app_kernel(const std::string& app) {
  if (app == workloads::kmeans_particles::kApp) return std::make_unique<KmeansKernel>();
  if (app == workloads::netflix::kApp) return std::make_unique<NetflixKernel>();
  throw UsageError("bigkernel runs kmeans-particles and netflix, not " + app);
}

std::vector<std::string> app_names() {
  return {workloads::kmeans_particles::kApp, workloads::netflix::kApp};
}

}  // namespace harness::bigkernel
