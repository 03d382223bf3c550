// A point of the SePo hash table: the app's whole input resident on the
// device, the table's bucket arrays, bucket-group pages and processed bitmap
// beside it, and a heap of every page the rest of the budget holds. Each SePo
// iteration launches the organization's insert kernel over the records not
// yet processed, from the first one postponed (or halted) before; the used
// heap pages are copied into a host arena whose base the kernel built the
// CPU pointers from, and the allocator is reset. The Output is the host
// arenas' chains walked through their CPU pointers (README.md).
// With `pack` (the default) an iteration's table is instead packed on the GPU
// (kernels/sepo_pack.clh) a window at a time and copied into a pinned packed
// arena of its own, so only live entries cross the link and the walk reads
// each bucket's chain where it lies, in order. Multi-valued packs only a
// table of one iteration whose value lists are short enough
// (kMaxPackedList); the others are copied page by page.
// With Heap::pinned (figure 6.11) the heap is mapped pinned host memory the
// kernel writes in place, sized for the whole table: one iteration, no copy,
// and the CPU pointers point into that memory itself.
// With Heap::paging_bound (table 6.3) the heap is GPU memory sized for the
// whole table outside the budget, the insert is the traced program (HT_TRACE)
// and the trace is replayed against LRU paging (paging_bound.h).
#include "frameworks/hashtable/sepo_point.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/cuda_programs.h"
#include "frameworks/blocks/scan.h"
#include "frameworks/hashtable/paging_bound.h"
#include "frameworks/hashtable/point_input.h"
#include "frameworks/hashtable/sepo_app.h"
#include "frameworks/hashtable/staged_copy.h"
#include "frameworks/workloads/workload_point.h"
#include "harness/core/ceilings.h"
#include "harness/core/errors.h"
#include "harness/core/parallel.h"
#include "harness/core/sizes.h"
#include "harness/core/stopwatch.h"

namespace harness::hashtable {
namespace {

constexpr std::uint32_t kGroupSize = 256;
// The page counter (4 B) and the kernels' stats (5 u32: ht_insert_record).
constexpr std::uint64_t kStatsBytes = 24;
// GPU pointers are u32 heap offsets / 8.
constexpr std::uint64_t kMaxHeapBytes = std::uint64_t{32} << 30;
// Each of the heap copy's two pinned staging buffers (staged_copy.h).
constexpr std::uint64_t kStagingChunkBytes = std::uint64_t{32} << 20;
// The packed arena's window on the device (sepo_pack.clh): 32 B a bucket
// (about 8 B a record), within these bounds. It follows the table's shape,
// not the budget, so a budget's heap is the budget less a fixed part.
constexpr std::uint64_t kPackWindowBytesPerBucket = 32;
constexpr std::uint64_t kMinPackWindowBytes = 4096;
constexpr std::uint64_t kMaxPackWindowBytes = std::uint64_t{16} << 20;
// Multi-valued's longest value list that is packed: one work-item walks a
// list through its CPU pointers, one dependent load a value (a few hundred
// ns from L2 on an H100), so a list of 4096 costs about a millisecond.
constexpr std::uint32_t kMaxPackedList = 4096;
// Multi-valued packs within the heap's free pages only (it has no window of
// its own: a table that takes several iterations, the usual reason for a
// budget, is never packed), and only when they hold the packed table or at
// least this much of it.
constexpr std::uint64_t kMinListPackBytes = std::uint64_t{1} << 20;

// The most pages `records` entries of at most `largest` bytes (`bytes` in
// all, at most) take once full: a page is replaced only when an entry does
// not fit, so it holds at least (page - header) / largest entries, and more
// than page - header - largest bytes of them.
std::uint64_t full_pages_bound(std::uint64_t records, std::uint64_t bytes, std::uint32_t largest,
                               std::uint32_t page_bytes) {
  if (records == 0) return 0;
  const std::uint64_t room = page_bytes - kPageHeaderBytes;
  const std::uint64_t by_count = (records + room / largest - 1) / (room / largest);
  const std::uint64_t by_bytes = (bytes + room - largest) / (room - largest + 1);
  return std::min(by_count, by_bytes);
}

// The pages one iteration can take at most, every pair inserted (the
// pinned heap's size): each pair makes at most one entry (multi-valued:
// one key entry and one value entry), each bucket group (and kind) has one
// page not yet full, and multi-valued's key pages leave `groups` + 1 pages
// to values (ht_insert_multi_valued's key_limit).
std::uint64_t whole_table_pages(Organization org, const RecordShape& shape, std::uint32_t groups,
                                std::uint32_t page_bytes) {
  const std::uint64_t n = shape.pairs();
  const std::uint64_t keys =
      shape.key_bytes_total ? shape.key_bytes_total : n * shape.max_key_bytes;
  const std::uint32_t value = 4 * ((shape.value_bytes + 3) / 4);
  const auto align = [](std::uint32_t b) { return (b + 7) & ~7u; };
  // An entry's bytes: its header and value, at most 3 B of key rounding and
  // 7 B of alignment, beside the key's own bytes.
  if (org == Organization::multi_valued) {
    const std::uint32_t value_entry = align(kMvValueHeaderBytes + value);
    return full_pages_bound(n, n * (kMvKeyHeaderBytes + 10) + keys,
                            align(kMvKeyHeaderBytes + 4 * ((shape.max_key_bytes + 3) / 4)),
                            page_bytes) +
           full_pages_bound(n, n * value_entry, value_entry, page_bytes) + 3ull * groups + 1;
  }
  return full_pages_bound(n, n * (kEntryHeaderBytes + value + 10) + keys,
                          entry_bytes(org, shape.max_key_bytes, shape.value_bytes), page_bytes) +
         groups;
}

// The paging bound's configurations (thesis table 6.3): page sizes, and the
// oversubscription (table bytes / assumed GPU memory) with its counter suffix.
constexpr std::uint32_t kPagingPageBytes[] = {4096, 128 * 1024, 1024 * 1024};
constexpr const char* kPagingPageNames[] = {"4KiB", "128KiB", "1MiB"};
constexpr double kOversubscription[] = {1.0, 1.25, 1.5, 2.0, 3.0};
constexpr const char* kOversubscriptionNames[] = {"1x", "1_25x", "1_5x", "2x", "3x"};

// The trace's first capacity (u64 entries): a combining insert of a pair
// makes one bucket access, one commit and a read per chain entry passed.
std::uint64_t first_trace_capacity(std::uint64_t pairs) { return pairs * 4 + 4096; }

// The buckets and groups a point takes (prepare_run's sizing).
std::uint32_t point_buckets(const Params& params, std::uint64_t records) {
  std::uint32_t buckets = param_u32(params, "buckets");
  if (buckets == 0)
    buckets = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(
        std::bit_ceil(std::max<std::uint64_t>(records / 4, 1)), 1024, std::uint64_t{1} << 24));
  return std::max(buckets, param_u32(params, "bucket_group"));
}

// Heap::paging_bound takes its memory outside the GPU memory budget (the
// experiment's budget is the SePo point's): lifted while it allocates.
class BudgetLift {
 public:
  BudgetLift(backend::Device* device, bool lift) : device_(lift ? device : nullptr) {
    if (device_) {
      saved_ = device_->memory_budget();
      device_->set_memory_budget(0);
    }
  }
  BudgetLift(const BudgetLift&) = delete;
  BudgetLift& operator=(const BudgetLift&) = delete;
  ~BudgetLift() {
    if (device_) device_->set_memory_budget(saved_);
  }

