#include "frameworks/mapreduce/hashagg/hashagg_records.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/dense_ids.h"
#include "frameworks/blocks/global_hash_table.h"
#include "frameworks/blocks/line_split.h"
#include "frameworks/blocks/pipeline.h"
#include "frameworks/blocks/radix_sort.h"
#include "frameworks/blocks/record_offsets.h"
#include "frameworks/mapreduce/common/mapreduce_program.h"
#include "frameworks/mapreduce/hashagg/host_output.h"
#include "frameworks/mapreduce/mars/scoped_span.h"
#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"
#include "harness/dialect/dialect.h"
// The layouts shared with the kernels.
#include "frameworks/blocks/kernels/global_hash_table_types.clh"
#include "frameworks/mapreduce/hashagg/kernels/pairs_types.clh"

namespace harness::hashagg {

Design design_of(const apps::MapReduceApp& app) {
  if (app.combine_is_u32_add() &&
      app.cut_at_or_after(nullptr, 0, 0) != apps::MapReduceApp::kNoCut) {
    return Design::bytes;
  }
  if (app.combine_is_u32_add() || app.reduce_counts_values()) return Design::add;
  if (app.has_reduce() || app.map_keys_repeat()) return Design::grouped;
  return Design::pairs;
}

const char* design_name(Design design) {
  switch (design) {
    case Design::bytes:
      return "bytes";
    case Design::add:
      return "add";
    case Design::grouped:
      return "grouped";
    case Design::pairs:
      return "pairs";
  }
  return "?";
}

namespace {

using backend::Buffer;
using backend::LaunchShape;

constexpr std::uint32_t kGroup = 256;  // work-items of the one-per-item kernels

struct Kernels {
  backend::Kernel map_add, map_pairs, iota, bounds, combine_pairs, reduce_pairs, gather, reduce_add;
  static Kernels look_up(backend::Program& p) {
    return {p.kernel("hashagg_map_records_add"), p.kernel("hashagg_map_pairs"),
            p.kernel("hashagg_pairs_iota"),      p.kernel("hashagg_pairs_bounds"),
            p.kernel("hashagg_pairs_combine"),   p.kernel("hashagg_pairs_reduce"),
            p.kernel("hashagg_pairs_gather"),    p.kernel("hashagg_reduce")};
  }
};

// Records [first, last) of the input: one streamed chunk (bytes
// offsets[first] .. offsets[last]).
struct Chunk {
  std::uint32_t first = 0, last = 0;
};

std::uint32_t grown(std::uint64_t need) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(need + need / 8 + 64, 0xfffffffeu));
}

class RecordsRuntime final : public mapreduce::Runtime {
 public:
  RecordsRuntime(backend::Device& device, Options options)
      : device_(device),
        options_(options),
        pool_(device),
        table_(pool_, "table"),
        pipeline_(device, pool_, "stream"),
        host_(device) {
    options_.groups = map_groups(options_, device.info(), 4);
  }

  std::string name() const override {
    return options_.pipelined ? "hashagg/pipelined" : "hashagg/resident";
  }

  void prepare(const apps::MapReduceApp& app) override {
    design_ = design_of(app);
    if (design_ == Design::bytes) {
      throw UsageError(name() + ": '" + app.name() + "' runs on the byte path, not on records");
    }
    program_ = device_.build(program_source(app));
    kernels_ = Kernels::look_up(*program_);
    if (design_ == Design::grouped && !radix_) radix_ = std::make_unique<blocks::RadixSort>(pool_);
    prepared_ = &app;
    if (options_.pipelined) pipeline_.set_lanes(options_.lanes);
  }

