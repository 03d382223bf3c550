// A point of hashtable/mapcg: MapCG's grouping on the hash table family's apps
// (thesis table 6.2's baseline). The app's whole input is resident on the
// device (DeviceInput, as the SePo point's); one work-item per record takes
// its pair from the app's ht_app_pair (the SePo kernels' code), finds or
// creates its key's entry in the global hash table
// (frameworks/blocks/global_hash_table.h) and pushes the value as a node of
// the key's list. A table out of room grows to what its counters asked for
// and the insert runs again (counter `retries`); a table that does not fit
// the GPU memory (or the run's budget) is a RunError: MapCG cannot exceed GPU
// memory. Combining apps reduce each entry's list on the GPU with the app's
// HT_COMBINE. The table is read back and laid out on the host as SePo-format
// entries (one chain per table entry, hashtable.h's entry layouts) in a host
// arena, and the app's own collect() builds the Output from them, as it does
// from the SePo table (kernels/mapcg.clh, README.md "MapCG").
#include "frameworks/hashtable/mapcg_point.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/cuda_programs.h"
#include "frameworks/blocks/global_hash_table.h"
#include "frameworks/hashtable/point_input.h"
#include "frameworks/hashtable/sepo_app.h"
#include "frameworks/workloads/workload_point.h"
#include "harness/core/errors.h"
#include "harness/core/parallel.h"
#include "harness/core/sizes.h"
#include "harness/core/stopwatch.h"
#include "harness/dialect/dialect.h"
// The table's layout, shared with the kernels.
#include "frameworks/blocks/kernels/global_hash_table_types.clh"

namespace harness::hashtable {
namespace {

constexpr std::uint32_t kGroupSize = 256;
constexpr const char* kVariant = "mapcg";

static_assert(sizeof(GhtEntry) == 16, "the table's entries as the kernels lay them out");

std::uint32_t align8(std::uint32_t b) { return (b + 7) & ~7u; }
std::uint32_t words_of(std::uint32_t bytes) { return (bytes + 3) / 4; }

class MapcgPoint final : public workloads::WorkloadPoint {
 public:
  explicit MapcgPoint(const PointContext& ctx)
      : WorkloadPoint(ctx),
        app_(app_for(ctx.app)),
        device_(point_device(ctx, kVariant)),
        org_(mapcg_organization(ctx.app)),
        pool_(device_),
        table_(pool_, "mapcg") {}

