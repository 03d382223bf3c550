// BigKernel's four-stage pipeline (thesis 4.2, figures 4.1, 4.2, 4.9) over
// rounds of whole records, each round one thread a record:
//   1. address generation: the ADDRGEN build of the app's kernel fills the
//      round's address list on the device; pattern recognition
//      (kernels/pattern.clh) reduces it to a descriptor when every thread
//      follows base + t x stride (variable-length records: when every
//      thread's reads are the first of one sequence of offsets from its
//      record's start; the counts come back with the descriptor); the
//      descriptor (or the raw list) is copied back on the address queue;
//   2. assembly: host threads gather the named bytes of the mapped input into
//      a pinned prefetch buffer (assembly.h), packed in the layout COMPUTE reads;
//   3. the copy engine sends the buffer on the round's lane queue;
//   4. computation: the COMPUTE build reads the values in access order; the
//      app's results are copied back on the same lane.
// Round k's assembly runs on the host while the device generates round
// k + 1's addresses and copies and computes round k - 1 on the other lane:
// two address slots, two prefetch buffers, two lanes.
//
// The thesis runs stages 1 and 4 as address and compute warps of one
// persistent kernel, synchronized by named barriers and a flag copied after
// the data. Here they are separate launches on two queues (the thesis' own
// alternative, "addresses in GPU memory, sent in bulk"), which every backend
// of the dialect can run and which needs no spin-wait on host-written flags.
//
// overlap-only (figure 4.12's first step) sends whole records: no address
// generation, the assembly is a copy of the round's bytes, PLAIN computes.
//
// Variable-length records (records.h): a round is R whole records, its
// entries of the record table copied before its launches on each queue;
// the address list and the values are sized for R threads of the app's most
// reads. An app of several passes (mastercard) runs every round of a pass,
// then the app's end_pass, then the next pass's rounds.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/bigkernel/app_kernel.h"
#include "frameworks/bigkernel/assembly.h"
#include "frameworks/bigkernel/derivable.h"
#include "frameworks/bigkernel/points.h"
#include "frameworks/bigkernel/round_plan.h"
#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/cuda_programs.h"
#include "frameworks/blocks/pinned_array.h"
#include "frameworks/sl1/cache_plan.h"
#include "frameworks/workloads/workload_point.h"
#include "harness/core/errors.h"
#include "harness/core/host_cores.h"
#include "harness/core/parallel.h"
#include "harness/core/stopwatch.h"

namespace harness::bigkernel {
namespace {

constexpr std::uint32_t kSlots = 2;  // address slots, prefetch buffers and lanes
// Bytes of values an assembly worker is handed at least (fewer workers for
// small rounds). By bytes, not threads: a thread's record is 32 B for
// K-means but a piece of about 1 KiB for wc and mastercard, whose rounds (a
// few thousand pieces under the gpu preset's budget: 8 B of address list a
// byte) got 2 of the host's 16 cores at 4096 threads a worker (wc's assembly
// 95.8 ms at 128 MiB on an H100 host, 1.4 GB/s).
constexpr std::uint64_t kBytesPerWorker = 256 << 10;

// BigKernel + S-L1 (figure 5.14): the values are S-L1's one structure, so a
// thread needs one 16 B line (sl1_cache.clh: SL1_LINE_BYTES) in shared
// memory; the first 300 accesses of a thread are monitored, as in the S-L1
// family; the statistics are sl1::kStatFields u32 a thread.
constexpr std::uint32_t kSl1Lines = 1;
constexpr std::uint32_t kSl1LineBytes = 16;
constexpr std::uint32_t kSl1Monitor = 300;
constexpr std::uint64_t kSl1StatBytes = sl1::kStatFields * sizeof(std::uint32_t);

// The threads of a round of `threads` that fill `bytes` of values handed to
// one worker at least.
std::uint64_t threads_per_worker(std::uint64_t threads, std::uint64_t bytes) {
  if (threads == 0 || bytes <= kBytesPerWorker) return std::max<std::uint64_t>(threads, 1);
  return std::max<std::uint64_t>(1, threads * kBytesPerWorker / bytes);
}

// A slot's pinned host memory: the prefetch buffer the assembly fills, and
// what address generation sends back (the descriptor, or the raw list and
// counts).
struct HostSlot {
  explicit HostSlot(backend::Device& d) : values(d), descriptor(d), list(d), counts(d) {}
  blocks::PinnedArray<std::uint8_t> values;
  blocks::PinnedArray<std::uint64_t> descriptor, list;
  blocks::PinnedArray<std::uint32_t> counts;
};

class PipelinePoint final : public workloads::WorkloadPoint {
 public:
  PipelinePoint(const PointContext& ctx, PipelineOptions options, std::unique_ptr<AppKernel> app)
      : WorkloadPoint(ctx), opt_(std::move(options)) {
    if (!ctx.device) throw UsageError("bigkernel/" + opt_.variant + " needs a GPU backend device");
    device_ = ctx.device;
    pool_ = std::make_unique<blocks::BufferPool>(*device_);
    app_ = app ? std::move(app) : make_app_kernel(ctx.app);
    address_queue_ = device_->create_queue();
    for (auto& lane : lanes_) lane = device_->create_queue();
    patterns_ = opt_.reduce_volume && param_bool(ctx.params, "patterns");
    const std::uint32_t asked = param_u32(ctx.params, "assembly_threads");
    workers_ = asked ? asked : harness::usable_cores();
    for (std::uint32_t i = 0; i < kSlots; ++i) host_.emplace_back(*device_);
  }

