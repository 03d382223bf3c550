#include "frameworks/mapreduce/atomicmr/hash_runtime.h"

#include <algorithm>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/global_hash_table.h"
#include "frameworks/mapreduce/common/mapreduce_program.h"
#include "frameworks/mapreduce/mars/scoped_span.h"
#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"
#include "harness/dialect/dialect.h"
// The kernels' output layout, shared with this file.
#include "frameworks/mapreduce/atomicmr/kernels/atomicmr_types.clh"

namespace harness::atomicmr {
namespace {

using backend::Buffer;
using backend::LaunchShape;

static_assert(sizeof(AmrOutRecord) == 8, "the kernels index output records as two u32 fields");
constexpr std::uint32_t kGroup = 256;  // work-items of the one-per-pair kernel

std::uint32_t checked_u32(std::uint64_t v, const char* what) {
  if (v >= 0xffffffffULL) {
    throw RunError(std::string("atomicmr: ") + what +
                   " reach 4 GiB / 2^32 entries, the limit of its 32-bit offsets");
  }
  return static_cast<std::uint32_t>(v);
}

struct Kernels {
  backend::Kernel map, reduce, pairs_out;
  static Kernels look_up(backend::Program& p) {
    return {p.kernel("atomicmr_map"), p.kernel("atomicmr_reduce"), p.kernel("atomicmr_pairs_out")};
  }
};

// Output on the host as the kernels lay it out.
struct HostOutput {
  std::vector<AmrOutRecord> recs;
  std::vector<char> keys, vals;
};

class HashRuntime final : public mapreduce::Runtime {
 public:
  HashRuntime(backend::Device& device, HashOptions options)
      : device_(device), options_(options), pool_(device), table_(pool_, "table") {
    if (options_.groups == 0) {
      options_.groups = static_cast<std::uint32_t>(std::max(1, device.info().compute_units * 16));
    }
  }

  void prepare(const apps::MapReduceApp& app) override {
    program_ = device_.build(mapreduce::mapreduce_program("atomicmr", app));
    kernels_ = Kernels::look_up(*program_);
  }

  std::string name() const override { return "atomicmr/hash"; }

  mapreduce::RunResult run_records(const apps::MapReduceApp& app,
                                   const mapreduce::PreparedInput& in, std::uint32_t first,
                                   std::uint32_t last) override {
    auto& q = device_.queue();
    mapreduce::RunResult result;
    Stopwatch total;
    const std::uint32_t records = last - first;
    const std::size_t offset_bytes = (std::size_t{records} + 1) * 4;
    const std::uint32_t side_size = checked_u32(in.side.size(), "side data");
    Buffer& d_input = pool_.get("input", in.size);
    Buffer& d_offsets = pool_.get("offsets", offset_bytes);
    Buffer& d_side = pool_.get("side", in.side.size());
    q.begin_span("copy_in");
    q.write(d_input, 0, in.data, in.size);
    q.write(d_offsets, 0, in.offsets.data() + first, offset_bytes);
    if (!in.side.empty()) q.write(d_side, 0, in.side.data(), in.side.size());
    q.end_span();

    retries_ = 0;
    mapreduce::ScopedSpan map_span(q, "map");
    const blocks::HashTableUsage used =
        build_table(app, d_input, d_offsets, records, d_side, side_size, in.size);
    map_span.end();

    HostOutput out;
    std::uint64_t outputs_reserved = 0;
    if (app.has_reduce()) {
      outputs_reserved = reduce(app, used, d_side, side_size, out);
    } else {
      copy_out_pairs(app, used, out);
    }
    result.measurement.total_ms = total.elapsed_ms();
    for (auto& span : q.take_spans())
      result.measurement.phases.push_back({span.name, span.milliseconds});

    const std::uint32_t vsize = app.has_reduce() ? app.output_value_size() : app.value_size();
    result.output.reserve(out.recs.size());
    for (std::size_t i = 0; i < out.recs.size(); ++i) {
      result.output.emplace_back(
          std::string(out.keys.data() + out.recs[i].key_off, out.recs[i].key_len),
          std::string(out.vals.data() + i * vsize, vsize));
    }
    order_output(app, result.output);

    // Declared work: map reads the input and writes each distinct key once
    // (its bytes and entry) and a node per pair (value, link, entry);
    // copies in and out cross the host link into pageable std::vectors.
    const std::uint64_t copied_out =
        out.recs.size() * sizeof(AmrOutRecord) + out.keys.size() + out.vals.size();
    result.work.items("records", records)
        .items("intermediate_pairs", used.nodes)
        .reads(level::h2d, in.size + offset_bytes + in.side.size(), "copy_in")
        .reads(level::dram, in.size, "map")
        .writes(level::dram,
                std::uint64_t{used.key_bytes} + std::uint64_t{used.entries} * 16 +
                    std::uint64_t{used.nodes} * (8 + app.value_size()),
                "map")
        .writes(level::d2h, copied_out, "copy_out", "d2h_pageable");
    auto& counters = result.measurement.counters;
    counters["threads"] = options_.groups * options_.group_size;
    counters["table_slots"] = table_.capacity().slots;
    counters["table_entries"] = used.entries;
    counters["retries"] = retries_;
    // Per pair a node and its list head; per entry created the entry, its key
    // bytes and the slot's CAS (CAS retries after a lost race not counted);
    // per reduce output its key bytes and place.
    counters["atomics"] = static_cast<double>(
        2 * std::uint64_t{used.nodes} + 3 * std::uint64_t{used.entries} + 2 * outputs_reserved);
    return result;
  }

