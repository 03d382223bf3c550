// netflix's AppKernel: a per-chunk device hash table keyed by the user pair,
// compacted on the device and merged on every host core (apps/netflix.clh).
#include <algorithm>
#include <bit>
#include <optional>

#include "frameworks/bigkernel/apps/app_kernels.h"
#include "frameworks/blocks/pinned_array.h"
#include "frameworks/workloads/netflix/netflix_cpu.h"
#include "frameworks/workloads/netflix/netflix_format.h"
#include "frameworks/workloads/netflix/pair_scores_output.h"
#include "harness/core/errors.h"
#include "harness/core/parallel.h"

namespace harness::bigkernel {
namespace {

using workloads::Output;

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

std::unique_ptr<AppKernel> make_netflix_kernel() { return std::make_unique<NetflixKernel>(); }

}  // namespace harness::bigkernel