 protected:
  void prepare_run() override {
    app_->bind(*device_, ctx_.params, ctx_.input, ctx_.input_size);
    const RecordTable& recs = app_->records();
    records_ = recs.count();
    capacity_ = app_->max_reads();
    value_bytes_ = app_->max_value_bytes();
    // One round in flight per slot: its prefetched values (the round's R
    // records: a thread's at most value_bytes_, and up to 7 B of padding a
    // coalesced segment) and the app's side buffers on a lane, (volume
    // reduction) its address list and counts, and (variable-length records)
    // the round's entries of the record table on the lane and, for address
    // generation, on the address queue.
    const LaneBytes round = [this, &recs](std::uint64_t r) {
      std::uint64_t bytes = app_->side_bytes(r);
      if (opt_.sl1) bytes += pool_bytes(launch_threads(r) * kSl1StatBytes);
      if (opt_.reduce_volume) {
        bytes += pool_bytes(r * value_bytes_ + 8 * std::uint64_t{capacity_} + sl1_pad()) +
                 pool_bytes(r * capacity_ * 8) + pool_bytes(r * 4) +
                 pool_bytes(descriptor_words(capacity_) * 8) +
                 pool_bytes(8);  // a slot's address generation stand-in value (derivable.h)
      } else {
        bytes += pool_bytes(recs.max_bytes(r));
      }
      if (recs.variable()) bytes += (opt_.reduce_volume ? 2 : 1) * pool_bytes(recs.slice_bytes(r));
      return bytes;
    };
    per_round_ =
        plan_round(*device_, *app_, ctx_.params, opt_.variant, records_, kSlots, round,
                   (opt_.reduce_volume ? "a round's address list, counts and values + its "
                                       : "a round's records + its ") +
                       app_->side_text() + (recs.variable() ? " + its records' entries" : ""));
    // Whole work-groups a round, or at least a multiple of 8 records.
    if (per_round_ < records_) per_round_ = whole_groups_or_eights(per_round_, kGroupSize);
    if (opt_.reduce_volume) {
      app_->use_sl1(opt_.sl1);
      app_->prepare(*device_, *pool_, ctx_.params, ctx_.input, ctx_.input_size,
                    {Mode::addrgen, Mode::compute});
      pattern_program_ = device_->build(
          program_source("bigkernel/pattern", {"frameworks/bigkernel/kernels/pattern.clh"}));
      if (recs.variable()) {
        longest_kernel_ = pattern_program_->kernel("bk_find_longest");
        pattern_kernel_ = pattern_program_->kernel("bk_find_record_pattern");
      } else {
        pattern_kernel_ = pattern_program_->kernel("bk_find_pattern");
      }
    } else {
      app_->prepare(*device_, *pool_, ctx_.params, ctx_.input, ctx_.input_size, {Mode::plain});
    }
    chunks_ = chunks(records_, per_round_);
    for (std::uint32_t s = 0; s < kSlots; ++s) {
      host_[s].values.resize(opt_.reduce_volume ? per_round_ * value_bytes_ +
                                                      8 * std::uint64_t{capacity_} + sl1_pad()
                                                : recs.max_bytes(per_round_));
      if (opt_.reduce_volume) {
        host_[s].descriptor.resize(descriptor_words(capacity_));
        host_[s].list.resize(per_round_ * capacity_);
        host_[s].counts.resize(per_round_);
      }
    }
    if (opt_.reduce_volume) check_derivable();
  }

