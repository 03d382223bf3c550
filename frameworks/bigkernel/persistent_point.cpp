// bigkernel/persistent: BigKernel's pipeline as the thesis runs it, one
// persistent kernel a pass with address and compute warps in every block
// (persistent.h has one block's life), fed by host threads that poll the
// blocks' flags, assemble each round's values and send them on streams of
// their own. The launch-based pipeline (pipeline_point.cpp) is the same four
// stages as separate launches; both share the assembly (assembly.h) and the
// app's host side (AppKernel).
//
// Sizing: P blocks, every one resident at once (the occupancy query: a block
// that is not resident would never raise its flags, and the host thread
// serving it would wait forever), each with two value slots, an address list,
// counts and a descriptor in device memory, and R records a round: the most
// that fit the GPU memory budget (whole virtual work-groups of 256, or a
// multiple of 8 below one: wc's address lists take 8 B a byte of a piece), at
// most what gives every block a round.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "frameworks/bigkernel/app_kernel.h"
#include "frameworks/bigkernel/assembly.h"
#include "frameworks/bigkernel/chunk_plan.h"
#include "frameworks/bigkernel/persistent.h"
#include "frameworks/bigkernel/points.h"
#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/workloads/workload_point.h"
#include "harness/core/errors.h"
#include "harness/core/host_cores.h"
#include "harness/core/sizes.h"
#include "harness/core/stopwatch.h"

namespace harness::bigkernel {
namespace {

constexpr std::uint64_t kAbort = ~std::uint64_t{0};  // a flag value that lets every role run out

std::uint64_t load_acquire(const std::uint64_t* flag) {
  return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}
void store_release(std::uint64_t* flag, std::uint64_t value) {
  __atomic_store_n(flag, value, __ATOMIC_RELEASE);
}

// What one host thread did in a run.
struct WorkerTally {
  double assembly_ms = 0;
  std::uint64_t rounds = 0, pattern_rounds = 0, raw_rounds = 0, value_bytes = 0, address_bytes = 0;
};

class PersistentPoint final : public workloads::WorkloadPoint {
 public:
  explicit PersistentPoint(const PointContext& ctx) : WorkloadPoint(ctx) {
    if (!ctx.device) throw UsageError("bigkernel/persistent needs a GPU backend device");
    device_ = ctx.device;
    pool_ = std::make_unique<blocks::BufferPool>(*device_);
    app_ = make_app_kernel(ctx.app);
    patterns_ = param_bool(ctx.params, "patterns");
    const std::uint32_t asked = param_u32(ctx.params, "assembly_threads");
    workers_ = asked ? asked : harness::usable_cores();
  }

 protected:
  void prepare_run() override {
    app_->bind(*device_, ctx_.params, ctx_.input, ctx_.input_size);
    if (app_->passes() != 1) {  // persistent_app_names() has none
      throw RunError("bigkernel/persistent runs apps of one pass, not " + ctx_.app);
    }
    records_ = app_->records().count();
    capacity_ = app_->max_reads();
    value_bytes_ = app_->max_value_bytes();
    descriptor_words_ = static_cast<std::uint32_t>(descriptor_words(capacity_));
    // (the compute build's program too: an app's prepare may take a kernel of
    // its file from it, as the chunk tables' compaction)
    app_->prepare(*device_, *pool_, ctx_.params, ctx_.input, ctx_.input_size, {Mode::compute});
    device_->make_current();
    plan();
    allocate();
  }

