#include "frameworks/mapreduce/hashagg/hashagg_runtime.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/global_hash_table.h"
#include "frameworks/blocks/pipeline.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/mapreduce_program.h"
#include "frameworks/mapreduce/hashagg/hashagg_records.h"
#include "frameworks/mapreduce/hashagg/host_output.h"
#include "frameworks/mapreduce/mars/scoped_span.h"
#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"
#include "harness/dialect/dialect.h"
// The table's layout, shared with the kernels.
#include "frameworks/blocks/kernels/global_hash_table_types.clh"
#include "frameworks/mapreduce/hashagg/kernels/hashagg_types.clh"

namespace harness::hashagg {
namespace {

using backend::Buffer;
using backend::LaunchShape;

constexpr std::uint32_t kReduceGroup = 256;

// Whether the byte path below runs the app, and why not (the others run on
// records: hashagg_records.h; chained apps run job by job, JobChain).
std::string refusal(const apps::MapReduceApp& app) {
  if (!app.jobs().empty()) return "it is a chain of jobs";
  if (!app.combine_is_u32_add()) return "its combiner is not u32 addition (APP_COMBINE_ADD_U32)";
  if (app.cut_at_or_after(nullptr, 0, 0) == apps::MapReduceApp::kNoCut) {
    return "its input cannot be cut anywhere (MapReduceApp::cut_at_or_after)";
  }
  return {};
}

struct Kernels {
  backend::Kernel map, map_runs, fold_short, reduce;
  static Kernels look_up(backend::Program& p) {
    return {p.kernel("hashagg_map_bytes"), p.kernel("hashagg_map_runs"),
            p.kernel("hashagg_fold_short"), p.kernel("hashagg_reduce")};
  }
};

// Slots of the runs path's global short-key table for an input: about one
// per 512 bytes (word count: 2^19 slots at 256 MiB, 2^21 at 1 GiB, for about
// 100 K distinct words), a power of two. It is grown 4x when an insert runs
// out of probes (map runs again) or it ends more than half full, but text
// should not need that: a first run that grows it costs a second map.
std::uint32_t short_slots_for(std::size_t size) {
  return std::bit_ceil(
      static_cast<std::uint32_t>(std::clamp<std::size_t>(size / 512, 4096, std::size_t{1} << 26)));
}

using Pipeline = blocks::CopyComputePipeline;

class HashAggRuntime final : public mapreduce::Runtime {
 public:
  HashAggRuntime(backend::Device& device, Options options)
      : device_(device),
        options_(options),
        pool_(device),
        table_(pool_, "table"),
        pipeline_(device, pool_, "stream"),
        host_(device) {}

  std::string name() const override {
    return options_.pipelined ? "hashagg/pipelined" : "hashagg/resident";
  }

  void prepare(const apps::MapReduceApp& app) override {
    if (!app.jobs().empty()) {
      throw UsageError(name() + " runs the jobs of '" + app.name() + "' one by one (JobChain)");
    }
    if (!refusal(app).empty()) {  // the records path; kept (with its sizes) for the same app
      if (!records_ || prepared_ != &app) {
        records_ = make_records_runtime(device_, options_);
        records_->prepare(app);
      }
      prepared_ = &app;
      return;
    }
    records_.reset();
    program_ = device_.build(program_source(app));
    kernels_ = Kernels::look_up(*program_);
    prepared_ = &app;
    use_runs_ = options_.runs && options_.local && app.keys_are_separator_runs();
    if (options_.pipelined) pipeline_.set_lanes(options_.lanes);
  }

