// A point of hashtable/open-addressing on key-counts: the keys resident on
// the device, a table of 16-byte slots beside them, sized for every record at
// the load factor or, when the GPU memory budget cannot hold that, as large
// as the budget allows, in which case a region of the table that reaches the
// load factor postpones its new keys (SePo) and the point runs iterations:
// insert, copy the table's keys out (compacted on the device), clear it, run
// the postponed records again. The answer is every iteration's rows, as
// they are: a key is in one iteration's table only (README.md "Open
// addressing").
#include "frameworks/hashtable/open_addressing_point.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "frameworks/blocks/cuda_programs.h"
#include "frameworks/hashtable/point_input.h"
#include "frameworks/workloads/key_counts/key_counts_format.h"
#include "frameworks/workloads/key_counts/key_counts_output.h"
#include "frameworks/workloads/workload_point.h"
#include "harness/core/errors.h"
#include "harness/core/sizes.h"
#include "harness/core/stopwatch.h"

namespace harness::hashtable {
namespace {

using workloads::key_counts::KeyCount;
using workloads::key_counts::KeyCountsOutput;

constexpr const char* kVariant = "open-addressing";
constexpr std::uint32_t kGroupSize = 256;
// Shared with kernels/open_addressing.clh.
constexpr std::uint64_t kRegionSlots = 1024;  // 2^OA_REGION_SHIFT
constexpr std::uint64_t kEmptyKey = ~std::uint64_t{0};
constexpr std::uint64_t kPostponedKey = ~std::uint64_t{1};
constexpr std::uint32_t kNoLimit = 0xFFFF'FFFFu;
// The insert's counters (kernels/open_addressing.clh `stats`): pairs
// postponed, pairs of kEmptyKey, pairs of kPostponedKey.
constexpr std::size_t kStatsWords = 3;
constexpr std::uint64_t kSlotBytes = 16;
// The compaction reads the table back in chunks of this many slots, so its
// row buffer (16 B a row) stays small beside the table.
constexpr std::uint64_t kCompactSlots = std::uint64_t{1} << 22;
// Local combining: work-groups per compute unit (its 24 KiB local table
// leaves room for 8 on an H100), each looping over many records, so that
// its table sees a hot key many times.
constexpr std::uint32_t kLocalGroupsPerUnit = 8;
// The largest table: slot indexes are u32.
constexpr std::uint64_t kMaxSlots = 0xFFFF'FC00ull;

std::uint64_t round_up(std::uint64_t x, std::uint64_t m) { return (x + m - 1) / m * m; }

class OpenAddressingPoint final : public workloads::WorkloadPoint {
 public:
  explicit OpenAddressingPoint(const PointContext& ctx)
      : WorkloadPoint(ctx), device_(point_device(ctx, kVariant)) {}