  Measurement run_once() override {
    last_.reset();
    aborted_ = false;
    std::memset(flags_.data(), 0, flags_.size());
    launch_queue_->fill_zero(data_ready_, 0, data_ready_.size());
    launch_queue_->fill_zero(role_ns_, 0, role_ns_.size());
    launch_queue_->finish();
    Measurement m;
    Stopwatch clock;
    app_->begin_run(chunks(records_, per_round_), per_round_);
    app_->begin_pass(0);
    PersistentAppArgs args;
    std::int64_t* writes = nullptr;
    if (!app_->persistent_args({launch_.blocks, per_round_}, args, writes)) {
      throw RunError("bigkernel/persistent: " + ctx_.app + " gives no persistent kernel arguments");
    }
    launch_.writes = writes;
    Stopwatch pipeline;
    persistent_launch(ctx_.app, launch_, args, launch_queue_->native_handle());
    std::vector<WorkerTally> tallies(queues_.size());
    std::vector<std::thread> threads;
    std::exception_ptr failure;
    std::mutex failure_mutex;
    for (std::size_t w = 0; w < queues_.size(); ++w) {
      threads.emplace_back([&, w] {
        try {
          serve_blocks(static_cast<std::uint32_t>(w), tallies[w]);
        } catch (...) {
          std::lock_guard<std::mutex> lock(failure_mutex);
          if (!failure) failure = std::current_exception();
          abort_device();
        }
      });
    }
    for (std::thread& t : threads) t.join();
    if (failure) release_compute_warps();
    for (auto& q : queues_) q->finish();
    persistent_finish(launch_queue_->native_handle(), ctx_.app + "'s persistent kernel");
    if (failure) std::rethrow_exception(failure);
    const double pipeline_ms = pipeline.elapsed_ms();
    app_->end_pass(0);
    Stopwatch merge;
    last_ = app_->finish_run();
    const double merge_ms = merge.elapsed_ms();
    m.total_ms = clock.elapsed_ms();
    WorkerTally all;
    double busiest_ms = 0;
    for (const WorkerTally& t : tallies) {
      busiest_ms = std::max(busiest_ms, t.assembly_ms);
      all.rounds += t.rounds;
      all.pattern_rounds += t.pattern_rounds;
      all.raw_rounds += t.raw_rounds;
      all.value_bytes += t.value_bytes;
      all.address_bytes += t.address_bytes;
    }
    value_bytes_sent_ = all.value_bytes;
    m.phases = {{"pipeline", pipeline_ms}, {"merge", merge_ms}};
    m.counters["assembly_busiest_ms"] = busiest_ms;
    add_role_counters(m);
    m.counters["blocks"] = launch_.blocks;
    m.counters["rounds"] = static_cast<double>(all.rounds);
    m.counters["records_per_round"] = static_cast<double>(per_round_);
    m.counters["pattern_rounds"] = static_cast<double>(all.pattern_rounds);
    m.counters["raw_rounds"] = static_cast<double>(all.raw_rounds);
    m.counters["value_bytes"] = static_cast<double>(all.value_bytes);
    m.counters["address_bytes"] = static_cast<double>(all.address_bytes);
    m.counters["assembly_threads"] = static_cast<double>(queues_.size());
    m.counters["volume_fraction"] = ctx_.input_size ? static_cast<double>(all.value_bytes) /
                                                          static_cast<double>(ctx_.input_size)
                                                    : 0.0;
    return m;
  }

  Work work() const override {
    Work w = input_work();
    w.items("records", records_).reads(level::h2d, value_bytes_sent_, "pipeline", "h2d_pinned");
    return w;
  }