 private:
  backend::Device* device_;
  std::uint64_t saved_ = 0;
};

class SepoPoint final : public workloads::WorkloadPoint {
 public:
  SepoPoint(Organization org, Heap heap, const PointContext& ctx)
      : WorkloadPoint(ctx),
        org_(org),
        heap_kind_(heap),
        pinned_(heap == Heap::pinned),
        paging_(heap == Heap::paging_bound),
        app_(app_for(ctx.app)),
        device_(&point_device(ctx, name())) {
    // The kernels write the heap in place: never an emulation that copies it.
    if (pinned_) backend::require_zero_copy(device_->info());
  }

 protected:
  std::string name() const { return variant_name(org_, heap_kind_); }

  void prepare_run() override {
    const RecordShape shape = checked_shape(app_, ctx_, name());
    records_ = shape.records;
    pairs_ = shape.pairs();
    page_bytes_ = param_u32(ctx_.params, "page_bytes");
    const std::uint32_t need = entry_bytes(org_, shape.max_key_bytes, shape.value_bytes);
    if (records_ && need > page_bytes_ - kPageHeaderBytes)
      throw RunError(fmt::format(
          "hashtable/{}: a record of {} makes an entry of {} B ({} B key, {} B value), more "
          "than the {} B a page of {} B holds: raise --param page_bytes",
          name(), app_.name(), need, shape.max_key_bytes, shape.value_bytes,
          page_bytes_ - kPageHeaderBytes, page_bytes_));
    const std::uint32_t per_group = param_u32(ctx_.params, "bucket_group");
    buckets_ = point_buckets(ctx_.params, records_);
    const BudgetLift lift(device_, paging_);
    groups_ = buckets_ / per_group;
    group_shift_ = static_cast<std::uint32_t>(std::countr_zero(per_group));
    // Multi-valued groups have a key page and a value page each.
    const std::uint32_t group_pages = org_ == Organization::multi_valued ? 2 * groups_ : groups_;
    halt_groups_ = 0;
    waves_ = 1;
    lock_free_ = org_ == Organization::basic ? 0 : param_u32(ctx_.params, "lock_free");
    pack_ = heap_kind_ == Heap::device && param_u32(ctx_.params, "pack") != 0;
    // Multi-valued packs only the table of one iteration (sepo_pack.clh);
    // the insert builds CPU pointers into an arena in case it is not.
    pack_lists_ = pack_ && org_ == Organization::multi_valued;
    if (org_ == Organization::basic && !pinned_) {
      const std::uint32_t percent = param_u32(ctx_.params, "halt_percent");
      halt_groups_ = std::max<std::uint32_t>(
          1, static_cast<std::uint32_t>((std::uint64_t{groups_} * percent + 99) / 100));
      waves_ = std::max<std::uint32_t>(1, param_u32(ctx_.params, "halt_waves"));
    }
    const std::uint64_t bitmap_bytes = ((records_ + 31) / 32) * 4;
    const std::uint64_t input_bytes = DeviceInput::bytes(app_, ctx_.input_size, records_);
    const std::uint64_t bucket_bytes = buckets_ * 16ull;
    if (paging_) trace_capacity_ = first_trace_capacity(pairs_);
    // Multi-pair apps: a record's resume point (a u32 cursor into it).
    const std::uint64_t resume_bytes = app_.multi_pair() ? records_ * 4 : 0;
    const std::uint64_t trace_bytes = paging_ ? trace_capacity_ * 8 + 4 : 0;
    // Packing: each bucket's units (scanned in place), the scan's sums (a
    // BufferPool's, with its slack: a generous bound) and the window.
    window_bytes_ = pack_ && !pack_lists_ ? std::clamp(buckets_ * kPackWindowBytesPerBucket,
                                                       kMinPackWindowBytes, kMaxPackWindowBytes)
                                          : 0;
    const std::uint64_t pack_bytes =
        pack_ ? (buckets_ + 1) * 4ull + buckets_ / 64 + 8192 + window_bytes_ : 0;
    const std::uint64_t fixed = input_bytes + bucket_bytes + group_pages * 4ull + groups_ * 4ull +
                                kStatsBytes + std::max<std::uint64_t>(bitmap_bytes, 4) +
                                std::max<std::uint64_t>(resume_bytes, 4) + trace_bytes + pack_bytes;
    // The thesis' heap: what is left once every other structure is allocated.
    const std::uint64_t budget = device_->memory_budget();
    const std::uint64_t available = device_->memory_available();
    if (available < fixed)
      throw RunError(fmt::format(
          "hashtable/{}: the GPU memory budget {} ({} B available) is smaller than the table "
          "without its heap: {} B of input, {} B of bucket arrays ({} buckets), {} B of bucket "
          "groups, bitmap, counters and packing window ({} B in all)",
          name(), budget ? format_size(budget) : "(none)", available, input_bytes, bucket_bytes,
          buckets_, fixed - input_bytes - bucket_bytes, fixed));
    const std::uint64_t max_alloc = device_->info().max_allocation_bytes;
    // Each page also has its slot in the pool's free list and a flag.
    std::uint64_t cap = kMaxHeapBytes;
    if (max_alloc) cap = std::min(cap, max_alloc);
    if (pinned_) {
      // Host memory holds the heap; the GPU only its free list and flags.
      const std::uint64_t pages = whole_table_pages(org_, shape, groups_, page_bytes_);
      if (pages * page_bytes_ > cap)
        throw RunError(fmt::format(
            "hashtable/{}: the whole table may take {} pages of {} B ({} B), more than the {} B "
            "a heap can address",
            name(), pages, page_bytes_, pages * page_bytes_, cap));
      if ((available - fixed) / 8 < pages)
        throw RunError(fmt::format(
            "hashtable/{}: the GPU memory budget {} ({} B available) cannot hold the pinned "
            "heap's page list: {} pages need {} B beside {} B of input, bucket arrays and bitmap",
            name(), budget ? format_size(budget) : "(none)", available, pages, pages * 8, fixed));
      pages_ = static_cast<std::uint32_t>(pages);
    } else if (paging_) {
      // GPU memory for the whole table: one iteration, never postponed.
      const std::uint64_t pages = whole_table_pages(org_, shape, groups_, page_bytes_);
      if (pages * page_bytes_ > cap || (available - fixed) / (page_bytes_ + 8ull) < pages)
        throw RunError(fmt::format(
            "hashtable/{}: the whole table may take {} pages of {} B ({} B): more than the {} B "
            "the device has free beside {} B of input, bucket arrays, bitmap and trace, or the {} "
            "B a heap can address",
            name(), pages, page_bytes_, pages * page_bytes_, available, fixed, cap));
      pages_ = static_cast<std::uint32_t>(pages);
    } else {
      pages_ = static_cast<std::uint32_t>(
          std::min<std::uint64_t>((available - fixed) / (page_bytes_ + 8ull), cap / page_bytes_));
    }
    if (pages_ < group_pages) {
      throw RunError(fmt::format(
          "hashtable/{}: the GPU memory budget {} ({} B available) cannot hold one page "
          "per bucket group{}: {} bucket groups ({} buckets of {} each) need {} pages of {} B "
          "({} B) beside {} B of input, bucket arrays and bitmap, but only {} page(s) fit",
          name(), budget ? format_size(budget) : "(none)", available,
          org_ == Organization::multi_valued ? " and kind (keys, values)" : "", groups_, buckets_,
          per_group, group_pages, page_bytes_, std::uint64_t{group_pages} * page_bytes_, fixed,
          pages_));
    }
    heap_bytes_ = std::uint64_t{pages_} * page_bytes_;
    input_.allocate(*device_, app_, ctx_.input_size, records_);
    gpu_head_ = device_->allocate(buckets_ * 4ull);
    cpu_head_ = device_->allocate(buckets_ * 8ull);
    lock_ = device_->allocate(buckets_ * 4ull);
    group_page_ = device_->allocate(group_pages * 4ull);
    group_flags_ = device_->allocate(groups_ * 4ull);
    page_counter_ = device_->allocate(8);
    // postponed, max(~first left), halted, postponed groups, postponed with progress
    stats_ = device_->allocate(kStatsBytes - 4);
    processed_ = device_->allocate(std::max<std::uint64_t>(bitmap_bytes, 4));
    resume_ = device_->allocate(std::max<std::uint64_t>(resume_bytes, 4));
    if (pinned_) {
      // Kept across runs when large enough (pinning is slow).
      if (host_heap_.size() < heap_bytes_) {
        host_heap_ = backend::HostBuffer();
        host_heap_ = device_->allocate_host(heap_bytes_, backend::HostMemory::mapped);
      }
    } else {
      heap_ = device_->allocate(heap_bytes_);
      // Staging for the heap's page copies (kept across runs: pinning is
      // slow); packing copies straight into pinned arenas.
      if (!pack_ || pack_lists_) {
        const std::uint64_t chunk = std::min<std::uint64_t>(heap_bytes_, kStagingChunkBytes);
        if (staged_.chunk_bytes() != chunk) {
          staged_ = StagedCopy();
          staged_ = StagedCopy(*device_, chunk);
        }
      }
      if (pack_) {
        // Each bucket's units, then multi-valued's longest list.
        pack_units_ = device_->allocate((buckets_ + 1) * 4ull);
        if (window_bytes_) pack_window_ = device_->allocate(window_bytes_);
        if (!pool_ || &pool_->device() != device_) {
          scan_.reset();
          pool_ = std::make_unique<blocks::BufferPool>(*device_);
          scan_ = std::make_unique<blocks::Scan>(*pool_);
        }
      }
    }
    free_list_ = device_->allocate(std::max<std::uint64_t>(pages_ * 4ull, 4));
    page_flags_ = device_->allocate(std::max<std::uint64_t>(pages_ * 4ull, 4));
    free_host_.resize(pages_);
    page_iteration_.assign(pages_, 0);
    const std::string org = organization_name(org_);
    const std::string org_file = org_ == Organization::multi_valued ? "multi_valued" : org;
    backend::ProgramSource src =
        program_source(fmt::format("hashtable/{}/{}{}", app_.name(), org, paging_ ? "-trace" : ""),
                       {app_.kernel_file(), "frameworks/hashtable/kernels/" + org_file + ".clh",
                        "frameworks/hashtable/kernels/sepo_pack.clh"});
    if (paging_) {
      src.opencl_options = "-DHT_TRACE=1";
      trace_ = device_->allocate(trace_capacity_ * 8);
      trace_count_ = device_->allocate(4);
      measure_link();
      simulated_ = false;
    }
    program_ = device_->build(src);
    kernel_ = program_->kernel("ht_insert");
    if (org_ == Organization::basic) fix_heads_ = program_->kernel("ht_fix_cpu_heads");
    if (org_ == Organization::multi_valued) keep_resident_ = program_->kernel("ht_keep_resident");
    if (pack_) {
      pack_count_ = program_->kernel("ht_pack_count");
      pack_write_ = program_->kernel("ht_pack_write");
      pack_rows_ = program_->kernel("ht_pack_rows");
    }
    // Rows made on the GPU (sepo_app.h's row_bytes); every entry the
    // largest.
    row_bytes_ = pack_ && org_ == Organization::combining ? app_.row_bytes() : 0;
    entry_units_ = entry_bytes(org_, shape.max_key_bytes, shape.value_bytes) / 8;
  }