  mapreduce::RunResult run(const apps::MapReduceApp& app, const std::uint8_t* input,
                           std::size_t size) override {
    if (prepared_ != &app) prepare(app);
    apps::check_input_size(app, size);
    auto& q = device_.queue();
    mapreduce::RunResult result;
    Stopwatch total;
    Stopwatch host;
    // Streaming needs chunks that map reads on their own: records that are
    // lines and an output without input positions (splits_at_lines), and no
    // side data, which may point into the whole input (page starts, matrices).
    // Its chunks are cut at the host's record offsets. A resident input whose
    // records are plain lines (records_are_lines) has them found on the
    // device instead (phase `split`): no host split at all. (mapreduce::
    // preprocess with the split only where needed, into the kept input.)
    mapreduce::PreparedInput& in = prepared_input_;
    in.data = input;
    in.size = size;
    in.side = app.side_data(app_params(), input, size);
    const bool may_stream = options_.pipelined && app.splits_at_lines() && in.side.empty();
    // Records of one size get their offsets written on the device (phase
    // `split`), like lines: neither split nor copied from the host.
    const std::optional<apps::MapReduceApp::RecordStride> stride =
        may_stream ? std::nullopt : app.record_stride(input, size);
    const bool device_lines = !may_stream && !stride && app.records_are_lines();
    const bool device_offsets = device_lines || stride.has_value();
    if (device_offsets) {
      in.offsets.clear();
    } else {
      app.split_records_into(input, size, in.offsets);
    }
    const double preprocess_ms = host.elapsed_ms();
    std::uint32_t records = device_lines ? 0 : stride ? stride->count : in.records();
    const auto side_size = static_cast<std::uint32_t>(in.side.size());
    const bool streamed = may_stream && records > 0;
    std::vector<Chunk> chunks =
        device_offsets ? std::vector<Chunk>{{0, records}} : cut(in, streamed);
    std::vector<blocks::CopyComputePipeline::Piece> pieces;
    if (streamed) {
      for (const Chunk& ch : chunks) {
        pieces.push_back({in.offsets[ch.first], in.offsets[ch.last] - in.offsets[ch.first]});
      }
    }

    Buffer& d_side = pool_.get("side", in.side.size());
    Buffer& d_input = pool_.get("input", streamed ? 1 : size);
    {
      mapreduce::ScopedSpan span(q, "copy_in");
      if (!device_offsets) {
        q.write(pool_.get("offsets", in.offsets.size() * 4), 0, in.offsets.data(),
                in.offsets.size() * 4);
      }
      if (!in.side.empty()) q.write(d_side, 0, in.side.data(), in.side.size());
      if (!streamed && size > 0) q.write(d_input, 0, input, size);
      span.end();
    }
    if (device_lines) {
      mapreduce::ScopedSpan span(q, "split");
      if (!line_split_) line_split_ = std::make_unique<blocks::LineSplit>(pool_);
      records = line_split_->split(d_input, static_cast<std::uint32_t>(size), "offsets");
      span.end();
      chunks = {Chunk{0, records}};
    } else if (stride) {
      mapreduce::ScopedSpan span(q, "split");
      if (!record_offsets_) record_offsets_ = std::make_unique<blocks::RecordOffsets>(pool_);
      record_offsets_->write(stride->first, stride->stride, stride->count, "offsets");
      span.end();
    }
    Buffer& d_offsets = pool_.get("offsets", (std::size_t{records} + 1) * 4);
    std::vector<backend::TimedSpan> spans = q.take_spans();

    // Sizes: learnt from earlier runs, else guessed from the records.
    const bool keyed = design_ != Design::pairs;
    capacity_.entries = std::max<std::uint32_t>(
        capacity_.entries, keyed ? std::clamp<std::uint32_t>(records / 4, 1024, 1u << 22) : 16);
    capacity_.key_bytes =
        std::max(capacity_.key_bytes, grown(std::uint64_t{capacity_.entries} * 32));
    capacity_.nodes = 0;
    pair_capacity_ = std::max(pair_capacity_, std::max<std::uint32_t>(records, 1024));
    key_capacity_ =
        std::max(key_capacity_, design_ == Design::pairs ? grown(std::uint64_t{pair_capacity_} * 8)
                                                         : std::uint32_t{4});
    retries_ = 0;
    double pipeline_ms = 0;
    double copy_busy_ms = 0, map_busy_ms = 0;
    blocks::HashTableUsage used;
    std::uint32_t counters[HA_PAIRS_COUNTERS] = {};
    for (;;) {
      table_.reset(capacity_);
      if (design_ == Design::add) q.fill_zero(sums(), 0, std::size_t{capacity_.entries} * 4);
      q.fill_zero(pair_counters(), 0, sizeof counters);
      if (streamed) {
        q.finish();  // the lanes' kernels find the tables empty
        Stopwatch pipe;
        const blocks::CopyComputePipeline::Busy busy = pipeline_.run(
            input, pieces,
            [&](backend::Queue& lane, Buffer& piece, std::size_t i) {
              launch_map(lane, piece, d_offsets, chunks[i], in.offsets[chunks[i].first], d_side,
                         side_size, /*defers=*/false);
            },
            "map");
        copy_busy_ms = busy.copy_ms;
        map_busy_ms = busy.compute_ms;
        pipeline_ms = pipe.elapsed_ms();
      } else {
        mapreduce::ScopedSpan span(q, "map");
        launch_map(q, d_input, d_offsets, Chunk{0, records}, 0, d_side, side_size,
                   /*defers=*/true);
        span.end();
      }
      used = table_.usage();
      q.read(counters, pair_counters(), 0, sizeof counters);
      q.finish();
      if (fits(used, counters)) break;
      q.take_spans();
      ++retries_;
    }

    const std::uint32_t pairs = counters[HA_PAIRS_COUNTER_PAIRS];
    std::uint32_t entries = std::min(used.entries, table_.capacity().entries);
    // The table's entries as reduce and copy_out read them: grouped, only
    // those the pairs name, renumbered densely (blocks::DenseIds) before the
    // sort; an insert that lost a race to publish its key left one no pair
    // names (k-means: 118-133 K for 16 keys).
    Buffer* entry_table = &table_.entries();
    const std::uint32_t vsize = app.value_size(), out_size = app.output_value_size();
    std::uint32_t sort_bits = 0;
    // Grouped: the pairs' entries sorted (order: where each came from), and
    // each entry's run of them.
    Buffer& order = pool_.get("pairs.order", std::size_t{pairs} * 4);
    Buffer* begin = nullptr;
    Buffer* end = nullptr;
    if (design_ == Design::grouped) {
      mapreduce::ScopedSpan span(q, "group");
      if (!dense_) dense_ = std::make_unique<blocks::DenseIds>(pool_);
      const std::uint32_t named = dense_->number(out_key(), pairs, entries);
      dense_->renumber(out_key(), pairs);
      entry_table = &pool_.get("group.entries", std::size_t{named} * sizeof(GhtEntry) + 1);
      dense_->compact(table_.entries(), sizeof(GhtEntry) / 4, *entry_table);
      entries = named;
      begin = &pool_.get("group.begin", std::size_t{entries} * 4);
      end = &pool_.get("group.end", std::size_t{entries} * 4);
      if (pairs > 0) {
        sort_bits = entries > 1 ? static_cast<std::uint32_t>(std::bit_width(entries - 1)) : 0;
        q.launch(kernels_.iota, LaunchShape::cover(pairs, kGroup), order, pairs);
        radix_->sort_pairs(out_key(), order, pairs, static_cast<int>(sort_bits));
        q.fill_zero(*end, 0, std::size_t{entries} * 4);
        q.launch(kernels_.bounds, LaunchShape::cover(pairs, kGroup), out_key(), pairs, *begin,
                 *end);
      }
      span.end();
    }
    const bool reduces = design_ == Design::add || (design_ == Design::grouped && app.has_reduce());
    Buffer& d_out = pool_.get("out.vals", std::size_t{entries} * out_size);
    Buffer& d_count = pool_.get("out.count", std::size_t{entries} * 4);
    Buffer& sorted_vals = pool_.get("pairs.sorted_vals", reduces ? 1 : std::size_t{pairs} * vsize);
    std::uint32_t entries_folded = 0;
    if (reduces) {
      mapreduce::ScopedSpan span(q, "reduce");
      if (entries > 0 && design_ == Design::add) {
        q.launch(kernels_.reduce_add, LaunchShape::cover(entries, kGroup), table_.entries(),
                 entries, table_.keys(), sums(), d_side, side_size, d_out, d_count);
      } else if (entries > 0) {
        // Many pairs an entry (k-means): each entry's values folded by a
        // work-group first (apps with a combiner; the kernel leaves the others).
        if (pairs >= std::uint64_t{HA_FOLD_PAIRS_PER_ENTRY} * entries) {
          entries_folded = entries;
          q.launch(kernels_.combine_pairs,
                   LaunchShape{std::min<std::uint32_t>(entries, 1024), HA_FOLD_GROUP}, *begin, *end,
                   order, out_val(vsize), entries);
        }
        q.launch(kernels_.reduce_pairs, LaunchShape::cover(entries, kGroup), *entry_table, entries,
                 table_.keys(), *begin, *end, order, out_val(vsize), d_side, side_size, d_out,
                 d_count);
      }
      span.end();
    }

    // Copy out and turn into the harness's pairs.
    // The host vectors are members kept from run to run and sized before the
    // span opens (as Mars does): a fresh vector's first touch is a page fault
    // per 4 KiB, host time that was 80% of this span on PoCL.
    auto& host_entries = host_.entries;
    auto& keys = host_.keys;
    auto& vals = host_.vals;
    auto& counts = host_.counts;
    auto& key_refs = host_.key_refs;
    auto& key_lens = host_.key_lens;
    host_.clear();
    if (keyed) {
      host_entries.resize(entries);
      keys.resize(used.key_bytes);
    }
    if (reduces) {
      vals.resize(std::size_t{entries} * out_size);
      counts.resize(entries);
    } else {
      vals.resize(std::size_t{pairs} * vsize);
      key_refs.resize(pairs);
      if (design_ == Design::pairs) {
        key_lens.resize(pairs);
        keys.resize(counters[HA_PAIRS_COUNTER_KEY_BYTES]);
      }
    }
    const std::uint64_t copied_out = host_entries.size() * sizeof(GhtEntry) + keys.size() +
                                     vals.size() + counts.size() * 4 + key_refs.size() * 4 +
                                     key_lens.size() * 4;
    {
      mapreduce::ScopedSpan span(q, "copy_out");
      if (keyed && entries > 0) {
        q.read(host_entries.data(), *entry_table, 0, host_entries.size() * sizeof(GhtEntry));
        q.read(keys.data(), table_.keys(), 0, keys.size());
      }
      if (reduces) {
        if (entries > 0) {
          q.read(vals.data(), d_out, 0, vals.size());
          q.read(counts.data(), d_count, 0, counts.size() * 4);
        }
      } else if (pairs > 0) {
        // Map-only: every pair; grouped ones in entry order.
        if (design_ == Design::grouped) {
          q.launch(kernels_.gather, LaunchShape::cover(pairs, kGroup), order, out_val(vsize), pairs,
                   sorted_vals);
          q.read(vals.data(), sorted_vals, 0, vals.size());
        } else {
          q.read(vals.data(), out_val(vsize), 0, vals.size());
        }
        q.read(key_refs.data(), out_key(), 0, key_refs.size() * 4);
        if (design_ == Design::pairs) {
          q.read(key_lens.data(), out_len(), 0, key_lens.size() * 4);
          if (!keys.empty()) q.read(keys.data(), out_bytes(), 0, keys.size());
        }
      }
      span.end();
    }
    q.finish();
    result.measurement.total_ms = total.elapsed_ms();
    auto& phases = result.measurement.phases;
    phases.push_back({"preprocess", preprocess_ms});
    for (auto& s : q.take_spans()) spans.push_back(std::move(s));
    for (std::size_t i = 0; i < spans.size(); ++i) {
      phases.push_back({spans[i].name, spans[i].milliseconds});
      if (i == 0 && streamed) phases.push_back({"pipeline", pipeline_ms});
    }

    if (reduces) {
      append_reduced(host_, entries, out_size, name(), app.name(), result.output);
    } else {
      result.output.reserve(pairs);
      for (std::uint32_t i = 0; i < pairs; ++i) {
        std::string key = design_ == Design::grouped
                              ? std::string(keys.data() + host_entries[key_refs[i]].key_off,
                                            host_entries[key_refs[i]].key_len)
                              : std::string(keys.data() + key_refs[i], key_lens[i]);
        result.output.emplace_back(std::move(key),
                                   std::string(vals.data() + std::size_t{i} * vsize, vsize));
      }
    }
    order_output(app, result.output);

    // Declared work: the input, its record offsets and side data cross the
    // host link once and map reads the input once; the pairs are written
    // once by map (key ref and value); the output crosses back into pinned host memory (pageable
    // where the backend could not pin it).
    const std::uint64_t h2d =
        size + in.offsets.size() * 4 + in.side.size();  // no offsets: device lines, strides
    result.work.items("records", records)
        .items("intermediate_pairs", pairs)
        .reads(level::h2d, h2d, streamed ? kTotal : "copy_in")
        .reads(level::dram, size, streamed ? "pipeline" : "map")
        .writes(level::dram, std::uint64_t{pairs} * (4 + vsize), streamed ? "pipeline" : "map")
        .writes(level::d2h, copied_out, "copy_out", host_.d2h_ceiling());
    if (device_lines) {  // line_split_count and line_split_write each read the input
      result.work.reads(level::dram, std::uint64_t{size} * 2, "split")
          .writes(level::dram, (std::uint64_t{records} + 1) * 4, "split");
    }
    if (stride) result.work.writes(level::dram, (std::uint64_t{records} + 1) * 4, "split");
    auto& c = result.measurement.counters;
    c["records_path"] = 1;
    c["streamed"] = streamed ? 1 : 0;
    c["device_lines"] = device_lines ? 1 : 0;
    c["device_strided"] = stride ? 1 : 0;
    c["chunks"] = static_cast<double>(chunks.size());
    c["lanes"] = streamed ? options_.lanes : 1;
    c["threads"] = static_cast<double>(options_.groups) * options_.group_size;
    c["intermediate_pairs"] = pairs;
    c["direct_pairs"] = counters[HA_PAIRS_COUNTER_DIRECT];
    c["long_records"] = counters[HA_PAIRS_COUNTER_DEFERRED];  // past long_record bytes
    c["entries_folded"] = entries_folded;                     // by a work-group each before reduce
    c["table_slots"] = keyed ? table_.capacity().slots : 0;
    c["table_entries"] = keyed ? used.entries : 0;
    if (design_ == Design::grouped) c["named_entries"] = entries;  // those the pairs name
    c["sort_bits"] = sort_bits;
    c["retries"] = retries_;
    if (streamed) {
      c["copy_in_busy_ms"] = copy_busy_ms;
      c["map_busy_ms"] = map_busy_ms;
    }
    return result;
  }