 private:
  // P and R from the occupancy and the budget.
  void plan() {
    const std::uint32_t per_sm = persistent_blocks_per_sm(ctx_.app);
    if (per_sm == 0) {
      throw RunError("bigkernel/persistent: " + ctx_.app +
                     "'s persistent kernel fits no block on an SM");
    }
    const std::uint32_t asked = param_u32(ctx_.params, "blocks_per_sm");
    if (asked > per_sm) {
      throw RunError(fmt::format(
          "bigkernel/persistent: blocks_per_sm={} but an SM holds {} of {}'s persistent blocks at "
          "once (every block must be resident)",
          asked, per_sm, ctx_.app));
    }
    const std::uint32_t resident = (asked ? asked : per_sm) * persistent_sm_count();
    const std::uint64_t per_record =
        kPersistentSlots * std::uint64_t{value_bytes_} + std::uint64_t{capacity_} * 8 + 4;
    const std::uint64_t per_block_fixed =
        kPersistentSlots * 8 * std::uint64_t{capacity_} + descriptor_words_ * 8 + 64;
    const std::uint64_t available = device_->memory_available();
    const std::uint64_t threads = kPersistentRoleThreads;
    // At most what gives every block a round (whole virtual work-groups), and
    // what fits: whole work-groups, or a multiple of 8 records below one (a
    // coalesced segment of R values of one width then needs no padding).
    const std::uint32_t blocks = resident;
    std::uint64_t round = (records_ + blocks - 1) / std::max<std::uint32_t>(blocks, 1);
    round = std::max<std::uint64_t>((round + threads - 1) / threads * threads, threads);
    // A block's device bytes for rounds of r records: the slots and lists,
    // and the app's own buffers for r records (side_bytes: a lane's in the
    // launch-based pipeline, at least what a block takes here: a chunk table).
    const auto block_bytes = [&](std::uint64_t r) {
      return per_block_fixed + r * per_record + app_->side_bytes(r);
    };
    // (a tenth of the budget spare: the pool's slack, the tables' powers of two)
    const std::uint64_t fit_records = whole_groups_or_eights(
        records_per_chunk(round, blocks, available / 10 * 9, block_bytes, round), threads);
    if (fit_records == 0) {
      const std::uint64_t budget = device_->memory_budget();
      throw RunError(fmt::format(
          "bigkernel/persistent: the GPU memory budget {} ({} B available) is too small: one "
          "round needs {} B ({} resident blocks x {} B for one record: its two value slots, "
          "address list and counts, and the app's {}), with a tenth spare",
          budget ? format_size(budget) : "(none)", available, blocks * block_bytes(1) / 9 * 10,
          blocks, block_bytes(1), app_->side_text()));
    }
    per_round_ = std::min(round, fit_records);
    launch_.blocks = blocks;
    launch_.records = records_;
    launch_.round_records = static_cast<std::uint32_t>(per_round_);
    launch_.groups_per_round = static_cast<std::uint32_t>((per_round_ + threads - 1) / threads);
    launch_.rounds = (records_ + per_round_ - 1) / per_round_;
    launch_.capacity = capacity_;
    launch_.layout = static_cast<std::uint32_t>(Layout::coalesced);
    launch_.patterns = patterns_ ? 1u : 0u;
    launch_.record_bytes = static_cast<std::uint32_t>(app_->record_bytes());
    launch_.descriptor_words = descriptor_words_;
    launch_.value_slot_bytes =
        (per_round_ * value_bytes_ + 8 * std::uint64_t{capacity_} + 7) / 8 * 8;
  }

  void allocate() {
    const std::uint64_t p = launch_.blocks, s = kPersistentSlots, r = per_round_;
    values_ = device_->allocate(p * s * launch_.value_slot_bytes);
    list_ = device_->allocate(std::max<std::uint64_t>(p * r * capacity_ * 8, 8));
    counts_ = device_->allocate(p * r * 4);
    descriptor_ = device_->allocate(p * descriptor_words_ * 8);
    data_ready_ = device_->allocate(p * s * 8);
    role_ns_ = device_->allocate(p * 4 * 8);
    stand_in_ = device_->allocate(8);
    launch_queue_ = device_->create_queue();
    launch_queue_->fill_zero(stand_in_, 0, 8);
    launch_queue_->finish();
    host_list_ = mapped(p * s * r * capacity_ * 8);
    host_counts_ = mapped(p * s * r * 4);
    host_descriptor_ = mapped(p * s * descriptor_words_ * 8);
    flags_ = mapped(3 * p * kPersistentFlagStride * 8);
    staging_ =
        device_->allocate_host(p * s * launch_.value_slot_bytes, backend::HostMemory::pinned);
    sequence_ = device_->allocate_host(p * s * 8, backend::HostMemory::pinned);
    launch_.values = static_cast<std::uint8_t*>(values_.handle());
    launch_.list = static_cast<std::uint64_t*>(list_.handle());
    launch_.counts = static_cast<std::uint32_t*>(counts_.handle());
    launch_.descriptor = static_cast<std::uint64_t*>(descriptor_.handle());
    launch_.data_ready = static_cast<std::uint64_t*>(data_ready_.handle());
    launch_.role_ns = static_cast<std::uint64_t*>(role_ns_.handle());
    launch_.stand_in = static_cast<const std::uint8_t*>(stand_in_.handle());
    RecordTable& recs = app_->records();
    if (recs.variable()) {
      launch_.records_table =
          static_cast<const std::uint64_t*>(persistent_device_pointer(recs.host_buffer().data()));
      launch_.record_words = recs.words();
    }
    launch_.host_list = static_cast<std::uint64_t*>(host_list_.device_view().handle());
    launch_.host_counts = static_cast<std::uint32_t*>(host_counts_.device_view().handle());
    launch_.host_descriptor = static_cast<std::uint64_t*>(host_descriptor_.device_view().handle());
    auto* flags = static_cast<std::uint64_t*>(flags_.device_view().handle());
    launch_.addr_ready = flags;
    launch_.addr_free = flags + p * kPersistentFlagStride;
    launch_.compute_done = flags + 2 * p * kPersistentFlagStride;
    const unsigned workers = std::max(1u, std::min<unsigned>(workers_, launch_.blocks));
    queues_.clear();
    for (unsigned w = 0; w < workers; ++w) queues_.push_back(device_->create_queue());
  }

