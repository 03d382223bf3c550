// The host side of an app whose answer is a row per distinct 64-bit key
// (netflix, dna-assembly): each chunk's kernel adds its records into a
// device hash table of its lane (kernels/chunk_table.clh), the table is
// compacted on the device, only the filled rows come back, and the app
// merges the chunks' rows on every host core with its workload's own
// partitioned aggregation. Such an answer (as many rows as a third of the
// records) does not fit the device for large inputs, so it cannot stay there
// from chunk to chunk as the thesis' tables did.
//
// The app's kernel takes (BK_MAPPED_PARAMS, u64 first_record, u32 records,
// GLOBAL u64* table, u32 mask, GLOBAL u32* full); its program includes
// chunk_table.clh, so it holds bk_table_compact. `Row` is the host's type of
// a 16-byte slot ({u64 key; 8 bytes of values}).
#pragma once

#include <algorithm>
#include <bit>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "frameworks/bigkernel/apps/app_kernels.h"
#include "frameworks/blocks/pinned_array.h"
#include "harness/core/errors.h"

namespace harness::bigkernel {

// A chunk's table: at least twice its records, a power of two, and the key-0
// slot after them.
inline std::uint64_t chunk_table_slots(std::uint64_t records) {
  return std::bit_ceil(std::max<std::uint64_t>(2 * records, 2)) + 1;
}

template <class Row>
class ChunkTableKernel : public AppKernel {
 public:
  static_assert(sizeof(Row) == 16, "the device table's 16-byte slots");

  std::uint64_t fixed_bytes(const Params&) const override { return pool_bytes(4) + pool_bytes(8); }
  std::string fixed_text() const override { return "the table-full flag"; }
  std::uint64_t side_bytes(std::uint64_t records) const override {
    return pool_bytes(chunk_table_slots(records) * 16) + pool_bytes(records * 16) + pool_bytes(4);
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
    const std::uint64_t slots = chunk_table_slots(c.count);
    backend::Buffer& table = pool_->get("bk.table.lane" + std::to_string(lane), slots * 16);
    q.fill_zero(table, 0, slots * 16);
    MappedArgs m = mapped;
    m.chunk_base = c.first * record_bytes();
    launch_mapped(q, kernel(mode), backend::LaunchShape::cover(c.count, kGroupSize), m, unused(),
                  static_cast<std::uint32_t>(record_bytes()), unused(), std::uint64_t{c.first},
                  static_cast<std::uint32_t>(c.count), table, static_cast<std::uint32_t>(slots - 2),
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
  // kernels/persistent_chunk_table.cuh's arguments: a table a block, the
  // rows and counts regions seen by the device.
  bool persistent_args(const PersistentShape& shape, PersistentAppArgs& args,
                       std::int64_t*&) override {
    const std::uint64_t slots = chunk_table_slots(shape.round_records);
    backend::Buffer& tables = pool_->get("bk.persistent.tables", shape.blocks * (slots * 16 + 16));
    args.pointers[0] = tables.handle();
    args.pointers[1] = persistent_device_pointer(rows_host_->data());
    args.pointers[2] = persistent_device_pointer(counts_host_->data());
    args.pointers[3] = full_->handle();
    args.values[0] = slots;
    args.values[1] = stride_;
    return true;
  }
  std::unique_ptr<workloads::Output> finish_run() override {
    std::uint32_t full = 0;
    device_->queue().read(&full, *full_, 0, 4);
    if (full) throw RunError("bigkernel " + app() + ": a chunk's hash table filled up");
    std::vector<std::span<const Row>> chunks;
    std::uint64_t rows = 0;
    for (std::size_t i = 0; i < chunks_; ++i) {
      chunks.emplace_back(rows_host_->data() + i * stride_, (*counts_host_)[i]);
      rows += (*counts_host_)[i];
    }
    return merge(chunks, rows);
  }
  std::uint64_t copied_out() const override { return copied_out_; }
  std::string copy_out_ceiling() const override { return d2h_ceiling(rows_host_->kind()); }

 protected:
  // The chunks' rows (`rows` in all; a key may be in several chunks) as the
  // workload's Output: every key once, its values combined.
  virtual std::unique_ptr<workloads::Output> merge(const std::vector<std::span<const Row>>& chunks,
                                                   std::uint64_t rows) const = 0;

  void prepare_app(const Params&, const std::uint8_t*, std::size_t) override {
    full_ = &pool_->get("bk.table_full", 4);
    compact_ = any_program_kernel("bk_table_compact");
    rows_host_.emplace(*device_);
    counts_host_.emplace(*device_);
  }

 private:
  backend::Buffer* full_ = nullptr;
  backend::Kernel compact_;
  std::optional<blocks::PinnedArray<Row>> rows_host_;
  std::optional<blocks::PinnedArray<std::uint32_t>> counts_host_;
  std::uint64_t stride_ = 0, copied_out_ = 0;  // stride_: rows a chunk's region holds
  std::size_t chunks_ = 0;
};

}  // namespace harness::bigkernel