  Measurement run_once() override {
    last_.reset();
    rows_taken_ = 0;
    longest_list_ = 0;
    retained_pages_ = 0;
    evictions_ = 0;
    Measurement m;
    Stopwatch clock;
    backend::Queue& q = device_->queue();
    q.take_spans();
    const double index_ms = input_.upload(q, app_, ctx_.input, ctx_.input_size);
    q.begin_span("reset");
    q.fill_zero(cpu_head_, 0, buckets_ * 8ull);
    q.fill_zero(lock_, 0, buckets_ * 4ull);
    q.fill_zero(processed_, 0, processed_.size());
    q.fill_zero(resume_, 0, resume_.size());
    q.fill_zero(gpu_head_, 0, buckets_ * 4ull);
    if (paging_) q.fill_zero(trace_count_, 0, 4);
    // The pool: every page, in order.
    std::iota(free_host_.begin(), free_host_.end(), 0u);
    if (pages_) q.write(free_list_, 0, free_host_.data(), pages_ * 4ull);
    q.end_span();
    std::vector<std::uint32_t> retained;  // multi-valued: pages kept on the GPU
    std::vector<double> copy_ms;          // each iteration's heap copy, on the host's clock
    bool every_page_free = true;          // the device's free list is 0, 1, ..., pages - 1
    std::uint32_t first = 0, iterations = 0, halted_iterations = 0, packed_iterations = 0;
    std::uint64_t pages_used = 0, heap_copied = 0, postponed_first = 0;
    const auto records = static_cast<std::uint32_t>(records_);
    std::uint64_t remaining = records;  // records not yet processed
    // The heap the kernel writes, and where its CPU pointers point: the
    // iteration's host arena (the heap is copied there), or the pinned heap.
    const backend::Buffer& heap = pinned_ ? host_heap_.device_view() : heap_;
    while (remaining > 0) {
      if ((pinned_ || paging_) && iterations > 0)
        // whole_table_pages is a bound: not reached unless it is wrong.
        throw RunError(fmt::format(
            "hashtable/{}: the pinned heap of {} pages of {} B, sized for the whole table, left "
            "{} records postponed",
            name(), pages_, page_bytes_, remaining));
      // Packing rewrites every CPU pointer the insert builds into this
      // iteration (pack_iteration, pack_rows): no arena to build them from
      // (multi-valued's table may not be packed: it has one).
      const bool arena = !pinned_ && (!pack_ || pack_lists_);
      if (arena && iterations == arenas_.size())
        arenas_.push_back(std::unique_ptr<std::uint8_t[]>(new std::uint8_t[heap_bytes_]));
      const auto base = !pinned_ && !arena
                            ? std::uint64_t{0}
                            : static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(
                                  pinned_ ? host_heap_.data() : arenas_[iterations].get()));
      ++iterations;
      q.begin_span("reset");
      std::uint32_t free_pages = pages_;
      if (org_ == Organization::multi_valued) {
        // The pool: every page but those kept on the GPU (ht_keep_resident
        // left their keys alone in the GPU chains).
        if (!retained.empty() || !every_page_free) {
          std::vector<std::uint8_t> kept(pages_, 0);
          for (const std::uint32_t p : retained) kept[p] = 1;
          free_pages = 0;
          for (std::uint32_t p = 0; p < pages_; ++p)
            if (!kept[p]) free_host_[free_pages++] = p;
          if (free_pages) q.write(free_list_, 0, free_host_.data(), free_pages * 4ull);
          every_page_free = retained.empty();
        }
        q.fill_zero(page_flags_, 0, page_flags_.size());
      } else {
        q.fill_zero(gpu_head_, 0, buckets_ * 4ull);
      }
      q.fill_zero(group_page_, 0, group_page_.size());
      q.fill_zero(group_flags_, 0, groups_ * 4ull);
      q.fill_zero(page_counter_, 0, 8);
      q.fill_zero(stats_, 0, stats_.size());
      q.end_span();
      q.begin_span("insert");
      // Basic's halt policy checks the postponed groups as each record
      // starts; a GPU that starts every record of one launch at once (an
      // H200 holds ~270,000 work-items) would never halt. So basic's
      // iteration is `halt_waves` launches over consecutive slices of
      // [first, records): a slice that starts once half the groups
      // postponed is left whole, whatever the GPU's size. The others take
      // one launch.
      const std::uint64_t wave = (std::uint64_t{records - first} + waves_ - 1) / waves_;
      for (std::uint64_t lo = first; lo < records; lo += wave) {
        const auto hi = static_cast<std::uint32_t>(std::min<std::uint64_t>(records, lo + wave));
        const auto shape = backend::LaunchShape::cover(hi - lo, kGroupSize);
        if (paging_)
          q.launch(kernel_, shape, input_.data(), input_.index(), static_cast<std::uint32_t>(lo),
                   hi, processed_, stats_, resume_, heap, gpu_head_, cpu_head_, lock_, group_page_,
                   page_counter_, free_list_, page_flags_, buckets_ - 1, group_shift_, free_pages,
                   page_bytes_, base, group_flags_, halt_groups_, lock_free_, trace_, trace_count_,
                   static_cast<std::uint32_t>(trace_capacity_));
        else
          q.launch(kernel_, shape, input_.data(), input_.index(), static_cast<std::uint32_t>(lo),
                   hi, processed_, stats_, resume_, heap, gpu_head_, cpu_head_, lock_, group_page_,
                   page_counter_, free_list_, page_flags_, buckets_ - 1, group_shift_, free_pages,
                   page_bytes_, base, group_flags_, halt_groups_, lock_free_);
      }
      if (org_ == Organization::basic)
        q.launch(fix_heads_, backend::LaunchShape::cover(buckets_, kGroupSize), gpu_head_,
                 cpu_head_, buckets_, base);
      q.end_span();
      std::uint32_t c[6] = {};
      q.read(c, page_counter_, 0, 4);
      q.read(c + 1, stats_, 0, kStatsBytes - 4);
      const std::uint32_t taken = std::min(c[0], free_pages);
      const std::uint32_t postponed = c[1], halted = c[3];
      const std::uint64_t inserted = remaining - postponed - halted;
      std::uint64_t copied = taken;  // pinned: used in place
      // One iteration, every record in: the table's keys are distinct, and
      // multi-valued's lists hold all their values.
      const bool whole = iterations == 1 && postponed == 0 && halted == 0;
      Stopwatch copy_clock;
      // Packed: every table, but multi-valued's only when whole and its
      // lists are short (sepo_pack.clh).
      bool packed = false;
      std::uint64_t units = 0;
      if (pack_ && (!pack_lists_ || whole)) {
        units = count_pack_units(q);
        packed =
            !pack_lists_ || (longest_list_ <= kMaxPackedList &&
                             pack_window(taken).bytes >= std::min(units * 8, kMinListPackBytes));
      }
      if (pinned_) {
        // Nothing to copy: the host reads the heap once the queue is done.
      } else if (packed) {
        // An app whose rows are its entries' words takes them as rows.
        if (row_bytes_ && whole)
          heap_copied += pack_rows(q, taken, units);
        else
          heap_copied += pack_iteration(q, iterations - 1, taken, units, base);
        ++packed_iterations;
      } else if (org_ == Organization::multi_valued) {
        // Keep pending key pages on the GPU unless nothing was inserted (they
        // may be what fills the pool).
        copied = copy_pages(q, iterations - 1, taken, postponed > 0 && inserted > 0, retained);
      } else {
        // Every page used (a prefix of the heap) into this iteration's arena.
        staged_.copy(q, heap_,
                     {{0, std::uint64_t{taken} * page_bytes_, arenas_[iterations - 1].get()}});
      }
      if (!pinned_) copy_ms.push_back(copy_clock.elapsed_ms());
      pages_used += copied;
      if (!pinned_ && !packed) heap_copied += copied * page_bytes_;
      if (iterations == 1) postponed_first = postponed;
      if (halted) ++halted_iterations;
      // A multi-pair record postponed after inserting a pair made progress.
      const std::uint32_t progressed = c[5];
      if (inserted == 0 && progressed == 0 && free_pages == pages_)
        throw RunError(fmt::format(
            "hashtable/{}: iteration {} inserted none of its {} records: the pool of {} pages "
            "of {} B is exhausted with nothing stored",
            name(), iterations, remaining, pages_, page_bytes_));
      remaining -= inserted;
      if (remaining) first = ~c[2];
    }
    if (pinned_) q.finish();  // the kernels' writes to the heap, visible to the host
    const std::vector<backend::TimedSpan> spans = q.take_spans();
    // The final table, readable on the CPU through its CPU pointers, or
    // taken as rows.
    Stopwatch walk_clock;
    if (rows_taken_) {
      last_ = app_.collect_rows(static_cast<const std::uint8_t*>(rows_host_.data()), rows_taken_);
      entries_ = rows_taken_;
    } else {
      std::vector<std::uint64_t> heads(buckets_);
      q.read(heads.data(), cpu_head_, 0, buckets_ * 8ull);
      last_ = app_.collect(heads, org_, entries_);
    }
    const double walk_ms = walk_clock.elapsed_ms();
    m.total_ms = clock.elapsed_ms();
    std::map<std::string, double> phase;
    // Time per SePo iteration (figure 6.10): its insert launch(es) on the
    // device and its heap copy (on the host's clock: the copy ends with the
    // host's share of a staged copy).
    std::vector<double> per_iteration;
    for (const backend::TimedSpan& s : spans) {
      phase[s.name] += s.milliseconds;
      if (s.name == "insert") per_iteration.push_back(0);
      if (s.name == "insert" && !per_iteration.empty()) per_iteration.back() += s.milliseconds;
    }
    for (std::size_t i = 0; i < copy_ms.size(); ++i) {
      phase["copy_heap"] += copy_ms[i];
      if (i < per_iteration.size()) per_iteration[i] += copy_ms[i];
    }
    m.phases = {
        {"index", index_ms},         {"copy_in", phase["copy_in"]},     {"reset", phase["reset"]},
        {"insert", phase["insert"]}, {"copy_heap", phase["copy_heap"]}, {"walk", walk_ms}};
    m.counters["iterations"] = iterations;
    m.counters["halted_iterations"] = halted_iterations;
    m.counters["packed_iterations"] = packed_iterations;
    m.counters["packed_rows"] = static_cast<double>(rows_taken_);
    if (pack_lists_) m.counters["longest_list"] = longest_list_;
    m.counters["postponed_first_iteration"] = static_cast<double>(postponed_first);
    m.counters["buckets"] = buckets_;
    m.counters["bucket_groups"] = groups_;
    m.counters["halt_groups"] = halt_groups_;
    m.counters["page_bytes"] = page_bytes_;
    m.counters["heap_pages"] = pages_;
    m.counters["pages_used"] = static_cast<double>(pages_used);
    m.counters["entries"] = static_cast<double>(entries_);
    m.counters["pairs"] = static_cast<double>(pairs_);
    m.counters["retained_pages"] = static_cast<double>(retained_pages_);
    m.counters["evictions"] = static_cast<double>(evictions_);
    for (std::size_t i = 0; i < per_iteration.size(); ++i)
      m.counters[fmt::format("iteration_ms_{}", i + 1)] = per_iteration[i];
    if (per_iteration.size() > 1)
      m.counters["later_iteration_ms"] =
          std::accumulate(per_iteration.begin() + 1, per_iteration.end(), 0.0) /
          static_cast<double>(per_iteration.size() - 1);
    heap_copied_ = heap_copied;
    heap_used_ = pages_used * page_bytes_;
    if (paging_ && !paging_bound(q, pages_used, m)) return run_once();
    return m;
  }