 private:
  // Streamed: chunks of whole records of about chunk_kib KiB each (a record
  // longer than that is a chunk of its own). Else one chunk of every record.
  std::vector<Chunk> cut(const mapreduce::PreparedInput& in, bool streamed) {
    const std::uint32_t records = in.records();
    if (!streamed) return {Chunk{0, records}};
    const std::uint64_t nominal = std::uint64_t{options_.chunk_kib} * 1024;
    std::vector<Chunk> chunks;
    for (std::uint32_t first = 0; first < records;) {
      const auto from = in.offsets.begin() + first + 1;
      const auto to = in.offsets.begin() + records + 1;
      auto it = std::upper_bound(from, to, in.offsets[first] + nominal);
      auto last = static_cast<std::uint32_t>(it - in.offsets.begin()) - 1;
      last = std::max(last, first + 1);
      chunks.push_back({first, last});
      first = last;
    }
    return chunks;
  }

  Buffer& sums() { return pool_.get("sums", std::size_t{capacity_.entries} * 4 + 4); }
  Buffer& pair_counters() { return pool_.get("pairs.counters", HA_PAIRS_COUNTERS * 4); }
  Buffer& out_key() { return pool_.get("pairs.key", std::size_t{pair_capacity_} * 4); }
  Buffer& out_len() {
    return pool_.get("pairs.len", design_ == Design::pairs ? std::size_t{pair_capacity_} * 4 : 4);
  }
  Buffer& out_val(std::uint32_t vsize) {
    return pool_.get("pairs.val", std::size_t{pair_capacity_} * vsize);
  }
  Buffer& out_bytes() { return pool_.get("pairs.bytes", key_capacity_); }