  mapreduce::RunResult run(const apps::MapReduceApp& app, const std::uint8_t* input,
                           std::size_t size) override {
    if (prepared_ != &app) prepare(app);
    if (records_) {
      records_->set_app_params(app_params());
      records_->set_canonical_output(canonical_output());
      return records_->run(app, input, size);
    }
    apps::check_input_size(app, size);
    auto& q = device_.queue();
    mapreduce::RunResult result;
    Stopwatch total;
    const std::vector<std::uint8_t> side = app.side_data(app_params(), input, size);
    const std::uint32_t side_size = static_cast<std::uint32_t>(side.size());
    Buffer& d_side = pool_.get("side", side.size());
    const std::vector<Pipeline::Piece> chunks = cut(app, input, size);

    capacity_.entries = std::max<std::uint32_t>(
        capacity_.entries,
        static_cast<std::uint32_t>(std::clamp<std::size_t>(size / 64, 1024, std::size_t{1} << 22)));
    capacity_.key_bytes = std::max(capacity_.key_bytes, capacity_.entries * 12);
    capacity_.nodes = 0;  // values are combined in place: no value nodes
    short_slots_next_ = std::max(short_slots_next_, short_slots_for(size));
    retries_ = 0;
    double pipeline_ms = 0;
    Pipeline::Busy busy;
    blocks::HashTableUsage used;
    Buffer* d_input = nullptr;
    std::vector<backend::TimedSpan> spans;  // the copy's, kept through retries
    if (!options_.pipelined) {
      d_input = &pool_.get("input", size);
      q.begin_span("copy_in");
      if (size > 0) q.write(*d_input, 0, input, size);
      q.end_span();
      spans = q.take_spans();
    }
    // Map (and the fold of the short-key table into the byte-keyed one) until
    // the tables were large enough; a retry's phases are dropped (its time
    // stays in the total, `retries` counts it).
    for (;;) {
      reset_tables(d_side, side);
      if (options_.pipelined) {
        q.finish();  // the lanes' kernels find the tables empty
        Stopwatch pipe;
        busy = pipeline_.run(
            input, chunks,
            [&](backend::Queue& lane, Buffer& piece, std::size_t i) {
              launch_map(lane, piece, chunks[i].bytes, d_side, side_size);
            },
            "map");
        pipeline_ms = pipe.elapsed_ms();
      } else {
        mapreduce::ScopedSpan span(q, "map");
        launch_map(q, *d_input, size, d_side, side_size);
        span.end();
      }
      if (!short_table_fits()) {
        q.take_spans();
        continue;
      }
      if (use_runs_) {
        mapreduce::ScopedSpan span(q, "group");
        fold_short(q, d_side, side_size);
        span.end();
      }
      used = table_.usage();
      if (fits_or_grow(used)) break;
      q.take_spans();
    }

    const std::uint32_t entries = std::min(used.entries, table_.capacity().entries);
    const std::uint32_t out_size = app.output_value_size();
    Buffer& d_out = pool_.get("out.vals", std::size_t{entries} * out_size);
    Buffer& d_count = pool_.get("out.count", std::size_t{entries} * 4);
    {
      mapreduce::ScopedSpan span(q, "reduce");
      if (entries > 0) {
        q.launch(kernels_.reduce, LaunchShape::cover(entries, kReduceGroup), table_.entries(),
                 entries, table_.keys(), sums(), d_side, side_size, d_out, d_count);
      }
      span.end();
    }
    HostOutput& h = host_;
    h.entries.resize(entries);
    h.keys.resize(used.key_bytes);
    h.vals.resize(std::size_t{entries} * out_size);
    h.counts.resize(entries);
    {
      mapreduce::ScopedSpan span(q, "copy_out");
      if (entries > 0) {
        q.read(h.entries.data(), table_.entries(), 0, h.entries.size() * sizeof(GhtEntry));
        q.read(h.keys.data(), table_.keys(), 0, h.keys.size());
        q.read(h.vals.data(), d_out, 0, h.vals.size());
        q.read(h.counts.data(), d_count, 0, h.counts.size() * 4);
      }
      span.end();
    }
    q.finish();
    result.measurement.total_ms = total.elapsed_ms();
    if (options_.pipelined) result.measurement.phases.push_back({"pipeline", pipeline_ms});
    for (auto& s : q.take_spans()) spans.push_back(std::move(s));
    for (auto& s : spans) result.measurement.phases.push_back({s.name, s.milliseconds});

    const std::uint64_t distinct =
        append_reduced(h, entries, out_size, name(), app.name(), result.output);
    order_output(app, result.output);

    // Declared work: the input crosses the host link once and map reads it
    // once (its key bytes again from L1 or shared memory, not counted); the
    // table's entries, keys and sums are written once per distinct key per
    // flush at least (a lower bound); the output crosses back into pinned host memory (pageable
    // where the backend could not pin it).
    const std::uint64_t copied_out =
        std::uint64_t{entries} * (sizeof(GhtEntry) + out_size + 4) + used.key_bytes;
    // Pipelined: the input's copy over the whole run (rate `h2d`, end to end
    // against the pinned copy ceiling); resident: over copy_in.
    const std::string h2d_phase = options_.pipelined ? kTotal : "copy_in";
    result.work.items("distinct_keys", distinct)
        .reads(level::h2d, size, h2d_phase)
        .reads(level::dram, size, options_.pipelined ? "pipeline" : "map")
        .writes(level::d2h, copied_out, "copy_out", host_.d2h_ceiling());
    auto& c = result.measurement.counters;
    c["chunks"] = static_cast<double>(chunks.size());
    c["lanes"] = options_.pipelined ? options_.lanes : 1;
    c["threads"] = static_cast<double>(map_groups()) * options_.group_size;
    c["runs_path"] = use_runs_ ? 1 : 0;
    c["short_slots"] = use_runs_ ? short_slots_ : 0;
    c["table_slots"] = table_.capacity().slots;
    c["table_entries"] = used.entries;
    c["retries"] = retries_;
    if (options_.pipelined) {
      c["copy_in_busy_ms"] = busy.copy_ms;
      c["map_busy_ms"] = busy.compute_ms;
    }
    return result;
  }