  // The pinned copy rates: the harness's h2d_pinned and d2h_pinned ceilings
  // measured again here (harness/core/ceilings.h; a point does not see the
  // document's ceilings), of 64 MiB (where a GPU's pinned copies reach their
  // rate; the ceilings copy 16 MiB in the ci preset, 1 GiB on a GPU).
  void measure_link() {
    for (const nlohmann::json& c : measure_copies(*device_, std::size_t{64} << 20)) {
      if (c["name"] == "h2d_pinned") h2d_gbs_ = c["value"].get<double>();
      if (c["name"] == "d2h_pinned") d2h_gbs_ = c["value"].get<double>();
    }
  }

  // After the traced run: false when the trace outgrew its buffer (grown to
  // fit: the caller runs again). The first complete trace is replayed for
  // every page size and oversubscription (later runs reuse its counters: the
  // replay takes longer than the run on large tables); its counters go into m.
  bool paging_bound(backend::Queue& q, std::uint64_t pages_used, Measurement& m) {
    std::uint32_t count = 0;
    q.read(&count, trace_count_, 0, 4);
    if (count > trace_capacity_) {
      if (count == std::numeric_limits<std::uint32_t>::max())
        throw RunError(fmt::format("hashtable/{}: the trace passed 2^32 accesses", name()));
      const BudgetLift lift(device_, true);
      trace_ = backend::Buffer();
      trace_capacity_ = count + std::uint64_t{count} / 8;
      trace_capacity_ = std::min<std::uint64_t>(trace_capacity_, 0xFFFF'FFFEull);
      trace_ = device_->allocate(trace_capacity_ * 8);
      return false;
    }
    if (!simulated_) {
      std::vector<std::uint64_t> trace(count);
      if (count) q.read(trace.data(), trace_, 0, std::uint64_t{count} * 8);
      paging_counters_.clear();
      std::uint64_t commits = 0, buckets = 0;
      const std::uint64_t bucket_bytes = buckets_ * 16ull;
      for (const std::uint64_t e : trace) {
        if ((e & 3u) == 3u) ++commits;
        if ((e >> 2) < bucket_bytes) ++buckets;
      }
      const std::uint64_t table_bytes = bucket_bytes + pages_used * page_bytes_;
      paging_counters_["trace_accesses"] = count;
      paging_counters_["trace_commits"] = static_cast<double>(commits);
      paging_counters_["trace_bucket_accesses"] = static_cast<double>(buckets);
      paging_counters_["table_bytes"] = static_cast<double>(table_bytes);
      paging_counters_["h2d_pinned_gbs"] = h2d_gbs_;
      paging_counters_["d2h_pinned_gbs"] = d2h_gbs_;
      constexpr std::size_t kPages = std::size(kPagingPageBytes);
      constexpr std::size_t kRatios = std::size(kOversubscription);
      std::vector<PagingCounts> counts(kPages * kRatios);
      std::vector<std::uint64_t> capacity(counts.size());
      for (std::size_t i = 0; i < counts.size(); ++i) {
        const double memory = static_cast<double>(table_bytes) / kOversubscription[i % kRatios];
        const double page = kPagingPageBytes[i / kRatios];
        capacity[i] = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(memory / page + 0.999));
      }
      const unsigned workers = workers_for(counts.size(), 0, 1);
      parallel_for(workers, [&](unsigned w) {
        for (std::size_t i = w; i < counts.size(); i += workers)
          counts[i] = simulate_lru(trace, kPagingPageBytes[i / kRatios], capacity[i]);
      });
      for (std::size_t i = 0; i < counts.size(); ++i) {
        const std::uint32_t page = kPagingPageBytes[i / kRatios];
        const std::string at = fmt::format("{}_{}", kPagingPageNames[i / kRatios],
                                           kOversubscriptionNames[i % kRatios]);
        const PagingCounts& c = counts[i];
        paging_counters_["paging_memory_pages_" + at] = static_cast<double>(capacity[i]);
        paging_counters_["paging_faults_" + at] = static_cast<double>(c.faults);
        paging_counters_["paging_page_ins_" + at] = static_cast<double>(c.page_ins);
        paging_counters_["paging_page_outs_" + at] = static_cast<double>(c.page_outs);
        paging_counters_["paging_bytes_" + at] =
            static_cast<double>((c.page_ins + c.page_outs) * page);
        paging_counters_["paging_ms_" + at] =
            paging_time_ms(c, page, ctx_.input_size, h2d_gbs_, d2h_gbs_);
      }
      simulated_ = true;
    }
    for (const auto& [k, v] : paging_counters_) m.counters[k] = v;
    return true;
  }

