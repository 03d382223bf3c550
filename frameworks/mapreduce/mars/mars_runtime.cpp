#include "frameworks/mapreduce/mars/mars_runtime.h"

#include <algorithm>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/radix_sort.h"
#include "frameworks/blocks/scan.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/mapreduce_program.h"
#include "frameworks/mapreduce/mars/scoped_span.h"
#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"
#include "harness/dialect/dialect.h"
// The kernels' data layout, shared with this file.
#include "frameworks/mapreduce/mars/kernels/mars_types.clh"

namespace harness::mars {
namespace {

using backend::Buffer;
using backend::LaunchShape;

using Record = MarsRecord;
using OutRecord = MarsOutRecord;
static_assert(sizeof(Record) == 16 && sizeof(OutRecord) == 8,
              "the kernels index these structs with 32-bit fields and no padding");
constexpr std::uint32_t kSortTile = MARS_SORT_TILE;
constexpr std::uint32_t kSortGroup = 256;  // work-items of the global bitonic steps

std::uint32_t next_pow2(std::uint32_t n) {
  std::uint32_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

// Totals of the count passes; saturated counts (mars_emit.clh) and scan
// overflow (Scan::kOverflow) both land at 2^32 - 1 or above.
std::uint32_t checked_u32(std::uint64_t v, const char* what) {
  if (v >= 0xffffffffULL) {
    throw RunError(std::string("mars: ") + what +
                   " reach 4 GiB / 2^32 entries, the limit of its 32-bit offsets (chunked runs "
                   "are not implemented yet)");
  }
  return static_cast<std::uint32_t>(v);
}

// The bitonic sort pads the index to a power of two held in 32 bits.
constexpr std::uint32_t kMaxPairs = std::uint32_t{1} << 31;

// Bytes of the directory index of `pairs` records, padded for the bitonic sort.
std::size_t index_bytes(std::uint32_t pairs) {
  return std::size_t{std::max<std::uint32_t>(2, next_pow2(pairs))} * sizeof(Record);
}

// Where map wrote its pairs.
struct Intermediate {
  std::uint32_t key_bytes = 0;
  std::uint32_t pairs = 0;
};

// What map reads, on the device.
struct MapInput {
  Buffer& input;
  Buffer& offsets;
  std::uint32_t records;
  Buffer& side;
  std::uint32_t side_size;
  std::size_t input_bytes;
};

// AtomicMR's global counters (MARS_COUNTER_*), read back after a kernel.
struct Counters {
  std::uint32_t v[MARS_COUNTERS] = {};
  std::uint32_t key_bytes() const { return v[MARS_COUNTER_KEY_BYTES]; }
  std::uint32_t pairs() const { return v[MARS_COUNTER_PAIRS]; }
};

// The program's kernels, looked up by name once at prepare time (a missing
// kernel fails there, naming it, not at the first launch).
struct Kernels {
  backend::Kernel map_count, map_emit, bitonic_step, bitonic_tile, mark_groups, group_starts,
      reduce_count, reduce_emit, radix_keys, radix_gather_hash, radix_gather, radix_collisions,
      intermediate_out, map_atomic_thread, map_atomic_warp, reduce_atomic;
  static Kernels look_up(backend::Program& p) {
    return {p.kernel("mars_map_count"),        p.kernel("mars_map_emit"),
            p.kernel("mars_bitonic_step"),     p.kernel("mars_bitonic_tile"),
            p.kernel("mars_mark_groups"),      p.kernel("mars_group_starts"),
            p.kernel("mars_reduce_count"),     p.kernel("mars_reduce_emit"),
            p.kernel("mars_radix_keys"),       p.kernel("mars_radix_gather_hash"),
            p.kernel("mars_radix_gather"),     p.kernel("mars_radix_collisions"),
            p.kernel("mars_intermediate_out"), p.kernel("mars_map_atomic_thread"),
            p.kernel("mars_map_atomic_warp"),  p.kernel("mars_reduce_atomic")};
  }
};

class Mars final : public mapreduce::Runtime {
 public:
  Mars(backend::Device& device, Options options)
      : device_(device), options_(options), pool_(device) {
    if (options_.groups == 0) {
      options_.groups = static_cast<std::uint32_t>(std::max(1, device.info().compute_units * 16));
    }
    if (options_.warp == 0) {
      options_.warp =
          device.info().warp_size > 0 ? static_cast<std::uint32_t>(device.info().warp_size) : 32u;
    }
    // A warp never spans work-groups (both are powers of two).
    options_.warp = std::min(options_.warp, options_.group_size);
  }

  void prepare(const apps::MapReduceApp& app) override {
    if (!options_.sort && app.has_reduce()) {
      throw UsageError(
          "mars: sort=0 (noSort) leaves equal keys apart, so it runs map-only apps "
          "only, not '" +
          app.name() + "'");
    }
    if (options_.reserve == Reserve::atomic_warp) {
      key_size_ = app.map_emits_one_key_size();
      if (key_size_ == 0) {
        throw UsageError(
            "atomicmr/warp reserves one pair per map call with one atomic per warp, so it runs "
            "apps whose map emits exactly one pair with a fixed key size (APP_MAP_EMITS_ONE and "
            "APP_KEY_SIZE in " +
            app.types_file() + "), not '" + app.name() +
            "': run it with atomicmr/thread (S0 also reserved per thread for string match)");
      }
    }
    program_ = device_.build(mapreduce::mapreduce_program("mars", app));
    scan_ = std::make_unique<blocks::Scan>(pool_);
    if (options_.radix) radix_ = std::make_unique<blocks::RadixSort>(pool_);
    kernels_ = Kernels::look_up(*program_);
  }

  std::string name() const override {
    return options_.reserve == Reserve::counted ? "mars" : "atomicmr";
  }

  mapreduce::RunResult run_records(const apps::MapReduceApp& app,
                                   const mapreduce::PreparedInput& in, std::uint32_t first,
                                   std::uint32_t last) override {
    auto& q = device_.queue();
    mapreduce::RunResult result;
    Stopwatch total;
    const LaunchShape tasks{options_.groups, options_.group_size};
    const std::uint32_t threads = tasks.groups * tasks.group_size;
    const std::uint32_t coalesced = options_.coalesced ? 1u : 0u;
    const std::uint8_t* input = in.data;
    const std::size_t size = in.size;
    // Offsets of records [first, last): positions in the whole input, which
    // is copied whole (an app may read side data that indexes all of it).
    const std::uint32_t records = last - first;
    const std::uint32_t* offsets = in.offsets.data() + first;
    const std::size_t offset_bytes = (std::size_t{records} + 1) * 4;
    const std::vector<std::uint8_t>& side = in.side;
    const std::uint32_t side_size = checked_u32(side.size(), "side data");

    Buffer& d_input = pool_.get("input", size);
    Buffer& d_offsets = pool_.get("offsets", offset_bytes);
    Buffer& d_side = pool_.get("side", side.size());
    q.begin_span("copy_in");
    q.write(d_input, 0, input, size);
    q.write(d_offsets, 0, offsets, offset_bytes);
    if (!side.empty()) q.write(d_side, 0, side.data(), side.size());
    q.end_span();

    const MapInput map_in{d_input, d_offsets, records, d_side, side_size, size};
    atomics_ = 0;
    retries_ = 0;
    const Intermediate im = options_.reserve == Reserve::counted ? map_counted(app, map_in, tasks)
                                                                 : map_atomic(app, map_in, tasks);
    const std::uint32_t key_bytes = im.key_bytes, pairs = im.pairs;
    const std::uint32_t padded = std::max<std::uint32_t>(2, next_pow2(pairs));
    Buffer& keys = pool_.get("keys", key_bytes);
    Buffer& recs = pool_.get("recs", index_bytes(pairs));
    Buffer& vals = pool_.get("vals", std::size_t{pairs} * app.value_size());

    if (options_.sort) {
      q.begin_span("sort");
      if (options_.radix) {
        radix_sort(recs, keys, pairs, padded);
      } else {
        sort(recs, keys, padded);
      }
      q.end_span();
    }

    std::vector<OutRecord> out_recs;
    std::vector<char> out_keys, out_vals;
    std::uint64_t copied_out = 0;
    if (app.has_reduce()) {
      copied_out = reduce(app, pairs, keys, recs, vals, d_side, side_size, tasks, coalesced,
                          out_recs, out_keys, out_vals);
    } else {
      copied_out = copy_out_intermediate(app, pairs, key_bytes, keys, recs, vals, out_recs,
                                         out_keys, out_vals);
    }
    result.measurement.total_ms = total.elapsed_ms();
    for (auto& span : q.take_spans())
      result.measurement.phases.push_back({span.name, span.milliseconds});

    result.output.reserve(out_recs.size());
    const std::uint32_t vsize = app.has_reduce() ? app.output_value_size() : app.value_size();
    for (std::size_t i = 0; i < out_recs.size(); ++i) {
      result.output.emplace_back(
          std::string(out_keys.data() + out_recs[i].key_off, out_recs[i].key_len),
          std::string(out_vals.data() + i * vsize, vsize));
    }
    order_output(app, result.output);

    // Declared work: the map phase reads the input and writes the keys,
    // directory index and values; copies in and out cross the host link (the
    // output lands in std::vectors: pageable memory, judged by that ceiling).
    result.work.items("records", records)
        .items("intermediate_pairs", pairs)
        .reads(level::h2d, size + offset_bytes + side.size(), "copy_in")
        .reads(level::dram, size, "map")
        .writes(
            level::dram,
            std::uint64_t{key_bytes} + std::uint64_t{pairs} * (sizeof(Record) + app.value_size()),
            "map")
        .writes(level::d2h, copied_out, "copy_out", "d2h_pageable");
    result.measurement.counters["threads"] = threads;
    result.measurement.counters["sort_launches"] = sort_launches_;
    if (options_.radix) result.measurement.counters["hash_collisions"] = collisions_;
    result.measurement.counters["intermediate_key_bytes"] = key_bytes;
    if (options_.reserve != Reserve::counted) {
      result.measurement.counters["atomics"] = static_cast<double>(atomics_);
      result.measurement.counters["retries"] = retries_;
    }
    return result;
  }

 private:
  // Mars' map: a count pass and prefix sums give each thread its key and pair
  // offsets, then the emit pass writes there (phases map_count, map).
  Intermediate map_counted(const apps::MapReduceApp& app, const MapInput& in, LaunchShape tasks) {
    auto& q = device_.queue();
    const std::uint32_t threads = tasks.groups * tasks.group_size;
    const std::uint32_t coalesced = options_.coalesced ? 1u : 0u;
    Buffer& key_off = pool_.get("map.key_offsets", std::size_t{threads} * 4);
    Buffer& pair_off = pool_.get("map.pair_offsets", std::size_t{threads} * 4);
    q.begin_span("map_count");
    q.launch(kernels_.map_count, tasks, in.input, in.offsets, in.records, coalesced, in.side,
             in.side_size, key_off, pair_off);
    Intermediate im;
    im.key_bytes = checked_u32(scan_->exclusive(key_off, threads), "intermediate keys");
    im.pairs = checked_u32(scan_->exclusive(pair_off, threads), "intermediate pairs");
    q.end_span();
    check_sortable(im.pairs);

    Buffer& keys = pool_.get("keys", im.key_bytes);
    Buffer& recs = pool_.get("recs", index_bytes(im.pairs));
    Buffer& vals = pool_.get("vals", std::size_t{im.pairs} * app.value_size());
    q.begin_span("map");
    q.launch(kernels_.map_emit, tasks, in.input, in.offsets, in.records, coalesced, in.side,
             in.side_size, key_off, pair_off, keys, recs, vals, options_.vector_loads ? 1u : 0u);
    pad_index(recs, im.pairs);
    q.end_span();
    return im;
  }

  // AtomicMR's map (phase map): no count pass; output space reserved with
  // global atomics in buffers sized ahead. Per warp the size is exact
  // (records pairs of key_size_ bytes); per thread it is a guess (the largest
  // seen so far, at least the input's bytes of keys and a pair per 8 input
  // bytes or per record): when the counters end past it, the buffers grow to
  // their totals and map runs again (counter `retries`).
  Intermediate map_atomic(const apps::MapReduceApp& app, const MapInput& in, LaunchShape tasks) {
    auto& q = device_.queue();
    const bool per_warp = options_.reserve == Reserve::atomic_warp;
    const std::uint32_t coalesced = options_.coalesced ? 1u : 0u;
    const std::uint32_t vector_loads = options_.vector_loads ? 1u : 0u;
    Buffer& counters = pool_.get("atomic.counters", sizeof(Counters));
    if (per_warp) {
      pair_capacity_ = in.records;
      key_capacity_ = checked_u32(std::uint64_t{in.records} * key_size_, "intermediate keys");
    } else {
      const std::uint64_t bytes = std::max<std::uint64_t>(in.input_bytes, 64);
      key_capacity_ = std::max(key_capacity_, checked_u32(bytes, "intermediate keys"));
      pair_capacity_ =
          std::max({pair_capacity_, in.records, static_cast<std::uint32_t>(bytes / 8)});
    }
    mapreduce::ScopedSpan span(q, "map");
    for (;;) {
      Buffer& keys = pool_.get("keys", key_capacity_);
      Buffer& recs = pool_.get("recs", index_bytes(pair_capacity_));
      Buffer& vals = pool_.get("vals", std::size_t{pair_capacity_} * app.value_size());
      q.fill_zero(counters, 0, sizeof(Counters));
      if (per_warp) {
        q.launch(kernels_.map_atomic_warp, tasks, in.input, in.offsets, in.records, coalesced,
                 in.side, in.side_size, counters, keys, recs, vals, vector_loads, options_.warp);
      } else {
        q.launch(kernels_.map_atomic_thread, tasks, in.input, in.offsets, in.records, coalesced,
                 in.side, in.side_size, counters, key_capacity_, pair_capacity_, keys, recs, vals,
                 vector_loads);
      }
      const Counters c = read_counters(counters, "intermediate keys or pairs");
      if (c.v[MARS_COUNTER_BROKEN] != 0) {
        throw RunError("atomicmr/warp: app '" + app.name() +
                       "' declares APP_MAP_EMITS_ONE and APP_KEY_SIZE " +
                       std::to_string(key_size_) +
                       ", but a map call emitted no pair, two, or a key of another size");
      }
      Intermediate im;
      im.pairs = checked_u32(c.pairs(), "intermediate pairs");
      if (per_warp) {
        im.key_bytes = im.pairs * key_size_;
        atomics_ += warp_reservations(in.records, tasks);
      } else {
        im.key_bytes = checked_u32(c.key_bytes(), "intermediate keys");
        atomics_ += 2 * std::uint64_t{im.pairs};  // key bytes and pair, per emit
      }
      check_sortable(im.pairs);
      if (im.pairs <= pair_capacity_ && im.key_bytes <= key_capacity_) {
        pad_index(pool_.get("recs", index_bytes(pair_capacity_)), im.pairs);
        span.end();
        return im;
      }
      key_capacity_ = std::max(key_capacity_, im.key_bytes);
      pair_capacity_ = std::max(pair_capacity_, im.pairs);
      ++retries_;
    }
  }

  // Warp-rounds of mars_map_atomic_warp with at least one record: its atomics.
  std::uint64_t warp_reservations(std::uint32_t records, LaunchShape tasks) const {
    const std::uint64_t threads = std::uint64_t{tasks.groups} * tasks.group_size;
    const std::uint64_t warp = options_.warp;
    if (options_.coalesced)
      return (records + warp - 1) / warp;  // round k's records are k*T ... k*T + T - 1
    // Chunked: lane t takes records t*per ... t*per + per - 1, a warp's first lane the most.
    const std::uint64_t per = (records + threads - 1) / threads;
    std::uint64_t n = 0;
    for (std::uint64_t first = 0; first < threads; first += warp) {
      n += std::min(per, records > first * per ? records - first * per : 0);
    }
    return n;
  }

  // Reads AtomicMR's counters after a kernel; a counter that passed 2^32 is an error.
  Counters read_counters(Buffer& counters, const char* what) {
    auto& q = device_.queue();
    Counters c;
    q.read(c.v, counters, 0, sizeof(c.v));
    q.finish();
    if (c.v[MARS_COUNTER_WRAPPED] != 0) checked_u32(std::uint64_t{1} << 32, what);
    return c;
  }

  void check_sortable(std::uint32_t pairs) const {
    if (pairs > kMaxPairs) {
      throw RunError(name() + ": " + std::to_string(pairs) +
                     " intermediate pairs exceed the bitonic sort's limit of 2^31");
    }
  }

  // Sentinel records from `pairs` up to the bitonic sort's power of two.
  void pad_index(Buffer& recs, std::uint32_t pairs) {
    const std::uint32_t padded = std::max<std::uint32_t>(2, next_pow2(pairs));
    if (padded == pairs) return;
    padding_.assign(padded - pairs, Record{0, MARS_SENTINEL, MARS_SENTINEL, 0});
    device_.queue().write(recs, std::size_t{pairs} * sizeof(Record), padding_.data(),
                          padding_.size() * sizeof(Record));
  }

  // The sorted intermediate data and its key groups, as reduce reads them.
  struct ReduceInput {
    Buffer& recs;
    Buffer& keys;
    Buffer& vals;
    Buffer& starts;
    std::uint32_t groups;
    Buffer& side;
    std::uint32_t side_size;
  };

  // Mars' reduce output: count pass, prefix sums, emit pass.
  Intermediate reduce_counted(const apps::MapReduceApp& app, const ReduceInput& in,
                              LaunchShape tasks, std::uint32_t coalesced) {
    auto& q = device_.queue();
    const std::uint32_t threads = tasks.groups * tasks.group_size;
    Buffer& key_off = pool_.get("reduce.key_offsets", std::size_t{threads} * 4);
    Buffer& out_off = pool_.get("reduce.out_offsets", std::size_t{threads} * 4);
    q.launch(kernels_.reduce_count, tasks, in.recs, in.keys, in.vals, in.starts, in.groups,
             coalesced, in.side, in.side_size, key_off, out_off);
    Intermediate out;
    out.key_bytes = checked_u32(scan_->exclusive(key_off, threads), "output keys");
    out.pairs = checked_u32(scan_->exclusive(out_off, threads), "outputs");
    q.launch(kernels_.reduce_emit, tasks, in.recs, in.keys, in.vals, in.starts, in.groups,
             coalesced, in.side, in.side_size, key_off, out_off,
             pool_.get("out.keys", out.key_bytes),
             pool_.get("out.recs", std::size_t{out.pairs} * sizeof(OutRecord)),
             pool_.get("out.vals", std::size_t{out.pairs} * app.output_value_size()));
    return out;
  }

  // AtomicMR's reduce output: every emit reserves its place with global
  // atomics, in buffers sized for one output per key group with the
  // intermediate keys' bytes (the largest seen so far), grown and run again
  // when short.
  Intermediate reduce_atomic(const apps::MapReduceApp& app, const ReduceInput& in,
                             LaunchShape tasks, std::uint32_t coalesced) {
    Buffer& counters = pool_.get("atomic.counters", sizeof(Counters));
    out_capacity_ = std::max(out_capacity_, in.groups);
    out_key_capacity_ = std::max<std::uint32_t>(
        out_key_capacity_,
        static_cast<std::uint32_t>(std::min<std::size_t>(in.keys.size(), 0xfffffffeu)));
    for (;;) {
      device_.queue().fill_zero(counters, 0, sizeof(Counters));
      device_.queue().launch(
          kernels_.reduce_atomic, tasks, in.recs, in.keys, in.vals, in.starts, in.groups, coalesced,
          in.side, in.side_size, counters, out_key_capacity_, out_capacity_,
          pool_.get("out.keys", out_key_capacity_),
          pool_.get("out.recs", std::size_t{out_capacity_} * sizeof(OutRecord)),
          pool_.get("out.vals", std::size_t{out_capacity_} * app.output_value_size()));
      const Counters c = read_counters(counters, "output keys or outputs");
      Intermediate out;
      out.key_bytes = checked_u32(c.key_bytes(), "output keys");
      out.pairs = checked_u32(c.pairs(), "outputs");
      atomics_ += 2 * std::uint64_t{out.pairs};
      if (out.pairs <= out_capacity_ && out.key_bytes <= out_key_capacity_) return out;
      out_capacity_ = std::max(out_capacity_, out.pairs);
      out_key_capacity_ = std::max(out_key_capacity_, out.key_bytes);
      ++retries_;
    }
  }

  // Bitonic sort of `padded` (a power of two) records. Steps whose distance j
  // stays inside a tile run in local memory (mars_bitonic_tile); the others
  // are one global launch each (mars_bitonic_step).
  void sort(Buffer& recs, Buffer& keys, std::uint32_t padded) {
    auto& q = device_.queue();
    // MARS_SORT_HASH | MARS_SORT_VECTOR (kernels/mars_kernels.cl).
    const std::uint32_t flags = (options_.hash_keys ? 1u : 0u) | (options_.vector_loads ? 2u : 0u);
    const std::uint32_t half = padded / 2;
    sort_launches_ = 0;
    auto global_step = [&](std::uint32_t j, std::uint32_t k) {
      q.launch(kernels_.bitonic_step, LaunchShape::cover(half, kSortGroup), recs, keys, half, j, k,
               flags);
      ++sort_launches_;
    };
    if (padded < kSortTile) {
      for (std::uint32_t k = 2; k <= padded; k <<= 1) {
        for (std::uint32_t j = k >> 1; j > 0; j >>= 1) global_step(j, k);
      }
      return;
    }
    const LaunchShape tiles{padded / kSortTile, kSortTile / 2};
    q.launch(kernels_.bitonic_tile, tiles, recs, keys, 0u, flags);
    ++sort_launches_;
    for (std::uint32_t k = kSortTile * 2; k <= padded; k <<= 1) {
      for (std::uint32_t j = k >> 1; j >= kSortTile; j >>= 1) global_step(j, k);
      q.launch(kernels_.bitonic_tile, tiles, recs, keys, k, flags);
      ++sort_launches_;
    }
  }

  // mars/radix: records ordered by (FNV-1a hash, second hash) with two
  // stable radix sorts of 32 bits each (low word first), then gathered. If
  // two different keys share both hashes (mars_radix_collisions), their
  // records may interleave, and the bitonic sort orders them by bytes.
  void radix_sort(Buffer& recs, Buffer& keys, std::uint32_t pairs, std::uint32_t padded) {
    auto& q = device_.queue();
    const std::size_t words = std::size_t{pairs} * 4;
    Buffer& hashes = pool_.get("radix.hashes", words);
    Buffer& order = pool_.get("radix.order", words);
    Buffer& sorted = pool_.get("radix.sorted", std::size_t{pairs} * sizeof(Record));
    Buffer& collisions = pool_.get("radix.collisions", 4);
    const LaunchShape each = LaunchShape::cover(pairs, kSortGroup);
    collisions_ = 0;
    sort_launches_ = 0;
    if (pairs < 2) return;
    q.launch(kernels_.radix_keys, each, recs, keys, pairs, options_.radix_hash2_mask, hashes,
             order);
    radix_->sort_pairs(hashes, order, pairs);
    q.launch(kernels_.radix_gather_hash, each, recs, order, pairs, hashes);
    radix_->sort_pairs(hashes, order, pairs);
    q.launch(kernels_.radix_gather, each, recs, order, pairs, sorted);
    q.copy(recs, 0, sorted, 0, std::size_t{pairs} * sizeof(Record));
    q.write(collisions, 0, &collisions_, 4);
    q.launch(kernels_.radix_collisions, each, recs, keys, pairs, options_.radix_hash2_mask,
             collisions);
    q.read(&collisions_, collisions, 0, 4);
    q.finish();
    if (collisions_ > 0) sort(recs, keys, padded);
  }

  // Returns the bytes copied back to the host.
  std::uint64_t reduce(const apps::MapReduceApp& app, std::uint32_t pairs, Buffer& keys,
                       Buffer& recs, Buffer& vals, Buffer& side, std::uint32_t side_size,
                       LaunchShape tasks, std::uint32_t coalesced, std::vector<OutRecord>& out_recs,
                       std::vector<char>& out_keys, std::vector<char>& out_vals) {
    auto& q = device_.queue();
    Buffer& flags = pool_.get("group.flags", std::size_t{pairs} * 4 + 4);
    Buffer& ids = pool_.get("group.ids", std::size_t{pairs} * 4 + 4);
    mapreduce::ScopedSpan span(q, "reduce");
    std::uint32_t groups = 0;
    if (pairs > 0) {
      q.launch(kernels_.mark_groups, LaunchShape::cover(pairs, kSortGroup), recs, keys, pairs,
               flags);
      q.copy(ids, 0, flags, 0, std::size_t{pairs} * 4);
      groups = static_cast<std::uint32_t>(scan_->exclusive(ids, pairs));
    }
    Buffer& starts = pool_.get("group.starts", std::size_t{groups} * 4 + 4);
    q.write(starts, std::size_t{groups} * 4, &pairs, 4);
    Intermediate out;
    if (groups > 0) {
      q.launch(kernels_.group_starts, LaunchShape::cover(pairs, kSortGroup), flags, ids, pairs,
               starts);
      const ReduceInput in{recs, keys, vals, starts, groups, side, side_size};
      out = options_.reserve == Reserve::counted ? reduce_counted(app, in, tasks, coalesced)
                                                 : reduce_atomic(app, in, tasks, coalesced);
    }
    const std::uint32_t out_key_bytes = out.key_bytes, outputs = out.pairs;
    Buffer& d_out_keys = pool_.get("out.keys", out_key_bytes);
    Buffer& d_out_recs = pool_.get("out.recs", std::size_t{outputs} * sizeof(OutRecord));
    Buffer& d_out_vals = pool_.get("out.vals", std::size_t{outputs} * app.output_value_size());
    span.end();

    q.begin_span("copy_out");
    out_recs.resize(outputs);
    out_keys.resize(out_key_bytes);
    out_vals.resize(std::size_t{outputs} * app.output_value_size());
    q.read(out_recs.data(), d_out_recs, 0, out_recs.size() * sizeof(OutRecord));
    q.read(out_keys.data(), d_out_keys, 0, out_keys.size());
    q.read(out_vals.data(), d_out_vals, 0, out_vals.size());
    q.end_span();
    q.finish();
    return out_recs.size() * sizeof(OutRecord) + out_keys.size() + out_vals.size();
  }

  // noReduce: the intermediate pairs (sorted unless noSort) are the output,
  // laid out on the device as the host keeps it (mars_intermediate_out) and
  // read straight into the output arrays. Returns the bytes copied back.
  std::uint64_t copy_out_intermediate(const apps::MapReduceApp& app, std::uint32_t pairs,
                                      std::uint32_t key_bytes, Buffer& keys, Buffer& recs,
                                      Buffer& vals, std::vector<OutRecord>& out_recs,
                                      std::vector<char>& out_keys, std::vector<char>& out_vals) {
    auto& q = device_.queue();
    const std::size_t value_bytes = std::size_t{pairs} * app.value_size();
    Buffer& d_out_recs = pool_.get("out.recs", std::size_t{pairs} * sizeof(OutRecord));
    Buffer& d_out_vals = pool_.get("out.vals", value_bytes);
    out_recs.resize(pairs);
    out_keys.resize(key_bytes);
    out_vals.resize(value_bytes);
    q.begin_span("copy_out");
    if (pairs > 0) {
      q.launch(kernels_.intermediate_out, LaunchShape::cover(pairs, kSortGroup), recs, vals, pairs,
               d_out_recs, d_out_vals);
    }
    q.read(out_recs.data(), d_out_recs, 0, out_recs.size() * sizeof(OutRecord));
    q.read(out_keys.data(), keys, 0, out_keys.size());
    q.read(out_vals.data(), d_out_vals, 0, out_vals.size());
    q.end_span();
    q.finish();
    return out_recs.size() * sizeof(OutRecord) + out_keys.size() + out_vals.size();
  }

  backend::Device& device_;
  Options options_;
  blocks::BufferPool pool_;
  std::shared_ptr<backend::Program> program_;
  std::unique_ptr<blocks::Scan> scan_;
  std::unique_ptr<blocks::RadixSort> radix_;
  Kernels kernels_;
  std::vector<Record> padding_;
  std::uint32_t sort_launches_ = 0;
  std::uint32_t collisions_ = 0;
  // AtomicMR: the app's key size (atomic_warp), atomics issued and retries in
  // the last run, and the capacities learnt so far.
  std::uint32_t key_size_ = 0;
  std::uint64_t atomics_ = 0;
  std::uint32_t retries_ = 0;
  std::uint32_t key_capacity_ = 0, pair_capacity_ = 0, out_capacity_ = 0, out_key_capacity_ = 0;
};

}  // namespace

ParamDecls params() {
  return {
      bool_param("hash_keys", true, "compare 32-bit key hashes first in the sort"),
      bool_param("coalesced", true, "thread t takes records t, t+T, ... (else a contiguous chunk)"),
      bool_param("sort", true, "sort the map output (0: Mars' noSort, map-only apps)"),
      bool_param("radix", false, "group by a radix sort of 64-bit key hashes, not bitonic sort"),
      bool_param("vector_loads", false, "keys read and compared a 4-byte word at a time"),
      unsigned_param("groups", 0, 0, UINT32_MAX,
                     "work-groups for map and reduce; 0: 16 per compute unit"),
      pow2_param("group_size", 128, 1, MARS_MAX_GROUP_SIZE, "work-items per work-group"),
  };
}

ParamDecls atomic_params() {
  return {
      choice_param("reserve", "counted", {"counted", "atomic_thread", "atomic_warp"},
                   "how output places are reserved: count pass, an atomic per emit or per warp"),
      pow2_param("warp", 0, 1, MARS_MAX_GROUP_SIZE, "atomic_warp: lanes per reservation",
                 "the device's warp width"),
  };
}

Options options_from(const Params& p) {
  check_params(params(), p);
  check_params(atomic_params(), p);
  Options o;
  o.hash_keys = param_bool(p, "hash_keys");
  o.coalesced = param_bool(p, "coalesced");
  o.sort = param_bool(p, "sort");
  o.vector_loads = param_bool(p, "vector_loads");
  o.radix = param_bool(p, "radix");
  o.groups = param_u32(p, "groups");
  o.group_size = param_u32(p, "group_size");
  if (p.count("reserve") != 0) {
    const std::string& reserve = param_string(p, "reserve");
    o.reserve = reserve == "atomic_thread" ? Reserve::atomic_thread
                : reserve == "atomic_warp" ? Reserve::atomic_warp
                                           : Reserve::counted;
  }
  if (p.count("warp") != 0) o.warp = param_u32(p, "warp");
  return o;
}

std::unique_ptr<mapreduce::Runtime> make_runtime(backend::Device& device, const Options& options) {
  return std::make_unique<Mars>(device, options);
}

void register_variants() {
  const std::vector<mapreduce::VariantRow> rows = {
      {"default",
       "count + prefix-sum output, bitonic sort with key hashing, coalesced task assignment",
       {}},
      {"sort",
       "as default without key hashing: the sort compares key bytes (mars.fig6 baseline)",
       {{"hash_keys", "0"}}},
      {"no-coalesce",
       "as default with each thread taking a contiguous chunk of records (mars.fig7 baseline)",
       {{"coalesced", "0"}}},
      {"no-sort",
       "as default without the sort (Mars' noSort): map-only apps only",
       {{"sort", "0"}}},
      {"radix",
       "as default with the bitonic sort replaced by a device-wide LSD radix sort of 64-bit key "
       "hashes and a collision check (what the 2008 sort costs on today's GPUs)",
       {{"radix", "1"}}},
      {"vector",
       "as default with built-in vector loads: keys copied and compared a 4-byte word at a time "
       "(mars.fig8)",
       {{"vector_loads", "1"}}},
  };
  mapreduce::add_gpu_variant_rows(
      "mars", params(), rows,
      [](const Params& defaults, const apps::MapReduceApp& app) {
        const bool map_only = !app.has_reduce() && app.jobs().empty();
        return param_bool(defaults, "sort") || map_only;
      },
      [](backend::Device& device, const Params& p) {
        return make_runtime(device, options_from(p));
      });
}

}  // namespace harness::mars