 private:
  // Chunks of about chunk_kib KiB (resident: one), each cut forward to where
  // the app allows. Each must leave room for a tile past its end in u32.
  std::vector<Pipeline::Piece> cut(const apps::MapReduceApp& app, const std::uint8_t* input,
                                   std::size_t size) const {
    const std::size_t nominal = options_.pipelined ? std::size_t{options_.chunk_kib} * 1024
                                                   : std::max<std::size_t>(size, 1);
    const std::vector<Pipeline::Piece> chunks = Pipeline::cut(
        size, nominal, [&](std::size_t at) { return app.cut_at_or_after(input, size, at); });
    const std::uint64_t tile = std::uint64_t{options_.group_size} *
                               std::max<std::uint64_t>(options_.segment, HA_RUN_PIECE);
    for (const Pipeline::Piece& ch : chunks) {
      if (ch.bytes + tile >= 0xffffffffULL) {
        throw RunError(name() + ": a piece of " + std::to_string(ch.bytes) +
                       " bytes passes the 4 GiB limit of its 32-bit offsets");
      }
    }
    return chunks;
  }

  // Map's work-groups: the knob, else as many as fit a compute unit's local
  // memory on an H100/H200 (228 KiB): 6 for the runs path (32 KiB each, plus
  // the 1 KiB CUDA reserves a block, so a seventh does not fit; it was 36 KiB;
  // measured at 1 GiB on an H100: map 15.2 ms with 4 per SM, 12.3 with 6,
  // 14.8 with 8, which no longer fit at once), 4 for app_map's (44 KiB).
  std::uint32_t map_groups() const {
    return hashagg::map_groups(options_, device_.info(), use_runs_ ? 6 : 4);
  }

  // Per entry of the global table: its combined value (u32), sized with the table.
  Buffer& sums() { return pool_.get("sums", std::size_t{table_.capacity().entries} * 4 + 4); }

  void reset_tables(Buffer& d_side, const std::vector<std::uint8_t>& side) {
    auto& q = device_.queue();
    table_.reset(capacity_);
    q.fill_zero(sums(), 0, std::size_t{table_.capacity().entries} * 4);
    short_slots_ = std::max(short_slots_, short_slots_next_);
    if (use_runs_) {
      q.fill_zero(short_keys(), 0, std::size_t{short_slots_} * 8);
      q.fill_zero(short_sums(), 0, std::size_t{short_slots_} * 4);
    }
    q.fill_zero(short_counters(), 0, HA_SHORT_COUNTERS * 4);
    if (!side.empty()) q.write(d_side, 0, side.data(), side.size());
  }