  // Map over records chunk.first .. chunk.last, whose bytes start at `base`
  // of the input (0 resident) and lie in `input` from its start.
  // `defers`: long records may be mapped in a second pass (resident runs).
  void launch_map(backend::Queue& q, Buffer& input, Buffer& offsets, Chunk chunk,
                  std::uint32_t base, Buffer& side, std::uint32_t side_size, bool defers) {
    const std::uint32_t records = chunk.last - chunk.first;
    if (records == 0) return;
    const std::uint32_t groups = std::min<std::uint32_t>(
        options_.groups, (records + options_.group_size - 1) / options_.group_size);
    const LaunchShape shape{groups, options_.group_size};
    const blocks::HashTableCapacity& c = table_.capacity();
    if (design_ == Design::add) {
      q.launch(kernels_.map_add, shape, input, offsets, chunk.first, records, base, side, side_size,
               table_.slots(), table_.slot_mask(), options_.hash_mask, table_.entries(), c.entries,
               table_.keys(), c.key_bytes, table_.counters(), sums());
      return;
    }
    const std::uint32_t mode = design_ == Design::pairs ? HA_PAIRS_BYTES : HA_PAIRS_ENTRY;
    const std::uint32_t combine = options_.local && prepared_->has_reduce() ? 1u : 0u;
    // Resident: long records listed in the first pass and mapped in a second
    // (both in order on `q`; the second reads how many from the counters).
    // Streamed chunks map concurrently on their lanes and share the counters,
    // so they map every record in one pass.
    const std::uint32_t long_record = defers ? options_.long_record : 0u;
    const std::uint32_t deferred_capacity = long_record != 0 ? std::max(records / 8, 1024u) : 1u;
    Buffer& deferred = pool_.get("pairs.deferred", std::size_t{deferred_capacity} * 4);
    for (std::uint32_t pass = 0; pass < (long_record != 0 ? 2u : 1u); ++pass) {
      q.launch(kernels_.map_pairs, shape, input, offsets, chunk.first, records, base, side,
               side_size, mode, combine, table_.slots(), table_.slot_mask(), options_.hash_mask,
               table_.entries(), c.entries, table_.keys(), c.key_bytes, table_.counters(),
               pair_counters(), pair_capacity_, key_capacity_, out_key(), out_len(),
               out_val(prepared_->value_size()), out_bytes(), long_record, deferred,
               deferred_capacity, pass);
    }
  }