  // Each bucket's packed units (ht_pack_count), scanned in place into the
  // chains' starts; returns the units in all (a wait for the queue). They fit
  // 32 bits: at most the heap's bytes / 8 (32 GiB at most). Multi-valued:
  // longest_list_ becomes the longest value list.
  std::uint64_t count_pack_units(backend::Queue& q) {
    if (pack_lists_) q.fill_zero(pack_units_, buckets_ * 4ull, 4);
    q.launch(pack_count_, backend::LaunchShape::cover(buckets_, kGroupSize), gpu_head_, heap_,
             buckets_, pack_units_);
    if (pack_lists_) q.read(&longest_list_, pack_units_, buckets_ * 4ull, 4);
    return scan_->exclusive(pack_units_, buckets_);
  }

  // The device's window on a packed arena: the heap's pages the iteration
  // left free (those from `taken` on: the pool hands pages out in order),
  // when they are more than the fixed window, which a full heap leaves
  // (multi-valued has none: only the free pages).
  struct PackWindow {
    const backend::Buffer* buffer;
    std::uint64_t offset, bytes;
  };
  PackWindow pack_window(std::uint32_t taken) const {
    const std::uint64_t free_bytes = std::uint64_t{pages_ - std::min(taken, pages_)} * page_bytes_;
    // u32 units and rows: a window below 32 GiB.
    const std::uint64_t tail = std::min(free_bytes, (std::uint64_t{1} << 35) - page_bytes_);
    if (tail > window_bytes_ || !window_bytes_)
      return {&heap_, std::uint64_t{taken} * page_bytes_, tail};
    return {&pack_window_, 0, window_bytes_};
  }