 protected:
  void prepare_run() override {
    const RecordShape shape = checked_shape(app_, ctx_, kVariant);
    records_ = shape.records;
    max_key_bytes_ = shape.max_key_bytes;
    value_bytes_ = shape.value_bytes;
    value_words_ = words_of(shape.value_bytes);
    input_bytes_ = DeviceInput::bytes(app_, ctx_.input_size, records_);
    try {
      input_.allocate(device_, app_, ctx_.input_size, records_);
    } catch (const DeviceOutOfMemory&) {
      throw RunError(fmt::format(
          "hashtable/mapcg: MapCG cannot exceed GPU memory: the input ({} B with its index) "
          "alone does not fit the GPU memory budget {} ({} B available)",
          input_bytes_, budget_text(), device_.memory_available()));
    }
    // The first table: every pair may have a key of its own (param
    // `entries`: fewer, so the table may grow), with every key's bytes, and
    // one value node per pair (exact: a record makes one pair, a multi-pair
    // app's records the pairs its shape() counted).
    pairs_ = shape.pairs();
    std::uint64_t key_total =
        shape.key_bytes_total ? shape.key_bytes_total : pairs_ * shape.max_key_bytes;
    std::uint64_t keys = pairs_;
    if (shape.distinct_keys) {
      // Twice the distinct keys (and their bytes), at most one a pair: an
      // insert that loses the race for a new key's slot has made an entry
      // and key bytes too (with exactly the distinct keys, PoCL retried 2
      // runs in 12 at 1 MiB of text-zipf).
      keys = std::min(pairs_, 2 * shape.distinct_keys + 1024);
      key_total = std::min(
          key_total, 2 * shape.distinct_key_bytes + std::uint64_t{1024} * shape.max_key_bytes);
    }
    const std::uint32_t entries = param_u32(ctx_.params, "entries");
    blocks::HashTableCapacity c;
    c.slots = param_u32(ctx_.params, "slots");
    c.entries = entries ? entries : static_cast<std::uint32_t>(std::max<std::uint64_t>(keys, 1));
    std::uint64_t key_bytes = key_total;
    if (entries) key_bytes = std::min(key_bytes, std::uint64_t{entries} * shape.max_key_bytes);
    c.key_bytes = static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>(key_bytes, 64, std::uint64_t{0xFFFF'FFFE}));
    if (pairs_ >= 0xFFFF'FFFFull)
      throw RunError(
          fmt::format("hashtable/mapcg: {} pairs, more than the table's u32 nodes", pairs_));
    c.nodes = static_cast<std::uint32_t>(std::max<std::uint64_t>(pairs_, 1));
    capacity_ = c;
    reset_table();  // allocates it (untimed): the budget is checked here
    backend::ProgramSource src =
        program_source(fmt::format("hashtable/{}/mapcg", app_.name()),
                       {app_.kernel_file(), "frameworks/hashtable/kernels/mapcg.clh"});
    program_ = device_.build(src);
    insert_ = program_->kernel("mapcg_insert");
    reduce_ = program_->kernel("mapcg_reduce");
  }

  Measurement run_once() override {
    last_.reset();
    Measurement m;
    Stopwatch clock;
    backend::Queue& q = device_.queue();
    q.take_spans();
    const double index_ms = input_.upload(q, app_, ctx_.input, ctx_.input_size);
    const auto records = static_cast<std::uint32_t>(records_);
    std::uint32_t retries = 0;
    blocks::HashTableUsage used;
    // MapCG's insert; a table out of room grows and the insert runs again.
    for (;;) {
      q.begin_span("reset");
      reset_table();
      q.end_span();
      const blocks::HashTableCapacity& c = table_.capacity();
      q.begin_span("insert");
      if (records)
        q.launch(insert_, backend::LaunchShape::cover(records, kGroupSize), input_.data(),
                 input_.index(), records, table_.slots(), table_.slot_mask(), table_.entries(),
                 c.entries, table_.keys(), c.key_bytes, table_.node_next(), table_.node_entry(),
                 c.nodes, table_.counters(), *vals_, value_words_);
      q.end_span();
      used = table_.usage();
      if (table_.fits(used)) break;
      capacity_ = table_.grown_or_throw(used, "hashtable/mapcg");
      ++retries;
    }
    const bool combining = org_ == Organization::combining;
    // Combining apps: MapCG's reduce, an entry's values combined on the GPU.
    q.begin_span("reduce");
    if (combining && used.entries)
      q.launch(reduce_, backend::LaunchShape::cover(used.entries, kGroupSize), table_.entries(),
               used.entries, table_.node_next(), *vals_, value_words_, *reduced_);
    q.end_span();
    // The table read back: its entries and key bytes, and the reduced values
    // (combining) or every value node with its link (the lists).
    entries_host_.resize(used.entries);
    keys_host_.resize(used.key_bytes);
    q.begin_span("copy_out");
    if (used.entries)
      q.read(entries_host_.data(), table_.entries(), 0, std::size_t{used.entries} * 16);
    if (used.key_bytes) q.read(keys_host_.data(), table_.keys(), 0, used.key_bytes);
    if (combining) {
      values_host_.resize(std::size_t{used.entries} * value_words_);
      if (!values_host_.empty()) q.read(values_host_.data(), *reduced_, 0, values_host_.size() * 4);
    } else {
      next_host_.resize(used.nodes);
      values_host_.resize(std::size_t{used.nodes} * value_words_);
      if (used.nodes) {
        q.read(next_host_.data(), table_.node_next(), 0, std::size_t{used.nodes} * 4);
        q.read(values_host_.data(), *vals_, 0, values_host_.size() * 4);
      }
    }
    q.end_span();
    q.finish();
    const std::vector<backend::TimedSpan> spans = q.take_spans();
    // SePo-format entries and chains, so the app's own collect() answers. The
    // conversion is this harness' sharing of the apps' answer code, not
    // MapCG's work: it is left out of the time (counter layout_ms). The walk
    // that follows reads the laid-out copy, contiguous per key, which favours
    // MapCG over walking its scattered node lists: table 6.2's claim (SePo at
    // least as fast) is judged against the kinder baseline.
    const double before_layout_ms = clock.elapsed_ms();
    Stopwatch layout_clock;
    if (combining)
      lay_out_combined(used);
    else
      lay_out_lists(used);
    const double layout_ms = layout_clock.elapsed_ms();
    Stopwatch walk_clock;
    last_ = app_.collect(heads_, org_, entries_);
    const double walk_ms = walk_clock.elapsed_ms();
    m.total_ms = before_layout_ms + walk_ms;
    std::map<std::string, double> phase;
    for (const backend::TimedSpan& s : spans) phase[s.name] += s.milliseconds;
    m.phases = {{"index", index_ms},
                {"copy_in", phase["copy_in"]},
                {"reset", phase["reset"]},
                {"insert", phase["insert"]},
                {"reduce", phase["reduce"]},
                {"copy_out", phase["copy_out"]},
                {"walk", walk_ms}};
    const blocks::HashTableCapacity& c = table_.capacity();
    m.counters["layout_ms"] = layout_ms;
    m.counters["retries"] = retries;
    m.counters["table_slots"] = c.slots;
    m.counters["table_entries"] = used.entries;
    m.counters["table_key_bytes"] = used.key_bytes;
    m.counters["nodes"] = used.nodes;
    m.counters["pairs"] = static_cast<double>(pairs_);
    m.counters["entries"] = static_cast<double>(entries_);
    m.counters["table_bytes"] = static_cast<double>(table_bytes(c));
    copied_out_ = std::uint64_t{used.entries} * 16 + used.key_bytes + values_host_.size() * 4 +
                  next_host_.size() * 4;
    return m;
  }

  Work work() const override {
    Work w = input_work();
    w.items("records", records_, "insert")
        .reads(level::h2d, ctx_.input_size, "copy_in")
        .reads(level::dram, ctx_.input_size, "insert")
        .writes(level::d2h, copied_out_, "copy_out", "d2h_pageable");
    return w;
  }

 private:
  std::string budget_text() const {
    const std::uint64_t budget = device_.memory_budget();
    return budget ? format_size(budget) : "(none)";
  }

  // Device bytes of the table of capacity `c` with its value nodes' words
  // and, combining, the reduced values (one per entry).
  std::uint64_t table_bytes(const blocks::HashTableCapacity& c) const {
    std::uint64_t b = blocks::GlobalHashTable::bytes(c) + std::uint64_t{c.nodes} * value_words_ * 4;
    if (org_ == Organization::combining) b += std::uint64_t{c.entries} * value_words_ * 4;
    return b;
  }

  // The table at capacity_ emptied on the device queue, (re)allocated where
  // it grew; a table the device's memory (or the budget) cannot hold beside
  // the input is MapCG's limit: a RunError.
  void reset_table() {
    try {
      table_.reset(capacity_);
      const blocks::HashTableCapacity& c = table_.capacity();
      vals_ = &pool_.get("mapcg.vals",
                         std::max<std::size_t>(std::size_t{c.nodes} * value_words_ * 4, 4));
      if (org_ == Organization::combining)
        reduced_ = &pool_.get("mapcg.reduced",
                              std::max<std::size_t>(std::size_t{c.entries} * value_words_ * 4, 4));
      else
        reduced_ = vals_;  // never written
    } catch (const DeviceOutOfMemory&) {
      const blocks::HashTableCapacity& c = table_.capacity();
      throw RunError(fmt::format(
          "hashtable/mapcg: MapCG cannot exceed GPU memory: its global hash table ({} slots, {} "
          "entries, {} key bytes, {} values of {} B: {} B) does not fit beside the {} B input in "
          "the GPU memory budget {} ({} B of device memory free)",
          c.slots, c.entries, c.key_bytes, c.nodes, value_words_ * 4, table_bytes(c), input_bytes_,
          budget_text(), device_.device_free_memory()));
    }
  }

  // Host arena of at least `bytes` (8-byte aligned, kept across runs).
  std::uint8_t* arena(std::uint64_t bytes) {
    const std::uint64_t words = (bytes + 7) / 8;
    if (arena_words_ < words) {
      arena_.reset(new std::uint64_t[words]);
      arena_words_ = words;
    }
    return reinterpret_cast<std::uint8_t*>(arena_.get());
  }

  static std::uint64_t address(const std::uint8_t* p) {
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
  }

  // The key's words at `to` (hashtable.h: tail bytes zero).
  void copy_key(std::uint8_t* to, const GhtEntry& g) const {
    std::memset(to, 0, 4 * words_of(g.key_len));
    std::memcpy(to, keys_host_.data() + g.key_off, g.key_len);
  }

  // Combining: entry e's reduced value as a combining entry {u64 cpu_next,
  // u32 gpu_next, u32 sizes, key words, value words}, one chain each.
  void lay_out_combined(const blocks::HashTableUsage& used) {
    const std::uint32_t stride = entry_bytes(Organization::combining, max_key_bytes_, value_bytes_);
    std::uint8_t* base = arena(std::uint64_t{used.entries} * stride);
    heads_.assign(used.entries, 0);
    parallel_ranges(used.entries, 0, 16384, [&](std::uint64_t lo, std::uint64_t hi) {
      for (std::uint64_t e = lo; e < hi; ++e) {
        const GhtEntry& g = entries_host_[e];
        if (g.head == GHT_NONE) continue;  // lost its slot to the same key: no values
        std::uint8_t* p = base + e * stride;
        const std::uint32_t head[4] = {0, 0, 0, g.key_len | value_bytes_ << 16};
        std::memcpy(p, head, sizeof head);
        copy_key(p + kEntryHeaderBytes, g);
        std::memcpy(p + kEntryHeaderBytes + 4 * words_of(g.key_len),
                    values_host_.data() + e * value_words_, std::size_t{value_words_} * 4);
        heads_[e] = address(p);
      }
    });
  }

  // Multi-valued: entry e as a key entry {u64 cpu_next, u32 gpu_next, u32
  // sizes, u64 cpu_values, u32 lock, u32 count, key words}, one chain each,
  // and its nodes as value entries {u64 cpu_next, value words} side by side
  // in the order of its node list (newest first): the nodes were numbered in
  // insert order across all keys, so a key's values are gathered here, as the
  // SePo table's value pages hold a bucket group's values together. Two
  // passes over the lists: their lengths (then each key's first slot), then
  // the entries.
  void lay_out_lists(const blocks::HashTableUsage& used) {
    const std::uint32_t key_stride = align8(kMvKeyHeaderBytes + 4 * words_of(max_key_bytes_));
    const std::uint32_t value_stride = align8(kMvValueHeaderBytes + 4 * value_words_);
    const std::uint64_t key_area = std::uint64_t{used.entries} * key_stride;
    std::uint8_t* base = arena(key_area + std::uint64_t{used.nodes} * value_stride);
    std::uint8_t* values = base + key_area;
    first_.resize(std::size_t{used.entries} + 1);
    parallel_ranges(used.entries, 0, 16384, [&](std::uint64_t lo, std::uint64_t hi) {
      for (std::uint64_t e = lo; e < hi; ++e) {
        std::uint64_t count = 0;
        for (std::uint32_t n = entries_host_[e].head; n != GHT_NONE; n = next_host_[n]) ++count;
        first_[e + 1] = count;
      }
    });
    first_[0] = 0;
    for (std::size_t e = 1; e < first_.size(); ++e) first_[e] += first_[e - 1];
    heads_.assign(used.entries, 0);
    parallel_ranges(used.entries, 0, 16384, [&](std::uint64_t lo, std::uint64_t hi) {
      for (std::uint64_t e = lo; e < hi; ++e) {
        const GhtEntry& g = entries_host_[e];
        if (g.head == GHT_NONE) continue;  // lost its slot to the same key: no values
        const auto count = static_cast<std::uint32_t>(first_[e + 1] - first_[e]);
        std::uint8_t* v = values + first_[e] * value_stride;
        for (std::uint32_t n = g.head, k = 0; n != GHT_NONE; n = next_host_[n], ++k) {
          std::uint8_t* at = v + std::uint64_t{k} * value_stride;
          const std::uint64_t next = k + 1 < count ? address(at + value_stride) : 0;
          std::memcpy(at, &next, 8);
          std::memcpy(at + kMvValueHeaderBytes,
                      values_host_.data() + std::uint64_t{n} * value_words_,
                      std::size_t{value_words_} * 4);
        }
        std::uint8_t* p = base + e * key_stride;
        const std::uint32_t head[4] = {0, 0, 0, g.key_len | value_bytes_ << 16};
        std::memcpy(p, head, sizeof head);
        const std::uint64_t first = address(v);
        std::memcpy(p + 16, &first, 8);
        const std::uint32_t lock_count[2] = {0, count};
        std::memcpy(p + 24, lock_count, 8);
        copy_key(p + kMvKeyHeaderBytes, g);
        heads_[e] = address(p);
      }
    });
  }

  const SepoApp& app_;
  backend::Device& device_;
  Organization org_;
  std::uint64_t records_ = 0, pairs_ = 0, input_bytes_ = 0, entries_ = 0, copied_out_ = 0;
  std::uint32_t max_key_bytes_ = 0, value_bytes_ = 0, value_words_ = 0;
  DeviceInput input_;
  blocks::BufferPool pool_;
  blocks::GlobalHashTable table_;
  blocks::HashTableCapacity capacity_;  // the largest table needed so far (kept across runs)
  backend::Buffer* vals_ = nullptr;     // node n's value words at n * value_words_
  backend::Buffer* reduced_ = nullptr;  // combining: entry e's combined value at e * value_words_
  std::shared_ptr<backend::Program> program_;
  backend::Kernel insert_, reduce_;
  // The table as read back, and its SePo-format layout on the host.
  std::vector<GhtEntry> entries_host_;
  std::vector<std::uint8_t> keys_host_;
  std::vector<std::uint32_t> next_host_, values_host_;
  std::unique_ptr<std::uint64_t[]> arena_;
  std::uint64_t arena_words_ = 0;
  std::vector<std::uint64_t> heads_;
  std::vector<std::uint64_t> first_;  // multi-valued: entry e's first value slot (prefix sums)
};

}  // namespace

Organization mapcg_organization(const std::string& app) {
  const std::vector<std::string>& combining = combining_apps();
  return std::find(combining.begin(), combining.end(), app) != combining.end()
             ? Organization::combining
             : Organization::multi_valued;
}

std::unique_ptr<PointRunner> make_mapcg_point(const PointContext& ctx) {
  return std::make_unique<MapcgPoint>(ctx);
}

}  // namespace harness::hashtable