  // True when the table and the pair buffers held the map's output; else
  // grows what was short (RunError when it cannot grow).
  bool fits(const blocks::HashTableUsage& used, const std::uint32_t* counters) {
    if (counters[HA_PAIRS_COUNTER_WRAPPED] != 0) {
      throw RunError(name() + ": the map output reaches 4 GiB / 2^32 pairs, the limit of its " +
                     "32-bit offsets");
    }
    bool ok = true;
    if (!table_.fits(used)) {
      capacity_ = table_.grown_or_throw(used, name());
      ok = false;
    }
    if (counters[HA_PAIRS_COUNTER_PAIRS] > pair_capacity_) {
      pair_capacity_ = grown(counters[HA_PAIRS_COUNTER_PAIRS]);
      ok = false;
    }
    if (counters[HA_PAIRS_COUNTER_KEY_BYTES] > key_capacity_) {
      key_capacity_ = grown(counters[HA_PAIRS_COUNTER_KEY_BYTES]);
      ok = false;
    }
    return ok;
  }

  backend::Device& device_;
  Options options_;
  blocks::BufferPool pool_;
  blocks::GlobalHashTable table_;
  std::shared_ptr<backend::Program> program_;
  std::unique_ptr<blocks::RadixSort> radix_;
  std::unique_ptr<blocks::LineSplit> line_split_;          // records found on the device
  std::unique_ptr<blocks::RecordOffsets> record_offsets_;  // fixed-size records' offsets
  std::unique_ptr<blocks::DenseIds> dense_;                // grouped: the entries pairs name
  Kernels kernels_;
  Design design_ = Design::pairs;
  const apps::MapReduceApp* prepared_ = nullptr;
  blocks::CopyComputePipeline pipeline_;                // the pipelined variant's lanes
  blocks::HashTableCapacity capacity_;                  // the largest table needed so far
  std::uint32_t pair_capacity_ = 0, key_capacity_ = 0;  // likewise, the pair output
  HostOutput host_;  // where copy_out lands, kept from run to run (host_output.h)
  std::uint32_t retries_ = 0;
};

}  // namespace

std::unique_ptr<mapreduce::Runtime> make_records_runtime(backend::Device& device,
                                                         const Options& options) {
  return std::make_unique<RecordsRuntime>(device, options);
}

}  // namespace harness::hashagg