  // `buffer` made pinned host memory of at least `bytes` (grown only, with
  // an eighth to spare, and kept across runs: pinning is slow).
  void grow_pinned(backend::HostBuffer& buffer, std::uint64_t bytes) {
    if (buffer.size() >= bytes) return;
    buffer = backend::HostBuffer();  // freed first: peak memory stays at one copy
    buffer = device_->allocate_host(bytes + bytes / 8, backend::HostMemory::pinned);
  }

  // The iteration's table, `total` units (count_pack_units), packed on the
  // GPU into packed_[iteration], a window at a time (sepo_pack.clh): the CPU
  // pointers the insert built (from arena_base: 0 and never followed, or
  // multi-valued's arena) rewritten into the packed arena, and the buckets'
  // CPU heads moved there. Returns the bytes copied.
  std::uint64_t pack_iteration(backend::Queue& q, std::uint32_t iteration, std::uint32_t taken,
                               std::uint64_t total, std::uint64_t arena_base) {
    const auto cover = backend::LaunchShape::cover(buckets_, kGroupSize);
    if (total == 0) return 0;
    if (packed_.size() <= iteration) packed_.resize(iteration + 1);
    backend::HostBuffer& packed = packed_[iteration];
    grow_pinned(packed, total * 8);
    const auto packed_base =
        static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(packed.data()));
    const PackWindow window = pack_window(taken);
    const std::uint64_t window_units = window.bytes / 8;
    for (std::uint64_t first = 0; first < total; first += window_units) {
      const std::uint64_t units = std::min(window_units, total - first);
      q.launch(pack_write_, cover, gpu_head_, cpu_head_, heap_, buckets_, pack_units_,
               static_cast<std::uint32_t>(total), packed_base, arena_base,
               static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(units), *window.buffer,
               window.offset);
      q.read_async(packed, first * 8, *window.buffer, window.offset, units * 8).wait();
    }
    return total * 8;
  }

  // The only iteration's table, `total` units, as the answer's rows
  // (ht_pack_rows), a window at a time, into rows_host_ (pinned, grown
  // only). Returns the bytes copied.
  std::uint64_t pack_rows(backend::Queue& q, std::uint32_t taken, std::uint64_t total) {
    const auto cover = backend::LaunchShape::cover(buckets_, kGroupSize);
    const std::uint32_t entry_units = entry_units_;
    const std::uint64_t rows = total / entry_units;
    if (rows == 0) return 0;
    grow_pinned(rows_host_, rows * row_bytes_);
    const PackWindow window = pack_window(taken);
    const std::uint64_t window_rows = window.bytes / row_bytes_;
    for (std::uint64_t first = 0; first < rows; first += window_rows) {
      const std::uint64_t n = std::min(window_rows, rows - first);
      q.launch(pack_rows_, cover, gpu_head_, heap_, buckets_, pack_units_,
               static_cast<std::uint32_t>(total), entry_units, row_bytes_ / 4,
               static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(n), *window.buffer,
               window.offset);
      q.read_async(rows_host_, first * row_bytes_, *window.buffer, window.offset, n * row_bytes_)
          .wait();
    }
    rows_taken_ = rows;
    return rows * row_bytes_;
  }

  // Multi-valued's end of an iteration (6.3.3): the pages taken from the
  // pool this iteration (the first `taken` of free_host_) and those kept
  // before; with `keep`, a key page holding a key with a postponed value (its
  // flag set by the kernel) stays on the GPU, every other page is copied to the arena of
  // the iteration that took it, at its own offset (the CPU pointers into it
  // were built from that base). The GPU chains then keep only the entries of
  // the pages that stay. Returns the pages copied; `retained` becomes the
  // pages that stay.
  std::uint64_t copy_pages(backend::Queue& q, std::uint32_t iteration, std::uint32_t taken,
                           bool keep, std::vector<std::uint32_t>& retained) {
    std::vector<std::uint32_t> used(retained);
    for (std::uint32_t i = 0; i < taken; ++i) {
      used.push_back(free_host_[i]);
      page_iteration_[free_host_[i]] = iteration;
    }
    std::sort(used.begin(), used.end());
    std::vector<std::uint32_t> flags;
    if (keep) {
      flags.resize(pages_);
      q.read(flags.data(), page_flags_, 0, pages_ * 4ull);
    }
    retained.clear();
    std::vector<std::uint32_t> copy;
    for (const std::uint32_t p : used) (keep && flags[p] ? retained : copy).push_back(p);
    // Pending key pages holding more than half the pool would leave the next
    // iteration too little room: copied anyway (their keys get a second entry
    // in a later iteration, merged by the walk).
    if (retained.size() > pages_ / 2) {
      copy.insert(copy.end(), retained.begin(), retained.end());
      std::sort(copy.begin(), copy.end());
      retained.clear();
      ++evictions_;
    }
    // Runs of consecutive pages of one arena: one range each.
    std::vector<StagedCopy::Range> ranges;
    for (std::size_t i = 0; i < copy.size();) {
      std::size_t j = i + 1;
      while (j < copy.size() && copy[j] == copy[j - 1] + 1 &&
             page_iteration_[copy[j]] == page_iteration_[copy[i]])
        ++j;
      const std::uint64_t at = std::uint64_t{copy[i]} * page_bytes_;
      ranges.push_back({at, (j - i) * page_bytes_, arenas_[page_iteration_[copy[i]]].get() + at});
      i = j;
    }
    staged_.copy(q, heap_, ranges);
    q.begin_span("reset");
    if (retained.empty())
      q.fill_zero(gpu_head_, 0, buckets_ * 4ull);
    else
      q.launch(keep_resident_, backend::LaunchShape::cover(buckets_, kGroupSize), gpu_head_, heap_,
               page_flags_, page_bytes_, buckets_);
    q.end_span();
    retained_pages_ = std::max<std::uint64_t>(retained_pages_, retained.size());
    return copy.size();
  }

  Work work() const override {
    Work w = input_work();
    w.items("records", records_, "insert")
        .reads(level::h2d, ctx_.input_size, "copy_in")
        .reads(level::dram, ctx_.input_size, "insert");
    // Pinned heap: the entries, written over the link as they are inserted.
    // Else the heap's copy: the packed table (or rows) into pinned arenas, or
    // the pages over the link into pinned staging, then spread into the
    // arenas on the host (staged_copy.h); the pinned rate bounds both.
    if (pinned_)
      w.writes(level::d2h, heap_used_, "insert", "d2h_pinned");
    else
      w.writes(level::d2h, heap_copied_, "copy_heap", "d2h_pinned");
    return w;
  }

 private:
  Organization org_;
  Heap heap_kind_;
  bool pinned_;  // Heap::pinned
  bool paging_;  // Heap::paging_bound: the traced insert, the paging bound's counters
  const SepoApp& app_;
  backend::Device* device_;
  std::uint64_t records_ = 0, pairs_ = 0, heap_bytes_ = 0, heap_copied_ = 0, heap_used_ = 0,
                entries_ = 0;
  std::uint32_t page_bytes_ = 0, buckets_ = 0, groups_ = 0, group_shift_ = 0, pages_ = 0;
  std::uint32_t halt_groups_ = 0, waves_ = 1;  // basic: the halt policy's groups, launches
  std::uint32_t lock_free_ = 1;  // combining, multi-valued: updates without the bucket lock
  DeviceInput input_;
  backend::Buffer gpu_head_, cpu_head_, lock_, group_page_, group_flags_, page_counter_, stats_,
      processed_, resume_, heap_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel kernel_, fix_heads_, keep_resident_, pack_count_, pack_write_, pack_rows_;
  // Packing (pack_iteration): each bucket's units then their starts, the
  // device's window of the packed arena, the scan, and each iteration's
  // packed arena (pinned, grown only: kept across runs).
  // Multi-valued (pack_lists_) packs a whole table whose longest value list
  // (longest_list_, from the last count) is short enough.
  bool pack_ = false, pack_lists_ = false;
  std::uint32_t longest_list_ = 0;
  std::uint64_t window_bytes_ = 0;
  backend::Buffer pack_units_, pack_window_;
  std::unique_ptr<blocks::BufferPool> pool_;
  std::unique_ptr<blocks::Scan> scan_;
  std::vector<backend::HostBuffer> packed_;
  // Rows of entry words (pack_rows): their bytes (0: the app has none), the
  // rows the last run took, and where they are (pinned, grown only).
  std::uint32_t row_bytes_ = 0, entry_units_ = 0;
  std::uint64_t rows_taken_ = 0;
  backend::HostBuffer rows_host_;
  backend::Buffer free_list_, page_flags_;
  std::vector<std::uint32_t> free_host_;       // the pool's page ids, as last written
  std::vector<std::uint32_t> page_iteration_;  // the iteration (arena) that took each page
  std::uint64_t retained_pages_ = 0;           // the most pages kept on the GPU at once
  std::uint64_t evictions_ = 0;  // iterations whose pending key pages were copied anyway
  StagedCopy staged_;            // the heap's copies into the arenas
  // One host arena per iteration, heap-sized (only the copied pages are
  // touched); kept across runs: the CPU pointers point into them. None when
  // packing (packed_ instead).
  std::vector<std::unique_ptr<std::uint8_t[]>> arenas_;
  // Heap::pinned: the heap, mapped pinned host memory (device_view() for the
  // kernels); the final table is walked in it.
  backend::HostBuffer host_heap_;
  // Heap::paging_bound: the trace (u64 entries), its counter, the pinned
  // copy rates, and the replay's counters (of the first complete trace).
  backend::Buffer trace_, trace_count_;
  std::uint64_t trace_capacity_ = 0;
  double h2d_gbs_ = 0, d2h_gbs_ = 0;
  bool simulated_ = false;
  std::map<std::string, double> paging_counters_;
};

}  // namespace