  Measurement run_once() override {
    last_.reset();
    Measurement m;
    Stopwatch clock;
    app_->begin_run(chunks_, per_round_);
    run_ = RunTally{};
    std::map<std::string, double> device_ms;
    double pass_ms = 0;
    for (std::uint32_t pass = 0; pass < app_->passes(); ++pass) {
      app_->begin_pass(pass);
      std::array<backend::Event, kSlots> addresses_back, values_sent;
      for (std::size_t step = 0; step <= chunks_.size(); ++step) {
        if (step < chunks_.size() && opt_.reduce_volume) {
          addresses_back[step % kSlots] = generate(step);
        }
        if (step >= 1) {
          const std::size_t k = step - 1;
          if (opt_.reduce_volume) addresses_back[k % kSlots].wait();
          values_sent[k % kSlots].wait();  // round k - 2's copy left the prefetch buffer
          values_sent[k % kSlots] = assemble_and_send(k);
        }
      }
      for (backend::Queue* q : {address_queue_.get(), lanes_[0].get(), lanes_[1].get()}) {
        for (const auto& s : q->take_spans()) device_ms[s.name] += s.milliseconds;
      }
      Stopwatch between;
      app_->end_pass(pass);
      pass_ms += between.elapsed_ms();
    }
    Stopwatch merge;
    last_ = app_->finish_run();
    const double merge_ms = merge.elapsed_ms() + pass_ms;
    m.total_ms = clock.elapsed_ms();
    m.phases = {{"addrgen", device_ms["addrgen"]},
                {"addr_copy", device_ms["addr_copy"]},
                {"assembly", run_.assembly_ms},
                {"copy_in", device_ms["copy_in"]},
                {"compute", device_ms["compute"]},
                {"copy_out", device_ms["copy_out"]},
                {"merge", merge_ms}};
    m.counters["rounds"] = static_cast<double>(chunks_.size());  // a pass's
    m.counters["passes"] = app_->passes();
    m.counters["records_per_round"] = static_cast<double>(per_round_);
    m.counters["pattern_rounds"] = static_cast<double>(run_.pattern_rounds);
    m.counters["raw_rounds"] = static_cast<double>(run_.raw_rounds);
    m.counters["value_bytes"] = static_cast<double>(run_.value_bytes);
    m.counters["address_bytes"] = static_cast<double>(run_.address_bytes);
    m.counters["record_table_bytes"] = static_cast<double>(run_.table_bytes);
    m.counters["assembly_threads"] = workers_;
    m.counters["assembly_workers_used"] = run_.workers_used;
    m.counters["volume_fraction"] = ctx_.input_size ? static_cast<double>(run_.value_bytes) /
                                                          static_cast<double>(ctx_.input_size)
                                                    : 0.0;
    if (opt_.sl1) add_sl1_counters(m);
    return m;
  }

  Work work() const override {
    Work w = input_work();
    w.items("records", records_)
        .reads(level::h2d, run_.value_bytes + run_.table_bytes, "copy_in", "h2d_pinned")
        .writes(level::d2h, app_->copied_out(), "copy_out", app_->copy_out_ceiling());
    if (opt_.reduce_volume) w.writes(level::d2h, run_.address_bytes, "addr_copy", "d2h_pinned");
    return w;
  }

 private:
  struct RunTally {
    double assembly_ms = 0;
    std::uint64_t pattern_rounds = 0, raw_rounds = 0, value_bytes = 0, address_bytes = 0,
                  table_bytes = 0;
    unsigned workers_used = 0;  // the most assembly workers a round took
  };

  // fn(begin, end) over a round's `threads` threads, whose values take
  // `bytes`, on the workers its bytes call for (threads_per_worker); the
  // most a round took is the counter assembly_workers_used.
  void assemble_in_parallel(std::uint64_t threads, std::uint64_t bytes,
                            const std::function<void(std::uint64_t, std::uint64_t)>& fn) {
    run_.workers_used =
        std::max(run_.workers_used,
                 parallel_ranges(threads, workers_, threads_per_worker(threads, bytes), fn));
  }