 protected:
  void prepare_run() override {
    const backend::DeviceInfo& info = device_.info();
    records_ = workloads::key_counts::read_keys(ctx_.input, ctx_.input_size).count;
    if (records_ >= 0xFFFF'FFFFull)
      throw RunError(fmt::format("hashtable/{}: {} keys, more than the kernel's u32 indexes",
                                 kVariant, records_));
    tile_ = static_cast<std::uint32_t>(std::stoul(param_string(ctx_.params, "tile")));
    if (tile_ > 1 && !backend::has_warp_vote(info))
      throw RunError(fmt::format(
          "hashtable/{}: tile={} probes with warp vote and shuffle (CUDA, NVIDIA's OpenCL), "
          "which {} lacks: use --param tile=1",
          kVariant, tile_, info.name));
    load_percent_ = param_u32(ctx_.params, "load_percent");
    // Every record a distinct key at the load factor: never postpones.
    const std::uint64_t whole =
        round_up(std::max<std::uint64_t>((records_ * 100 + load_percent_ - 1) / load_percent_, 1),
                 kRegionSlots);
    const std::uint64_t bitmap_bytes = std::max<std::uint64_t>((records_ + 31) / 32 * 4, 4);
    const std::uint64_t input_bytes = std::max<std::uint64_t>(ctx_.input_size, 16);
    // Beside the slots: the input, two bitmaps, the counters, a u32 a region
    // and the compaction's rows.
    const auto beside = [&](std::uint64_t slots) {
      return input_bytes + 2 * bitmap_bytes + 20 + slots / kRegionSlots * 4 +
             std::min(slots, kCompactSlots) * 16;
    };
    const std::uint64_t available = device_.memory_available();
    const std::uint64_t budget = device_.memory_budget();
    const std::string budget_text = budget ? format_size(budget) : "(none)";
    std::uint64_t cap = kMaxSlots;
    if (info.max_allocation_bytes) cap = std::min(cap, info.max_allocation_bytes / kSlotBytes);
    std::uint64_t slots = param_unsigned(ctx_.params, "slots");
    if (slots) {
      slots = round_up(slots, kRegionSlots);
      if (slots > cap || beside(slots) + slots * kSlotBytes > available)
        throw RunError(fmt::format(
            "hashtable/{}: a table of {} slots ({} B) does not fit beside {} B of keys, bitmaps "
            "and row buffer in the GPU memory budget {} ({} B available{})",
            kVariant, slots, slots * kSlotBytes, beside(slots), budget_text, available,
            slots > cap ? fmt::format(", {} slots at most", cap) : ""));
    } else {
      // What the budget holds, when less than the whole table: SePo. A
      // slot costs 16 B, its region counter 4 / 1024 B and, up to
      // kCompactSlots, a row of the compaction's buffer.
      const std::uint64_t fixed = beside(0);
      std::uint64_t room = 0;
      if (available > fixed) {
        room = (available - fixed) * kRegionSlots / ((2 * kSlotBytes) * kRegionSlots + 4);
        if (room > kCompactSlots)
          room = (available - fixed - std::min(available - fixed, kCompactSlots * 16)) *
                 kRegionSlots / (kSlotBytes * kRegionSlots + 4);
      }
      slots =
          std::min({whole, room / kRegionSlots * kRegionSlots, cap / kRegionSlots * kRegionSlots});
      if (slots < kRegionSlots)
        throw RunError(fmt::format(
            "hashtable/{}: the GPU memory budget {} ({} B available) holds no table of {} "
            "slots ({} B) beside {} B of keys and bitmaps, and its row buffer",
            kVariant, budget_text, available, kRegionSlots, kRegionSlots * kSlotBytes, fixed));
    }
    slots_ = slots;
    whole_slots_ = whole;
    in_core_ = slots_ >= whole;
    limit_ = in_core_ ? kNoLimit : static_cast<std::uint32_t>(kRegionSlots * load_percent_ / 100);
    local_ = in_core_ && param_u32(ctx_.params, "local_combine") != 0;
    try {
      input_ = device_.allocate(input_bytes);
      table_ = device_.allocate(slots_ * kSlotBytes);
      regions_ = device_.allocate(std::max<std::uint64_t>(slots_ / kRegionSlots * 4, 4));
      for (backend::Buffer& b : pending_) b = device_.allocate(bitmap_bytes);
      stats_ = device_.allocate(kStatsWords * 4);
      total_ = device_.allocate(4);
      rows_ = device_.allocate(std::min(slots_, kCompactSlots) * 16);
      // The rows copied out land in pinned host memory (a row accounts for
      // at least one record), kept across
      // runs: pinning is slow, and fresh pageable memory would be paged in
      // by the copy itself.
      const std::size_t staging_bytes = records_ * sizeof(KeyCount);
      if (staging_.size() < staging_bytes) {
        staging_ = backend::HostBuffer();
        staging_ = device_.allocate_host(staging_bytes, backend::HostMemory::pinned);
      }
    } catch (const DeviceOutOfMemory& e) {
      throw RunError(
          fmt::format("hashtable/{}: a table of {} slots: {}", kVariant, slots_, e.what()));
    }
    program_ = device_.build(program_source("hashtable/key-counts/open-addressing",
                                            {"frameworks/hashtable/kernels/open_addressing.clh"}));
    insert_ = program_->kernel(fmt::format("oa_insert{}_t{}", local_ ? "_local" : "", tile_));
    clear_ = program_->kernel("oa_clear");
    compact_ = program_->kernel("oa_compact");
  }

  Measurement run_once() override {
    last_.reset();
    Measurement m;
    Stopwatch clock;
    backend::Queue& q = device_.queue();
    q.take_spans();
    q.begin_span("copy_in");
    if (ctx_.input_size) q.write(input_, 0, ctx_.input, ctx_.input_size);
    q.end_span();
    auto out = std::make_unique<KeyCountsOutput>();
    auto* rows = reinterpret_cast<KeyCount*>(staging_.data());
    std::uint64_t n = 0;
    std::array<std::uint64_t, 2> beside_pairs{};  // of kEmptyKey, kPostponedKey
    std::uint32_t iterations = 0, first_postponed = 0, in = 0;
    const auto records = static_cast<std::uint32_t>(records_);
    const auto slot_count = static_cast<std::uint32_t>(slots_);
    rows_copied_ = 0;
    for (;;) {
      ++iterations;
      q.begin_span("reset");
      q.launch(clear_, grid(slots_), table_, slot_count);
      if (limit_ != kNoLimit) q.fill_zero(regions_, 0, regions_.size());
      q.fill_zero(pending_[1 - in], 0, pending_[1 - in].size());
      q.fill_zero(stats_, 0, kStatsWords * 4);
      q.end_span();
      q.begin_span("insert");
      if (records)
        q.launch(insert_, insert_shape(), input_, records, table_, slot_count, regions_, limit_,
                 pending_[in], pending_[1 - in], iterations == 1 ? 1u : 0u, stats_);
      q.end_span();
      std::uint32_t stats[kStatsWords];
      q.read(stats, stats_, 0, sizeof stats);
      beside_pairs[0] += stats[1];
      beside_pairs[1] += stats[2];
      q.begin_span("copy_out");
      const std::uint64_t got = copy_out(q, rows + n);
      q.end_span();
      n += got;
      if (iterations == 1) first_postponed = stats[0];
      if (stats[0] == 0) break;
      if (limit_ == kNoLimit)
        throw RunError(fmt::format(
            "hashtable/{}: {} keys postponed by a table of {} slots sized for every record",
            kVariant, stats[0], slots_));
      if (got == 0)
        throw RunError(
            fmt::format("hashtable/{}: an iteration inserted no key into {} slots ({} postponed)",
                        kVariant, slots_, stats[0]));
      in = 1 - in;
    }
    q.finish();
    const std::vector<backend::TimedSpan> spans = q.take_spans();
    // Every key's rows come from one iteration (a refused key marks its slot),
    // so the iterations' rows are the answer as they are. The output gathers
    // and checks them when it is finished, untimed.
    out->add_piece(rows, n);
    beside_rows_ = {KeyCount{kEmptyKey, beside_pairs[0]}, KeyCount{kPostponedKey, beside_pairs[1]}};
    for (const KeyCount& row : beside_rows_)
      if (row.count) out->add_piece(&row, 1);
    last_ = std::move(out);
    m.total_ms = clock.elapsed_ms();
    std::map<std::string, double> phase;
    for (const backend::TimedSpan& s : spans) phase[s.name] += s.milliseconds;
    m.phases = {{"copy_in", phase["copy_in"]},
                {"reset", phase["reset"]},
                {"insert", phase["insert"]},
                {"copy_out", phase["copy_out"]}};
    m.counters["iterations"] = iterations;
    m.counters["slots"] = static_cast<double>(slots_);
    m.counters["whole_slots"] = static_cast<double>(whole_slots_);
    m.counters["table_bytes"] = static_cast<double>(slots_ * kSlotBytes);
    m.counters["in_core"] = in_core_ ? 1 : 0;
    m.counters["region_limit"] = limit_ == kNoLimit ? 0 : limit_;
    m.counters["tile"] = tile_;
    m.counters["local_combine"] = local_ ? 1 : 0;
    m.counters["postponed_first"] = first_postponed;
    m.counters["distinct_keys"] = static_cast<double>(n);
    m.counters["load"] = static_cast<double>(n) / static_cast<double>(slots_);
    return m;
  }

  Work work() const override {
    Work w = input_work();
    w.items("records", records_, "insert")
        .items("inserts", records_, "insert")
        .items("keys", records_)
        .reads(level::h2d, ctx_.input_size, "copy_in")
        .reads(level::dram, records_ * 8, "insert")
        .writes(level::d2h, rows_copied_, "copy_out", "d2h_pinned");  // into pinned staging
    return w;
  }

 private:
  // A grid-stride launch over `items`: at most 32 work-groups per compute unit.
  backend::LaunchShape grid(std::uint64_t items) const {
    backend::LaunchShape shape =
        backend::LaunchShape::cover(std::max<std::uint64_t>(items, 1), kGroupSize);
    const auto units = static_cast<std::uint32_t>(std::max(device_.info().compute_units, 1));
    shape.groups = std::min(shape.groups, units * 32);
    return shape;
  }

  // A work-item a record; with local combining, a few work-groups per compute
  // unit, each over many records.
  backend::LaunchShape insert_shape() const {
    backend::LaunchShape shape = backend::LaunchShape::cover(records_, kGroupSize);
    if (local_) {
      const auto units = static_cast<std::uint32_t>(std::max(device_.info().compute_units, 1));
      shape.groups = std::min(shape.groups, units * kLocalGroupsPerUnit);
    }
    return shape;
  }

  // The table's keys and counts as rows at `to` (compacted on the device a
  // chunk of slots at a time); returns the rows.
  std::uint64_t copy_out(backend::Queue& q, KeyCount* to) {
    std::uint64_t n = 0;
    for (std::uint64_t first = 0; first < slots_; first += kCompactSlots) {
      const std::uint64_t end = std::min(slots_, first + kCompactSlots);
      q.fill_zero(total_, 0, 4);
      q.launch(compact_, grid(end - first), table_, static_cast<std::uint32_t>(first),
               static_cast<std::uint32_t>(end), rows_, total_);
      std::uint32_t got = 0;
      q.read(&got, total_, 0, 4);
      if (got) q.read(to + n, rows_, 0, std::size_t{got} * 16);
      n += got;
    }
    rows_copied_ += n * 16;
    return n;
  }

  backend::Device& device_;
  std::uint64_t records_ = 0, slots_ = 0, whole_slots_ = 0, rows_copied_ = 0;
  std::uint32_t tile_ = 1, load_percent_ = 50, limit_ = kNoLimit;
  bool in_core_ = true, local_ = false;
  backend::Buffer input_, table_, regions_, pending_[2], stats_, total_, rows_;
  backend::HostBuffer staging_;            // the rows copied out, pinned
  std::array<KeyCount, 2> beside_rows_{};  // the keys that mark slots, counted beside
  std::shared_ptr<backend::Program> program_;
  backend::Kernel insert_, clear_, compact_;
};

}  // namespace

std::unique_ptr<PointRunner> make_open_addressing_point(const PointContext& ctx) {
  return std::make_unique<OpenAddressingPoint>(ctx);
}

void register_open_addressing() {
  VariantInfo v;
  v.framework = "hashtable";
  v.name = kVariant;
  v.description =
      "Today's design of the fastest GPU hash tables (cuCollections' static_map and "
      "insert_or_apply) on key-counts, beside the thesis' chained table: open addressing over "
      "16-byte slots (8-byte key, count), a key claimed by one 64-bit CAS, probing alone or by "
      "tiles of 2-8 lanes with warp vote and shuffle, hot keys combined per work-group in a "
      "local-memory table first; SePo-capable: a table the GPU memory budget cannot hold for "
      "every record postpones the new keys of its regions past the load factor, is copied out "
      "and cleared, and the postponed records run again";
  v.backends = {backend::Kind::opencl, backend::Kind::cuda};
  v.apps = {"key-counts"};
  v.params = {
      choice_param("tile", "1", {"1", "2", "4", "8"},
                   "lanes that probe a key's window of slots together: 1 alone; 2, 4, 8 "
                   "cooperatively, by warp vote and shuffle (CUDA, NVIDIA's OpenCL)"),
      unsigned_param("load_percent", 50, 10, 95,
                     "the load factor: the table holds every record at this percentage of its "
                     "slots, or (SePo) each region of 1024 slots takes at most this share"),
      unsigned_param("slots", 0, 0, kMaxSlots,
                     "the table's slots, rounded up to a multiple of 1024; 0: every record at "
                     "load_percent, or what the GPU memory budget holds when less (SePo)"),
      unsigned_param("local_combine", 1, 0, 1,
                     "1: each work-group adds its keys into a local-memory table first and its "
                     "counts into the global table once (used only when the table holds every "
                     "record, so nothing is postponed); 0: every pair to the global table"),
  };
  v.make = [](const PointContext& ctx) { return make_open_addressing_point(ctx); };
  Registry::instance().add_variant(std::move(v));
}

}  // namespace harness::hashtable
