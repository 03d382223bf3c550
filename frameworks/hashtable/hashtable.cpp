#include "frameworks/hashtable/hashtable.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/blocks/cuda_programs.h"
#include "frameworks/workloads/netflix/netflix_format.h"
#include "frameworks/workloads/netflix/pair_scores_output.h"
#include "frameworks/workloads/workload_point.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "harness/core/sizes.h"
#include "harness/core/stopwatch.h"

namespace harness::hashtable {

std::uint64_t walk_host_table(std::span<const std::uint64_t> cpu_heads,
                              const std::function<void(const HostEntry&)>& visit) {
  std::uint64_t entries = 0;
  for (const std::uint64_t head : cpu_heads) {
    for (std::uint64_t p = head; p != 0;) {
      const auto* e = reinterpret_cast<const std::uint32_t*>(static_cast<std::uintptr_t>(p));
      const std::uint32_t key_bytes = e[3] & 0xffff, value_bytes = e[3] >> 16;
      const std::uint32_t key_words = (key_bytes + 3) / 4;
      visit(HostEntry{e + 4, key_bytes, e + 4 + key_words, value_bytes});
      ++entries;
      std::memcpy(&p, e, sizeof p);
    }
  }
  return entries;
}

namespace {

using workloads::Output;

constexpr std::uint32_t kGroupSize = 256;
// GPU pointers are u32 heap offsets / 8.
constexpr std::uint64_t kMaxHeapBytes = std::uint64_t{32} << 30;

// hashtable/combining over netflix: the whole input resident on the device,
// the table's bucket arrays, bucket groups and processed bitmap beside it,
// and a heap of every page the rest of the budget holds. Each SePo iteration
// inserts every unprocessed record (combining halts at the end of the input),
// copies the used heap pages into a host arena whose base the kernel built
// the CPU pointers from, and resets the allocator; the Output is the host
// arenas' chains walked through their CPU pointers.
class CombiningPoint final : public workloads::WorkloadPoint {
 public:
  explicit CombiningPoint(const PointContext& ctx) : WorkloadPoint(ctx) {
    if (!ctx.device) throw UsageError("hashtable/combining needs a GPU backend device");
    if (ctx.app != workloads::netflix::kApp)
      throw UsageError("hashtable/combining runs netflix, not " + ctx.app);
    device_ = ctx.device;
  }

 protected:
  void prepare_run() override {
    records_ = ctx_.input_size / workloads::netflix::kRecordBytes;
    page_bytes_ = param_u32(ctx_.params, "page_bytes");
    const std::uint32_t per_group = param_u32(ctx_.params, "bucket_group");
    buckets_ = param_u32(ctx_.params, "buckets");
    if (buckets_ == 0)
      buckets_ = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(
          std::bit_ceil(std::max<std::uint64_t>(records_ / 4, 1)), 1024, std::uint64_t{1} << 24));
    buckets_ = std::max(buckets_, per_group);
    groups_ = buckets_ / per_group;
    group_shift_ = static_cast<std::uint32_t>(std::countr_zero(per_group));
    const std::uint64_t bitmap_bytes = ((records_ + 31) / 32) * 4;
    const std::uint64_t fixed = std::max<std::uint64_t>(ctx_.input_size, 8) + buckets_ * 16ull +
                                groups_ * 4ull + 12 + std::max<std::uint64_t>(bitmap_bytes, 4);
    // The thesis' heap: what is left once every other structure is allocated.
    const std::uint64_t budget = device_->memory_budget();
    const std::uint64_t available = device_->memory_available();
    const std::uint64_t max_alloc = device_->info().max_allocation_bytes;
    std::uint64_t heap = available > fixed ? available - fixed : 0;
    heap = std::min(heap, kMaxHeapBytes);
    if (max_alloc) heap = std::min(heap, max_alloc);
    pages_ = static_cast<std::uint32_t>(heap / page_bytes_);
    if (pages_ < groups_) {
      throw RunError(fmt::format(
          "hashtable/combining: the GPU memory budget {} ({} B available) cannot hold one page "
          "per bucket group: {} bucket groups ({} buckets of {} each) need {} pages of {} B "
          "({} B) beside {} B of input, bucket arrays and bitmap, but only {} page(s) fit",
          budget ? format_size(budget) : "(none)", available, groups_, buckets_, per_group, groups_,
          page_bytes_, std::uint64_t{groups_} * page_bytes_, fixed, pages_));
    }
    heap_bytes_ = std::uint64_t{pages_} * page_bytes_;
    input_ = device_->allocate(std::max<std::size_t>(ctx_.input_size, 8));
    gpu_head_ = device_->allocate(buckets_ * 4ull);
    cpu_head_ = device_->allocate(buckets_ * 8ull);
    lock_ = device_->allocate(buckets_ * 4ull);
    group_page_ = device_->allocate(groups_ * 4ull);
    page_counter_ = device_->allocate(4);
    stats_ = device_->allocate(8);  // postponed, max(~first postponed)
    processed_ = device_->allocate(std::max<std::uint64_t>(bitmap_bytes, 4));
    heap_ = device_->allocate(heap_bytes_);
    program_ = device_->build(
        program_source("hashtable/netflix/combining", {"frameworks/hashtable/apps/netflix.clh"}));
    kernel_ = program_->kernel("ht_netflix_insert");
  }