  // Variable-length records: round k's entries of the record table, copied on
  // `q` (a "copy_in" span) into `name` for the launches that follow there.
  void send_records(backend::Queue& q, const std::string& name, const Chunk& c,
                    MappedArgs& mapped) {
    RecordTable& recs = app_->records();
    if (!recs.variable()) return;
    backend::Buffer& slice = pool_->get(name, recs.slice_bytes(per_round_));
    q.begin_span("copy_in");
    q.write_async(slice, 0, recs.host_buffer(), recs.slice_offset(c.first),
                  recs.slice_bytes(c.count));
    q.end_span();
    run_.table_bytes += recs.slice_bytes(c.count);
    mapped.records = &slice;
    mapped.record_words = recs.words();
  }

  // Stage 1 for round k on the address queue; the returned event is done
  // once its descriptor (patterns on) or raw list is in host memory.
  // (Variable-length records: address generation reads the round's entries
  // of the record table, copied first; the pattern is a record pattern, and
  // the counts come back with its descriptor.)
  backend::Event generate(std::size_t k) {
    const std::uint32_t s = k % kSlots;
    const Chunk& c = chunks_[k];
    const auto r = static_cast<std::uint32_t>(c.count);
    backend::Queue& q = *address_queue_;
    backend::Buffer& list = pool_->get("bk.list" + std::to_string(s), per_round_ * capacity_ * 8);
    backend::Buffer& counts = pool_->get("bk.counts" + std::to_string(s), per_round_ * 4);
    backend::Buffer& descriptor =
        pool_->get("bk.descriptor" + std::to_string(s), descriptor_words(capacity_) * 8);
    MappedArgs mapped;
    send_records(q, "bk.records.addr", c, mapped);
    const bool variable = app_->records().variable();
    q.begin_span("addrgen");
    mapped.data = &stand_in(0);
    mapped.list = &list;
    mapped.counts = &counts;
    mapped.capacity = capacity_;
    mapped.list_threads = r;
    app_->enqueue_addrgen(q, mapped, c);
    if (patterns_) {
      const auto shape = backend::LaunchShape::cover(c.count, kGroupSize);
      q.fill_zero(descriptor, 0, 24);
      if (variable) {
        q.launch(longest_kernel_, shape, counts, r, descriptor);
        q.launch(pattern_kernel_, shape, list, counts, *mapped.records, mapped.record_words, r,
                 capacity_, descriptor);
      } else {
        q.launch(pattern_kernel_, shape, list, counts, r, r, capacity_, descriptor);
      }
    }
    q.end_span();
    q.begin_span("addr_copy");
    backend::Event done;
    if (patterns_) {
      if (variable) {  // the record pattern needs each thread's count
        q.read_async(host_[s].counts.host_buffer(), 0, counts, 0, std::uint64_t{r} * 4);
        run_.address_bytes += std::uint64_t{r} * 4;
      }
      done = q.read_async(host_[s].descriptor.host_buffer(), 0, descriptor, 0,
                          descriptor_words(capacity_) * 8);
      run_.address_bytes += descriptor_words(capacity_) * 8;
    } else {
      done = read_raw(k, true);
    }
    q.end_span();
    return done;
  }

  // S-L1's statistics (sl1::stat_counters: hit rates, lines cached) of the
  // last round on each slot, read after the run, untimed: each round's
  // launch overwrites its slot's.
  void add_sl1_counters(Measurement& m) {
    std::vector<std::uint32_t> stats;
    for (std::uint32_t s = 0; s < kSlots && s < chunks_.size(); ++s) {
      const std::size_t last = chunks_.size() - 1 - (chunks_.size() - 1 + kSlots - s) % kSlots;
      const std::uint64_t words = launch_threads(chunks_[last].count) * sl1::kStatFields;
      const std::size_t at = stats.size();
      stats.resize(at + words);
      lanes_[s]->read(stats.data() + at, pool_->get("bk.sl1_stats" + std::to_string(s), words * 4),
                      0, words * 4);
      lanes_[s]->finish();
    }
    for (const auto& [name, value] : sl1::stat_counters(stats, {"values"}))
      m.counters[name] = value;
  }