  // The runs path's global short-key table (kernels/short_key_table.clh).
  Buffer& short_keys() { return pool_.get("short.keys", std::size_t{short_slots_} * 8); }
  Buffer& short_sums() { return pool_.get("short.sums", std::size_t{short_slots_} * 4); }
  Buffer& short_counters() { return pool_.get("short.counters", HA_SHORT_COUNTERS * 4); }

  // False when map has to run again: the short-key table was full (4x the
  // slots for the next map), or the device has no 64-bit atomics (the app_map
  // path from now on). A table more than half full is also grown 4x for the
  // next run. Waits for the map.
  bool short_table_fits() {
    if (!use_runs_) return true;
    std::uint32_t counters[HA_SHORT_COUNTERS] = {};
    device_.queue().read(counters, short_counters(), 0, sizeof counters);
    device_.queue().finish();
    if (counters[HA_SHORT_COUNTER_NO_U64] != 0) {
      use_runs_ = false;
      ++retries_;
      return false;
    }
    const bool full = counters[HA_SHORT_COUNTER_FULL] != 0;
    if (full || counters[HA_SHORT_COUNTER_KEYS] > short_slots_ / 2) {
      if (short_slots_ >= (1u << 28)) {
        throw RunError(name() + ": the short-key table (" + std::to_string(short_slots_) +
                       " slots) cannot grow");
      }
      short_slots_next_ = short_slots_ * 4;
    }
    if (!full) return true;
    ++retries_;
    return false;
  }

  // Every key of the short-key table into the byte-keyed table.
  void fold_short(backend::Queue& q, Buffer& d_side, std::uint32_t side_size) {
    const blocks::HashTableCapacity& c = table_.capacity();
    q.launch(kernels_.fold_short, LaunchShape::cover(short_slots_, kReduceGroup), short_keys(),
             short_sums(), short_slots_, d_side, side_size, table_.slots(), table_.slot_mask(),
             options_.hash_mask, table_.entries(), c.entries, table_.keys(), c.key_bytes,
             table_.counters(), sums());
  }

  void launch_map(backend::Queue& q, Buffer& input, std::size_t bytes, Buffer& d_side,
                  std::uint32_t side_size) {
    if (bytes == 0) return;
    const blocks::HashTableCapacity& c = table_.capacity();
    if (use_runs_) {
      q.launch(kernels_.map_runs, LaunchShape{map_groups(), options_.group_size}, input,
               static_cast<std::uint32_t>(bytes), d_side, side_size, short_keys(), short_sums(),
               short_slots_ - 1, short_counters(), table_.slots(), table_.slot_mask(),
               options_.hash_mask, table_.entries(), c.entries, table_.keys(), c.key_bytes,
               table_.counters(), sums());
      return;
    }
    q.launch(kernels_.map, LaunchShape{map_groups(), options_.group_size}, input,
             static_cast<std::uint32_t>(bytes), options_.segment, d_side, side_size,
             options_.local ? 1u : 0u, table_.slots(), table_.slot_mask(), options_.hash_mask,
             table_.entries(), c.entries, table_.keys(), c.key_bytes, table_.counters(), sums());
  }

  // True when the build fit; else grows the table (RunError when it cannot).
  bool fits_or_grow(const blocks::HashTableUsage& used) {
    if (table_.fits(used)) return true;
    capacity_ = table_.grown_or_throw(used, name());
    ++retries_;
    return false;
  }