  backend::HostBuffer mapped(std::uint64_t bytes) {
    return device_->allocate_host(std::max<std::uint64_t>(bytes, 8), backend::HostMemory::mapped);
  }

  // The host's flags, by kind, for block b.
  std::uint64_t* host_flag(std::uint32_t kind, std::uint32_t b) {
    return static_cast<std::uint64_t*>(flags_.data()) +
           (std::uint64_t{kind} * launch_.blocks + b) * kPersistentFlagStride;
  }

  // Host thread w serves blocks w, w + W, ...: whichever of them has a round
  // whose addresses are out and whose value slot is free.
  void serve_blocks(std::uint32_t w, WorkerTally& tally) {
    device_->make_current();
    void* stream = queues_[w]->native_handle();
    const auto stride = static_cast<std::uint32_t>(queues_.size());
    std::vector<std::uint32_t> blocks;
    std::vector<std::uint64_t> next;
    for (std::uint32_t b = w; b < launch_.blocks; b += stride) {
      if (b < launch_.rounds) {
        blocks.push_back(b);
        next.push_back(0);
      }
    }
    std::size_t left = blocks.size();
    std::uint64_t idle = 0;
    while (left > 0 && !aborted_) {
      bool served = false;
      for (std::size_t i = 0; i < blocks.size(); ++i) {
        const std::uint32_t b = blocks[i];
        const std::uint64_t k = next[i];
        if (b + k * launch_.blocks >= launch_.rounds) continue;
        if (load_acquire(host_flag(0, b)) < k + 1) continue;
        if (k >= kPersistentSlots && load_acquire(host_flag(2, b)) < k - kPersistentSlots + 1) {
          continue;
        }
        serve_round(b, k, stream, tally);
        served = true;
        if (b + ++next[i] * launch_.blocks >= launch_.rounds) --left;
      }
      if (served) {
        idle = 0;
      } else if (++idle > 64) {
        std::this_thread::yield();
      }
    }
  }

  // Round k of block b: its values gathered by its pattern or raw list, the
  // address slot handed back, the values and then the round's number sent.
  void serve_round(std::uint32_t b, std::uint64_t k, void* stream, WorkerTally& tally) {
    const std::uint64_t slot = std::uint64_t{b} * kPersistentSlots + k % kPersistentSlots;
    const std::uint64_t first = (b + k * launch_.blocks) * per_round_;
    const auto r = static_cast<std::uint32_t>(std::min(per_round_, records_ - first));
    const auto* desc =
        static_cast<const std::uint64_t*>(host_descriptor_.data()) + slot * descriptor_words_;
    const auto* list =
        static_cast<const std::uint64_t*>(host_list_.data()) + slot * per_round_ * capacity_;
    const auto* counts = static_cast<const std::uint32_t*>(host_counts_.data()) + slot * per_round_;
    Stopwatch assembly;
    const RecordTable& recs = app_->records();
    RoundAddresses round;
    if (patterns_) round.pattern = read_descriptor(desc, capacity_);
    round.list = list;
    round.counts = counts;
    round.threads = r;
    if (recs.variable()) {
      round.bases = recs.entries() + first * recs.words();
      round.base_stride = recs.words();
    }
    check_read_counts("persistent", round, first, capacity_);
    if (round.pattern.holds) {
      ++tally.pattern_rounds;
      tally.address_bytes += descriptor_words_ * 8 + (round.bases ? std::uint64_t{r} * 4 : 0);
    } else {
      ++tally.raw_rounds;
      tally.address_bytes += std::uint64_t{r} * capacity_ * 8 + std::uint64_t{r} * 4;
    }
    const ValueLayout layout = value_layout(Layout::coalesced, r, round_widths(round));
    if (layout.bytes > launch_.value_slot_bytes) {
      throw RunError(fmt::format(
          "bigkernel/persistent: a round's values take {} B, more than the {} B a slot holds",
          layout.bytes, launch_.value_slot_bytes));
    }
    std::uint8_t* values =
        static_cast<std::uint8_t*>(staging_.data()) + slot * launch_.value_slot_bytes;
    assemble_round(ctx_.input, ctx_.input_size, round, layout, 0, r, values);
    tally.assembly_ms += assembly.elapsed_ms();
    tally.value_bytes += layout.bytes;
    ++tally.rounds;
    store_release(host_flag(1, b), k + 1);  // the address slot is free again
    auto* number = static_cast<std::uint64_t*>(sequence_.data()) + slot;
    *number = k + 1;
    if (layout.bytes) {
      persistent_send(launch_.values + slot * launch_.value_slot_bytes, values, layout.bytes,
                      stream);
    }
    persistent_send(launch_.data_ready + slot, number, 8, stream);
  }

