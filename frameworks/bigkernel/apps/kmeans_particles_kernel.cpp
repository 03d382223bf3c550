// kmeans-particles' AppKernel: the centroids in device memory, one mapped
// write (the cluster id) per record collected in a write buffer and applied
// on every host core (apps/kmeans_particles.clh).
#include <algorithm>
#include <optional>

#include "frameworks/bigkernel/apps/app_kernels.h"
#include "frameworks/blocks/pinned_array.h"
#include "frameworks/workloads/kmeans_particles/cluster_ids_output.h"
#include "frameworks/workloads/kmeans_particles/particles_format.h"
#include "harness/core/parallel.h"

namespace harness::bigkernel {
namespace {

using workloads::Output;

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
  bool persistent_args(const PersistentShape&, PersistentAppArgs& args,
                       std::int64_t*& writes) override {
    args.pointers[0] = centroids_->handle();
    args.values[0] = k_;
    writes = static_cast<std::int64_t*>(persistent_device_pointer(writes_host_->data()));
    return true;
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

}  // namespace

std::unique_ptr<AppKernel> make_kmeans_particles_kernel() {
  return std::make_unique<KmeansKernel>();
}

}  // namespace harness::bigkernel