 private:
  // Map into the table; a table out of room grows to what the counters
  // asked for and map runs again (grow = 0: RunError). Capacities persist
  // over runs, so a repeated run of one input builds once.
  blocks::HashTableUsage build_table(const apps::MapReduceApp& app, Buffer& input, Buffer& offsets,
                                     std::uint32_t records, Buffer& side, std::uint32_t side_size,
                                     std::size_t input_bytes) {
    auto& q = device_.queue();
    const LaunchShape tasks{options_.groups, options_.group_size};
    const std::uint32_t guess = std::max<std::uint32_t>(
        {records, static_cast<std::uint32_t>(std::min<std::size_t>(input_bytes / 8, 1u << 30)),
         64});
    if (options_.slots == 0) {
      capacity_.entries = std::max({capacity_.entries, records, 32u});
    } else if (capacity_.slots == 0) {  // the first table has the slots asked for
      capacity_.slots = options_.slots;
      capacity_.entries = std::max(1u, options_.slots / 2);
    }
    capacity_.key_bytes = std::max<std::uint32_t>(
        capacity_.key_bytes, checked_u32(std::max<std::size_t>(input_bytes, 64), "input"));
    capacity_.nodes = std::max(capacity_.nodes, guess);
    for (;;) {
      table_.reset(capacity_);
      Buffer& vals = pool_.get("vals", std::size_t{capacity_.nodes} * app.value_size());
      const blocks::HashTableCapacity& c = table_.capacity();
      q.launch(kernels_.map, tasks, input, offsets, records, options_.coalesced ? 1u : 0u, side,
               side_size, table_.slots(), table_.slot_mask(), options_.hash_mask, table_.entries(),
               c.entries, table_.keys(), c.key_bytes, table_.node_next(), table_.node_entry(),
               c.nodes, table_.counters(), vals);
      const blocks::HashTableUsage used = table_.usage();
      if (table_.fits(used)) return used;
      const blocks::HashTableCapacity next = table_.grown(used);
      const bool same = next == c;
      if (!options_.grow || same) {
        throw RunError(
            "atomicmr/hash: the global hash table (" + std::to_string(c.slots) + " slots, " +
            std::to_string(c.entries) + " entries, " + std::to_string(c.nodes) +
            " values) is full: " + std::to_string(used.entries) + " keys and " +
            std::to_string(used.nodes) + " values asked for" + (options_.grow ? "" : " (grow=0)"));
      }
      capacity_ = next;
      ++retries_;
    }
  }

  // Reduce per table entry, output reserved with atomics in buffers sized for
  // one output per key with the table's key bytes (the largest seen), grown
  // and run again when short. Returns the outputs reserved (over all tries).
  std::uint64_t reduce(const apps::MapReduceApp& app, const blocks::HashTableUsage& used,
                       Buffer& side, std::uint32_t side_size, HostOutput& out) {
    auto& q = device_.queue();
    const LaunchShape tasks{options_.groups, options_.group_size};
    Buffer& counters = pool_.get("out.counters", AMR_COUNTERS * 4);
    Buffer& vals = pool_.get("vals", std::size_t{table_.capacity().nodes} * app.value_size());
    out_capacity_ = std::max(out_capacity_, used.entries);
    out_key_capacity_ = std::max(out_key_capacity_, used.key_bytes);
    std::uint64_t reserved = 0;
    std::uint32_t counts[AMR_COUNTERS] = {};
    mapreduce::ScopedSpan span(q, "reduce");
    for (;;) {
      q.fill_zero(counters, 0, sizeof(counts));
      if (used.entries > 0) {
        q.launch(kernels_.reduce, tasks, table_.entries(), used.entries, table_.keys(),
                 table_.node_next(), vals, options_.coalesced ? 1u : 0u, side, side_size, counters,
                 out_key_capacity_, out_capacity_, pool_.get("out.keys", out_key_capacity_),
                 pool_.get("out.recs", std::size_t{out_capacity_} * sizeof(AmrOutRecord)),
                 pool_.get("out.vals", std::size_t{out_capacity_} * app.output_value_size()));
      }
      q.read(counts, counters, 0, sizeof(counts));
      q.finish();
      if (counts[AMR_COUNTER_WRAPPED] != 0) checked_u32(std::uint64_t{1} << 32, "outputs");
      reserved += counts[AMR_COUNTER_OUTPUTS];
      if (counts[AMR_COUNTER_OUTPUTS] <= out_capacity_ &&
          counts[AMR_COUNTER_KEY_BYTES] <= out_key_capacity_) {
        break;
      }
      out_capacity_ = std::max(out_capacity_, counts[AMR_COUNTER_OUTPUTS]);
      out_key_capacity_ = std::max(out_key_capacity_, counts[AMR_COUNTER_KEY_BYTES]);
      ++retries_;
    }
    span.end();
    const std::uint32_t outputs = counts[AMR_COUNTER_OUTPUTS];
    q.begin_span("copy_out");
    read_output(pool_.get("out.recs", std::size_t{out_capacity_} * sizeof(AmrOutRecord)),
                pool_.get("out.keys", out_key_capacity_),
                pool_.get("out.vals", std::size_t{out_capacity_} * app.output_value_size()),
                outputs, counts[AMR_COUNTER_KEY_BYTES], app.output_value_size(), out);
    q.end_span();
    q.finish();
    return reserved;
  }