  // Untimed, after a run: each role's time working and waiting, the mean over
  // the blocks that had rounds (what bounds the pass: the host, when the
  // compute warps mostly wait for values and the address warps for the host;
  // the device, when they mostly work).
  void add_role_counters(Measurement& m) {
    const auto blocks =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(launch_.blocks, launch_.rounds));
    std::vector<std::uint64_t> ns(std::uint64_t{launch_.blocks} * 4);
    launch_queue_->read(ns.data(), role_ns_, 0, ns.size() * 8);
    const char* names[4] = {"address_busy_ms", "address_wait_ms", "compute_busy_ms",
                            "compute_wait_ms"};
    for (std::uint32_t i = 0; i < 4; ++i) {
      double sum = 0;
      for (std::uint32_t b = 0; b < blocks; ++b) sum += static_cast<double>(ns[4 * b + i]);
      m.counters[names[i]] = blocks ? sum / blocks / 1e6 : 0.0;
    }
  }

  // After a host thread failed: the other host threads stop, and the address
  // warps may take every slot (addr_free at its largest); the compute warps'
  // flags follow in release_compute_warps.
  void abort_device() {
    aborted_ = true;
    for (std::uint32_t b = 0; b < launch_.blocks; ++b) store_release(host_flag(1, b), kAbort);
  }

  // Once every host thread stopped and its copies landed (a round number
  // copied later would undo it): every value slot's number at its largest,
  // so that the compute warps run out their rounds on whatever values are
  // there and the kernel ends. On a queue of its own: the launch's queue
  // waits for the kernel.
  void release_compute_warps() {
    std::vector<std::uint64_t> all(std::uint64_t{launch_.blocks} * kPersistentSlots, kAbort);
    try {
      for (auto& q : queues_) q->finish();
      auto q = device_->create_queue();
      q->write(data_ready_, 0, all.data(), all.size() * 8);
      q->finish();
    } catch (...) {  // the first failure is the one reported
    }
  }

  std::atomic<bool> aborted_{false};
  bool patterns_ = true;
  unsigned workers_ = 1;
  backend::Device* device_ = nullptr;
  std::unique_ptr<blocks::BufferPool> pool_;
  std::unique_ptr<AppKernel> app_;
  std::uint64_t records_ = 0, per_round_ = 0, value_bytes_sent_ = 0;
  std::uint32_t capacity_ = 0, value_bytes_ = 0, descriptor_words_ = 0;
  PersistentLaunch launch_;
  backend::Buffer values_, list_, counts_, descriptor_, data_ready_, stand_in_, role_ns_;
  backend::HostBuffer host_list_, host_counts_, host_descriptor_, flags_, staging_, sequence_;
  std::unique_ptr<backend::Queue> launch_queue_;
  std::vector<std::unique_ptr<backend::Queue>> queues_;
};

}  // namespace

std::vector<std::string> persistent_app_names() {
  return {"kmeans-particles", "netflix", "opinion-finder", "dna-assembly", "wc"};
}

std::unique_ptr<PointRunner> make_persistent_point(const PointContext& ctx) {
  return std::make_unique<PersistentPoint>(ctx);
}

}  // namespace harness::bigkernel