  Measurement run_once() override {
    last_.reset();
    Measurement m;
    Stopwatch clock;
    backend::Queue& q = device_->queue();
    q.take_spans();
    q.begin_span("copy_in");
    if (ctx_.input_size) q.write(input_, 0, ctx_.input, ctx_.input_size);
    q.end_span();
    q.begin_span("reset");
    q.fill_zero(cpu_head_, 0, buckets_ * 8ull);
    q.fill_zero(lock_, 0, buckets_ * 4ull);
    q.fill_zero(processed_, 0, processed_.size());
    q.end_span();
    std::uint32_t first = 0, iterations = 0;
    std::uint64_t pages_used = 0, heap_copied = 0, postponed_first = 0;
    const auto records = static_cast<std::uint32_t>(records_);
    while (first < records) {
      if (iterations == arenas_.size())
        arenas_.push_back(std::unique_ptr<std::uint8_t[]>(new std::uint8_t[heap_bytes_]));
      const auto base =
          static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(arenas_[iterations].get()));
      ++iterations;
      q.begin_span("reset");
      q.fill_zero(gpu_head_, 0, buckets_ * 4ull);
      q.fill_zero(group_page_, 0, groups_ * 4ull);
      q.fill_zero(page_counter_, 0, 4);
      q.fill_zero(stats_, 0, 8);
      q.end_span();
      q.begin_span("insert");
      q.launch(kernel_, backend::LaunchShape::cover(records - first, kGroupSize), input_, first,
               records, processed_, stats_, heap_, gpu_head_, cpu_head_, lock_, group_page_,
               page_counter_, buckets_ - 1, group_shift_, pages_, page_bytes_, base);
      q.end_span();
      std::uint32_t c[3] = {};
      q.read(c, page_counter_, 0, 4);
      q.read(c + 1, stats_, 0, 8);
      const std::uint64_t used = std::min(c[0], pages_);
      q.begin_span("copy_heap");
      if (used) q.read(arenas_[iterations - 1].get(), heap_, 0, used * page_bytes_);
      q.end_span();
      pages_used += used;
      heap_copied += used * page_bytes_;
      const std::uint32_t postponed = c[1];
      if (iterations == 1) postponed_first = postponed;
      if (postponed == 0) break;
      const std::uint32_t next = ~c[2];
      if (postponed == records - first && next == first)
        throw RunError(fmt::format(
            "hashtable/combining: iteration {} inserted none of its {} records: the pool of {} "
            "pages of {} B is exhausted with nothing stored",
            iterations, postponed, pages_, page_bytes_));
      first = next;
    }
    const std::vector<backend::TimedSpan> spans = q.take_spans();
    // The final table, readable on the CPU through its CPU pointers.
    Stopwatch walk_clock;
    std::vector<std::uint64_t> heads(buckets_);
    q.read(heads.data(), cpu_head_, 0, buckets_ * 8ull);
    using workloads::netflix::PairTally;
    std::vector<PairTally> rows;
    entries_ = walk_host_table(heads, [&rows](const HostEntry& e) {
      PairTally t;
      std::memcpy(&t.pair, e.key, 8);
      t.similarity = static_cast<std::int32_t>(e.value[0]);
      t.movies = e.value[1];
      rows.push_back(t);
    });
    // A key inserted in several iterations has one entry per iteration:
    // combined here with the same callback (adding).
    last_ = workloads::netflix::combine_tallies(std::move(rows));
    const double walk_ms = walk_clock.elapsed_ms();
    m.total_ms = clock.elapsed_ms();
    std::map<std::string, double> phase;
    for (const backend::TimedSpan& s : spans) phase[s.name] += s.milliseconds;
    m.phases = {{"copy_in", phase["copy_in"]},
                {"reset", phase["reset"]},
                {"insert", phase["insert"]},
                {"copy_heap", phase["copy_heap"]},
                {"walk", walk_ms}};
    m.counters["iterations"] = iterations;
    m.counters["postponed_first_iteration"] = static_cast<double>(postponed_first);
    m.counters["buckets"] = buckets_;
    m.counters["bucket_groups"] = groups_;
    m.counters["page_bytes"] = page_bytes_;
    m.counters["heap_pages"] = pages_;
    m.counters["pages_used"] = static_cast<double>(pages_used);
    m.counters["entries"] = static_cast<double>(entries_);
    heap_copied_ = heap_copied;
    return m;
  }