  // ADDRGEN's stand-in value for mapped reads (8 B): 0, or 1 for the probe.
  backend::Buffer& stand_in(std::uint32_t value) {
    return pool_->get("bk.stand_in" + std::to_string(value), 8);
  }

  // Untimed, before the first run: round 0's address generation with mapped
  // reads returning 0 and again returning 1 must make the same reads (in
  // host slots 0 and 1); a difference is a kernel whose addresses or control
  // flow depend on mapped data, which address generation cannot derive.
  void check_derivable() {
    if (chunks_.empty()) return;
    const Chunk& c = chunks_[0];
    const auto r = static_cast<std::uint32_t>(c.count);
    backend::Queue& q = *address_queue_;
    blocks::PinnedArray<std::uint64_t> values(*device_);
    values.resize(2);
    values.data()[0] = 0;
    values.data()[1] = 1;
    app_->begin_run(chunks_, per_round_);
    app_->begin_pass(0);
    for (std::uint32_t s = 0; s < kSlots; ++s) {
      q.write_async(stand_in(s), 0, values.host_buffer(), s * 8, 8);
      backend::Buffer& list = pool_->get("bk.list" + std::to_string(s), per_round_ * capacity_ * 8);
      backend::Buffer& counts = pool_->get("bk.counts" + std::to_string(s), per_round_ * 4);
      MappedArgs mapped;
      send_records(q, "bk.records.addr", c, mapped);
      mapped.data = &stand_in(s);
      mapped.list = &list;
      mapped.counts = &counts;
      mapped.capacity = capacity_;
      mapped.list_threads = r;
      app_->enqueue_addrgen(q, mapped, c);
      q.read_async(host_[s].counts.host_buffer(), 0, counts, 0, std::uint64_t{r} * 4);
      q.read_async(host_[s].list.host_buffer(), 0, list, 0, std::uint64_t{r} * capacity_ * 8);
    }
    q.finish();
    q.take_spans();  // the record table's copies: not a run's
    const std::string difference =
        first_address_difference(host_[0].list.data(), host_[0].counts.data(), host_[1].list.data(),
                                 host_[1].counts.data(), r, capacity_, c.first);
    if (!difference.empty()) {
      throw RunError(fmt::format(
          "bigkernel/{}: {}'s address generation cannot be derived: {}; a mapped read's address "
          "and the control flow around it must not depend on mapped data",
          opt_.variant, ctx_.app, difference));
    }
  }

  // The raw address list (and the counts) of round k, copied back on the
  // address queue.
  backend::Event read_raw(std::size_t k, bool with_counts) {
    const std::uint32_t s = k % kSlots;
    const std::uint64_t r = chunks_[k].count;
    backend::Queue& q = *address_queue_;
    if (with_counts) {
      q.read_async(host_[s].counts.host_buffer(), 0,
                   pool_->get("bk.counts" + std::to_string(s), per_round_ * 4), 0, r * 4);
      run_.address_bytes += r * 4;
    }
    run_.address_bytes += r * capacity_ * 8;
    return q.read_async(host_[s].list.host_buffer(), 0,
                        pool_->get("bk.list" + std::to_string(s), per_round_ * capacity_ * 8), 0,
                        r * capacity_ * 8);
  }