  backend::Device& device_;
  Options options_;
  blocks::BufferPool pool_;
  blocks::GlobalHashTable table_;
  std::shared_ptr<backend::Program> program_;
  Kernels kernels_;
  const apps::MapReduceApp* prepared_ = nullptr;
  std::unique_ptr<mapreduce::Runtime> records_;  // apps that need records (hashagg_records.h)
  bool use_runs_ = false;                        // hashagg_map_runs instead of hashagg_map_bytes
  Pipeline pipeline_;                            // the pipelined variant's lanes
  HostOutput host_;  // where copy_out lands, kept from run to run (host_output.h)
  blocks::HashTableCapacity capacity_;  // the largest table needed so far
  std::uint32_t short_slots_ = 0;       // the runs path's short-key table, likewise
  std::uint32_t short_slots_next_ = 0;  // its size from the next reset on
  std::uint32_t retries_ = 0;
};

}  // namespace

ParamDecls params() {
  return {
      bool_param("pipelined", true, "chunks over `lanes` queues; 0: one copy, then map"),
      unsigned_param("chunk_kib", 65536, 1, 1u << 21,
                     "pipelined: KiB per chunk (cut forward to where the app allows)"),
      unsigned_param("lanes", 3, 1, 16, "pipelined: queues, each copying then mapping its chunks"),
      unsigned_param("groups", 0, 0, UINT32_MAX,
                     "map's work-groups; 0: 6 per compute unit (runs path), else 4"),
      pow2_param("group_size", 256, 32, 1024, "work-items per work-group"),
      unsigned_param("segment", 16, 1, 65536, "bytes of input per work-item and tile"),
      bool_param("local", true, "pre-aggregate short keys in local memory"),
      bool_param("runs", true, "apps whose keys are separator runs: find them data-parallel"),
      unsigned_param("long_record", 256, 0, UINT32_MAX,
                     "records path, resident: records longer than this many bytes are mapped in "
                     "a second pass, not in the rounds of the short ones (0: never)"),
      unsigned_param("hash_mask", 0xffffffffu, 0, UINT32_MAX,
                     "global table's hash bits (tests: few, to collide)"),
  };
}

Options options_from(const Params& p) {
  check_params(params(), p);
  Options o;
  o.pipelined = param_bool(p, "pipelined");
  o.chunk_kib = param_u32(p, "chunk_kib");
  o.lanes = param_u32(p, "lanes");
  o.groups = param_u32(p, "groups");
  o.group_size = param_u32(p, "group_size");
  o.segment = param_u32(p, "segment");
  o.local = param_bool(p, "local");
  o.runs = param_bool(p, "runs");
  o.long_record = param_u32(p, "long_record");
  o.hash_mask = param_u32(p, "hash_mask");
  return o;
}

std::unique_ptr<mapreduce::Runtime> make_runtime(backend::Device& device, const Options& options) {
  return std::make_unique<HashAggRuntime>(device, options);
}

backend::ProgramSource program_source(const apps::MapReduceApp& app) {
  backend::ProgramSource src = mapreduce::mapreduce_program("hashagg", app);
  if (app.keys_are_separator_runs()) src.max_registers = 40;
  return src;
}

std::uint32_t map_groups(const Options& options, const backend::DeviceInfo& info, int per_unit) {
  if (options.groups != 0) return options.groups;
  return static_cast<std::uint32_t>(std::max(1, info.compute_units * per_unit));
}

void register_variants() {
  std::vector<std::string> runs;  // every app: the byte path, records, or a chain of jobs
  for (const apps::MapReduceApp* app : apps::mapreduce_apps()) runs.push_back(app->name());
  auto make = [](backend::Device& device, const Params& params) {
    return make_runtime(device, options_from(params));
  };
  VariantInfo pipelined;
  pipelined.framework = "hashagg";
  pipelined.name = "pipelined";
  pipelined.description =
      "modern hash aggregation: the input streamed from pinned memory in chunks over 3 queues "
      "(copies overlap map), short keys pre-aggregated in local memory, the rest combined in a "
      "global table with atomic adds; apps without a u32-add combiner keep their pairs per "
      "work-group and group them by a radix sort of table entries; end-to-end time (apps with "
      "side data or npy inputs run resident: counter streamed)";
  pipelined.apps = runs;
  pipelined.params = params();
  mapreduce::add_gpu_variant(std::move(pipelined), make);

  VariantInfo resident;
  resident.framework = "hashagg";
  resident.name = "resident";
  resident.description =
      "as pipelined, with the input copied whole first: map, reduce and copy_out time the "
      "device work on an input already on the device";
  resident.apps = runs;
  resident.params = with_default(params(), "pipelined", "0");
  mapreduce::add_gpu_variant(std::move(resident), make);
}

}  // namespace harness::hashagg