  Work work() const override {
    Work w = input_work();
    w.items("records", records_)
        .reads(level::h2d, ctx_.input_size, "copy_in", "h2d_pageable")
        .reads(level::dram, ctx_.input_size, "insert")
        .writes(level::d2h, heap_copied_, "copy_heap", "d2h_pageable");
    return w;
  }

 private:
  backend::Device* device_ = nullptr;
  std::uint64_t records_ = 0, heap_bytes_ = 0, heap_copied_ = 0, entries_ = 0;
  std::uint32_t page_bytes_ = 0, buckets_ = 0, groups_ = 0, group_shift_ = 0, pages_ = 0;
  backend::Buffer input_, gpu_head_, cpu_head_, lock_, group_page_, page_counter_, stats_,
      processed_, heap_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel kernel_;
  // One host arena per iteration, heap-sized (only the copied pages are
  // touched); kept across runs: the CPU pointers point into them.
  std::vector<std::unique_ptr<std::uint8_t[]>> arenas_;
};

}  // namespace

void register_family() {
  VariantInfo v;
  v.framework = "hashtable";
  v.name = "combining";
  v.description =
      "The thesis' SePo hash table, combining organization: chained entries in pages of a GPU "
      "heap, bucket groups with their own page, a bucket lock; inserts with no page left are "
      "postponed, the heap copied to host memory and the postponed records run again";
  v.backends = {backend::Kind::opencl, backend::Kind::cuda};
  v.apps = {workloads::netflix::kApp};
  v.params = {
      pow2_param("buckets", 0, 64, std::uint64_t{1} << 24, "buckets of the table",
                 "a power of two near a quarter of the records, at least 1024"),
      pow2_param("bucket_group", 64, 1, std::uint64_t{1} << 20,
                 "buckets per bucket group (each group allocates from its own page)"),
      pow2_param("page_bytes", 4096, 64, std::uint64_t{1} << 24, "bytes of a heap page"),
  };
  v.make = [](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
    return std::make_unique<CombiningPoint>(ctx);
  };
  Registry::instance().add_variant(std::move(v));
}

}  // namespace harness::hashtable