  // Stages 2-4 for round k (its addresses are back, its prefetch buffer free).
  backend::Event assemble_and_send(std::size_t k) {
    const std::uint32_t s = k % kSlots;
    const Chunk& c = chunks_[k];
    const RecordTable& recs = app_->records();
    const auto r = static_cast<std::uint32_t>(c.count);
    std::uint8_t* values = host_[s].values.data();
    Stopwatch assembly;
    std::uint64_t bytes = 0;
    ValueLayout layout;
    if (opt_.reduce_volume) {
      RoundAddresses round;
      if (patterns_) {
        round.pattern = read_descriptor(host_[s].descriptor.data(), capacity_);
        // The fallback: raw addresses (a record pattern's counts are here).
        if (!round.pattern.holds) read_raw(k, !recs.variable()).wait();
      }
      round.list = host_[s].list.data();
      round.counts = host_[s].counts.data();
      round.threads = r;
      if (recs.variable()) {
        round.bases = recs.entries() + c.first * recs.words();
        round.base_stride = recs.words();
      }
      ++(round.pattern.holds ? run_.pattern_rounds : run_.raw_rounds);
      check_read_counts(opt_.variant, round, c.first, capacity_);
      layout = value_layout(opt_.layout, r, round_widths(round));
      if (layout.bytes > host_[s].values.size()) {
        throw RunError(fmt::format(
            "bigkernel/{}: a round's values take {} B, more than the {} B a thread the app "
            "declared ({} threads)",
            opt_.variant, layout.bytes, value_bytes_, r));
      }
      bytes = layout.bytes;
      assemble_in_parallel(c.count, bytes, [&](std::uint64_t b, std::uint64_t e) {
        assemble_round(ctx_.input, ctx_.input_size, round, layout, static_cast<std::uint32_t>(b),
                       static_cast<std::uint32_t>(e), values);
      });
    } else {
      bytes = recs.bytes(c.first, c.count);
      const std::uint64_t base = recs.begin(c.first);
      assemble_in_parallel(c.count, bytes, [&](std::uint64_t b, std::uint64_t e) {
        const std::uint64_t from = recs.begin(c.first + b);
        std::memcpy(values + (from - base), ctx_.input + from, recs.begin(c.first + e) - from);
      });
    }
    run_.assembly_ms += assembly.elapsed_ms();
    run_.value_bytes += bytes;

    backend::Queue& q = *lanes_[s];
    backend::Buffer& device_values =
        pool_->get("bk.values" + std::to_string(s), host_[s].values.size());
    MappedArgs mapped;
    send_records(q, "bk.records.lane" + std::to_string(s), c, mapped);
    q.begin_span("copy_in");
    backend::Event sent =
        bytes ? q.write_async(device_values, 0, host_[s].values.host_buffer(), 0, bytes)
              : backend::Event();
    q.end_span();
    q.begin_span("compute");
    mapped.data = &device_values;
    mapped.capacity = opt_.layout == Layout::coalesced ? r : layout.thread_bytes;
    mapped.layout = static_cast<std::uint32_t>(opt_.layout);
    mapped.data_base = recs.begin(c.first);
    if (opt_.sl1) {
      mapped.sl1_stats = &pool_->get("bk.sl1_stats" + std::to_string(s),
                                     launch_threads(per_round_) * kSl1StatBytes);
      mapped.sl1_lines = kSl1Lines;
      mapped.sl1_monitor = kSl1Monitor;
      mapped.sl1_local_bytes = std::size_t{kSl1Lines} * kGroupSize * kSl1LineBytes;
    }
    app_->enqueue(q, opt_.reduce_volume ? Mode::compute : Mode::plain, mapped, s, k, c);
    q.end_span();
    return sent;
  }

  // S-L1 loads whole lines: the values buffer holds a line past the last value.
  std::uint64_t sl1_pad() const { return opt_.sl1 ? kSl1LineBytes : 0; }

  PipelineOptions opt_;
  bool patterns_ = false;
  unsigned workers_ = 1;
  backend::Device* device_ = nullptr;
  std::unique_ptr<blocks::BufferPool> pool_;
  std::unique_ptr<AppKernel> app_;
  std::unique_ptr<backend::Queue> address_queue_;
  std::array<std::unique_ptr<backend::Queue>, kSlots> lanes_;
  std::shared_ptr<backend::Program> pattern_program_;
  backend::Kernel pattern_kernel_, longest_kernel_;
  std::vector<HostSlot> host_;  // one per slot
  std::uint64_t records_ = 0, per_round_ = 0;
  std::uint32_t capacity_ = 0, value_bytes_ = 0;
  std::vector<Chunk> chunks_;
  RunTally run_;
};

}  // namespace

std::unique_ptr<PointRunner> make_pipeline_point(const PointContext& ctx,
                                                 const PipelineOptions& options) {
  return std::make_unique<PipelinePoint>(ctx, options, nullptr);
}

std::unique_ptr<PointRunner> make_pipeline_point(const PointContext& ctx,
                                                 const PipelineOptions& options,
                                                 std::unique_ptr<AppKernel> app) {
  return std::make_unique<PipelinePoint>(ctx, options, std::move(app));
}

}  // namespace harness::bigkernel