  // Map-only apps: every pair in the table is output (any order; the host
  // sorts canonically), keys read as the table holds them.
  void copy_out_pairs(const apps::MapReduceApp& app, const blocks::HashTableUsage& used,
                      HostOutput& out) {
    auto& q = device_.queue();
    Buffer& vals = pool_.get("vals", std::size_t{table_.capacity().nodes} * app.value_size());
    Buffer& d_recs = pool_.get("out.recs", std::size_t{used.nodes} * sizeof(AmrOutRecord));
    Buffer& d_vals = pool_.get("out.vals", std::size_t{used.nodes} * app.value_size());
    q.begin_span("copy_out");
    if (used.nodes > 0) {
      q.launch(kernels_.pairs_out, LaunchShape::cover(used.nodes, kGroup), table_.node_entry(),
               table_.entries(), vals, used.nodes, d_recs, d_vals);
    }
    read_output(d_recs, table_.keys(), d_vals, used.nodes, used.key_bytes, app.value_size(), out);
    q.end_span();
    q.finish();
  }

  void read_output(Buffer& recs, Buffer& keys, Buffer& vals, std::uint32_t n,
                   std::uint32_t key_bytes, std::uint32_t value_size, HostOutput& out) {
    auto& q = device_.queue();
    out.recs.resize(n);
    out.keys.resize(key_bytes);
    out.vals.resize(std::size_t{n} * value_size);
    q.read(out.recs.data(), recs, 0, out.recs.size() * sizeof(AmrOutRecord));
    q.read(out.keys.data(), keys, 0, out.keys.size());
    q.read(out.vals.data(), vals, 0, out.vals.size());
  }

  backend::Device& device_;
  HashOptions options_;
  blocks::BufferPool pool_;
  blocks::GlobalHashTable table_;
  std::shared_ptr<backend::Program> program_;
  Kernels kernels_;
  blocks::HashTableCapacity capacity_;  // the largest table needed so far
  std::uint32_t out_capacity_ = 0, out_key_capacity_ = 0;
  std::uint32_t retries_ = 0;
};

}  // namespace

ParamDecls hash_params() {
  return {
      unsigned_param("groups", 0, 0, UINT32_MAX,
                     "work-groups for map and reduce; 0: 16 per compute unit"),
      pow2_param("group_size", 128, 1, 1024, "work-items per work-group"),
      bool_param("coalesced", true, "thread t takes records t, t+T, ..."),
      unsigned_param("hash_mask", 0xffffffffu, 0, UINT32_MAX,
                     "hash bits kept (tests: few, so keys collide)"),
      pow2_param("slots", 0, 1, 1u << 31, "the table's first size in slots", "from the input"),
      bool_param("grow", true, "a full table grows and map runs again (0: a RunError)"),
  };
}

HashOptions hash_options_from(const Params& params) {
  check_params(hash_params(), params);
  HashOptions o;
  o.groups = param_u32(params, "groups");
  o.group_size = param_u32(params, "group_size");
  o.coalesced = param_bool(params, "coalesced");
  o.hash_mask = param_u32(params, "hash_mask");
  o.slots = param_u32(params, "slots");
  o.grow = param_bool(params, "grow");
  return o;
}

std::unique_ptr<mapreduce::Runtime> make_hash_runtime(backend::Device& device,
                                                      const HashOptions& options) {
  return std::make_unique<HashRuntime>(device, options);
}

}  // namespace harness::atomicmr