std::unique_ptr<PointRunner> make_sepo_point(Organization org, Heap heap, const PointContext& ctx) {
  return std::make_unique<SepoPoint>(org, heap, ctx);
}

std::string paging_bound_skip(const PointContext& ctx) {
  if (!ctx.device || !ctx.input) return "";
  RecordShape shape;
  try {
    shape = app_for(ctx.app).shape(ctx.input, ctx.input_size);
  } catch (const std::exception&) {
    return "";  // the point's own checks say what is wrong
  }
  const std::uint32_t page_bytes = param_u32(ctx.params, "page_bytes");
  const std::uint32_t buckets = point_buckets(ctx.params, shape.records);
  const std::uint32_t groups = buckets / param_u32(ctx.params, "bucket_group");
  const std::uint64_t heap =
      whole_table_pages(Organization::combining, shape, groups, page_bytes) * (page_bytes + 8ull);
  const std::uint64_t need = ctx.input_size + buckets * 16ull + heap +
                             first_trace_capacity(shape.pairs()) * 8 + (shape.records / 32 + 1) * 4;
  const std::uint64_t free = ctx.device->device_free_memory();
  if (need <= free) return "";
  return fmt::format(
      "the paging bound traces the whole table in GPU memory (one iteration): {} of input, "
      "bucket arrays, heap and trace, but the device has {} free",
      format_size(need), format_size(free));
}

}  // namespace harness::hashtable
