#include "frameworks/mapreduce/streammr/streammr_runtime.h"

#include <algorithm>
#include <cstring>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/scan.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/mapreduce_program.h"
#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"
#include "harness/dialect/dialect.h"
// The kernels' data layout, shared with this file.
#include "frameworks/mapreduce/streammr/kernels/streammr_types.clh"

namespace harness::streammr {
namespace {

using backend::Buffer;
using backend::LaunchShape;

static_assert(sizeof(SmrEntry) == 32 && sizeof(SmrBucket) == 8 && sizeof(SmrOutRecord) == 16 &&
                  sizeof(SmrPair) == 8,
              "the kernels index these structs with 32-bit fields and no padding");
constexpr std::uint32_t kDefaultWave = 32;
constexpr std::uint32_t kCleanupGroup = 256;
constexpr std::uint32_t kCompactGroup = 256;
// Default preallocation: one pair per record plus kSlackPairs per group, and
// kKeyBytesPerPair key bytes per preallocated pair plus kSlackKeyBytes.
constexpr std::uint32_t kSlackPairs = 16;
constexpr std::uint32_t kKeyBytesPerPair = 16;
constexpr std::uint32_t kSlackKeyBytes = 64;
// Work-groups of the compaction that stride over the overflow buffer, at most.
constexpr std::uint64_t kMaxOverflowCompactGroups = 1024;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

std::uint32_t checked_u32(std::uint64_t v, const char* what) {
  if (v >= 0xffffffffULL) {
    throw RunError(std::string("streammr: ") + what +
                   " reach 2^32, the limit of its 32-bit offsets (lower size_hint or key_hint)");
  }
  return static_cast<std::uint32_t>(v);
}

// With `image`, map and its second pass are the image kernels.
struct Kernels {
  backend::Kernel map, map_overflow, reduce, reduce_overflow, cleanup, tree_merge, compact;
  static Kernels look_up(backend::Program& p, bool image) {
    return {p.kernel(image ? "streammr_map_image" : "streammr_map"),
            p.kernel(image ? "streammr_map_image_overflow" : "streammr_map_overflow"),
            p.kernel("streammr_reduce"),
            p.kernel("streammr_reduce_overflow"),
            p.kernel("streammr_cleanup"),
            p.kernel("streammr_tree_merge"),
            p.kernel("streammr_compact")};
  }
};

// The per-work-group statistics rows (SMR_STAT_*) of one kernel, read back.
struct GroupStats {
  std::vector<std::uint32_t> words;
  std::uint32_t groups = 0;
  std::uint32_t at(int row, std::uint32_t g) const { return words[std::size_t(row) * groups + g]; }
  std::uint64_t sum(int row) const {
    std::uint64_t s = 0;
    for (std::uint32_t g = 0; g < groups; ++g) s += at(row, g);
    return s;
  }
};

// One output space of reduce: the preallocated regions of every work-group
// (`slots` pairs and `bytes` key bytes each) and the overflow buffer the
// second pass fills, on the host. Map-only output: the compacted pairs
// (SmrPair), values and key bytes in recs, vals and keys.
struct HostOutput {
  std::vector<std::uint8_t> recs, vals, keys, ovf_recs, ovf_vals, ovf_keys;
  std::vector<std::uint32_t> keep;  // reduce with cleanup: 1 per slot, then per overflow output
};

class StreamMR final : public mapreduce::Runtime {
 public:
  StreamMR(backend::Device& device, Options options)
      : device_(device), options_(options), pool_(device) {
    if (options_.groups == 0) {
      options_.groups = static_cast<std::uint32_t>(std::max(1, device.info().compute_units * 32));
    }
    wave_ = options_.wavefront;
    if (wave_ == 0) wave_ = device.info().warp_size > 0 ? device.info().warp_size : kDefaultWave;
    wave_ = std::min<std::uint32_t>(wave_, SMR_MAX_WAVE);
  }

  void prepare(const apps::MapReduceApp& app) override {
    if (options_.image && !app.has_image_path()) {
      throw UsageError("streammr: image=1 reads an app's matrices through images; '" + app.name() +
                       "' has no image path (matrixmult has)");
    }
    if (options_.image && device_.info().image2d_max_width == 0) {
      throw RunError("streammr: image=1 needs images, which " + device_.info().name +
                     " does not support");
    }
    program_ = device_.build(mapreduce::mapreduce_program("streammr", app));
    scan_ = std::make_unique<blocks::Scan>(pool_);
    kernels_ = Kernels::look_up(*program_, options_.image);
  }

  std::string name() const override { return "streammr"; }

  mapreduce::RunResult run_records(const apps::MapReduceApp& app,
                                   const mapreduce::PreparedInput& in, std::uint32_t first,
                                   std::uint32_t last) override {
    auto& q = device_.queue();
    mapreduce::RunResult result;
    Stopwatch total;
    const std::uint32_t groups = options_.groups, wave = wave_, buckets = options_.buckets;
    const std::uint32_t records = last - first;
    const std::uint32_t* offsets = in.offsets.data() + first;
    const std::size_t offset_bytes = (std::size_t{records} + 1) * 4;
    const std::uint32_t side_size = checked_u32(in.side.size(), "side data");
    const std::uint32_t vsize = app.value_size();
    const bool reduce_app = app.has_reduce();

    // The preallocated map output (S0 V.A.1: a user-defined size per group);
    // by default one pair per record (exact for MM and KMeans, enough for
    // string match) plus a little slack, and 16 key bytes per pair: apps that
    // emit more per record take the second pass unless size_hint says more.
    const std::uint64_t per_group = ceil_div(records, std::uint64_t{groups} * wave) * wave;
    const std::uint32_t cap_pairs =
        options_.size_hint ? options_.size_hint : checked_u32(per_group + kSlackPairs, "map slots");
    const std::uint32_t cap_bytes =
        options_.key_hint
            ? checked_u32(std::uint64_t{cap_pairs} * options_.key_hint, "map key bytes")
            : checked_u32(std::uint64_t{cap_pairs} * kKeyBytesPerPair + kSlackKeyBytes,
                          "map key bytes");
    const std::uint32_t primary =
        checked_u32(std::uint64_t{groups} * cap_pairs, "preallocated map slots");
    checked_u32(std::uint64_t{groups} * cap_bytes, "preallocated map key bytes");

    Buffer& d_input = pool_.get("input", in.size);
    Buffer& d_offsets = pool_.get("offsets", offset_bytes);
    Buffer& d_side = pool_.get("side", in.side.size());
    q.begin_span("copy_in");
    q.write(d_input, 0, in.data, in.size);
    q.write(d_offsets, 0, offsets, offset_bytes);
    if (!in.side.empty()) q.write(d_side, 0, in.side.data(), in.side.size());
    if (options_.image) write_images(app, in);
    q.end_span();

    Buffer& entries = pool_.get("map.entries", std::size_t{primary} * sizeof(SmrEntry));
    Buffer& vals = pool_.get("map.vals", std::size_t{primary} * vsize);
    Buffer& keys = pool_.get("map.keys", std::size_t{groups} * cap_bytes);
    Buffer& tables = pool_.get("map.tables", reduce_app ? std::size_t{groups} * buckets * 8 : 8);
    Buffer& spill = pool_.get("map.spill", std::size_t{groups} * per_group * 8 + 8);
    Buffer& stats = pool_.get("map.stats", std::size_t{groups} * SMR_STATS * 4);
    Buffer& pair_base = pool_.get("map.ovf_pair_base", std::size_t{groups} * 4);
    Buffer& byte_base = pool_.get("map.ovf_byte_base", std::size_t{groups} * 4);
    const std::uint32_t local_values =
        options_.local_values ? std::min(options_.local_values, wave) : wave;
    const std::uint32_t combine = options_.combine ? 1u : 0u;
    const LaunchShape map_shape{groups, wave};

    q.begin_span("map");
    {
      Buffer& none_e = pool_.get("map.ovf_entries", 1);
      Buffer& none_v = pool_.get("map.ovf_vals", 1);
      Buffer& none_k = pool_.get("map.ovf_keys", 1);
      launch_map(kernels_.map, map_shape, d_input, d_offsets, records, d_side, side_size, cap_pairs,
                 cap_bytes, tables, buckets, options_.hash_mask, combine, local_values,
                 backend::local_memory(std::size_t{local_values} * vsize), entries, vals, keys,
                 none_e, none_v, none_k, pair_base, byte_base, spill, stats);
    }
    q.end_span();
    GroupStats map_stats = read_stats(stats, groups);

    // Second pass: the spilled records' unwritten pairs, at offsets from the
    // prefix sums of the groups' counts.
    std::uint32_t ovf_pairs = 0, ovf_bytes = 0;
    if (map_stats.sum(SMR_STAT_OVF_PAIRS) > 0) {
      q.begin_span("overflow");
      ovf_pairs = prefix_sum_row(stats, SMR_STAT_OVF_PAIRS, groups, pair_base, "overflow pairs");
      ovf_bytes = prefix_sum_row(stats, SMR_STAT_OVF_BYTES, groups, byte_base, "overflow keys");
      checked_u32(std::uint64_t{primary} + ovf_pairs, "map pairs");
      Buffer& ovf_e = pool_.get("map.ovf_entries", std::size_t{ovf_pairs} * sizeof(SmrEntry));
      Buffer& ovf_v = pool_.get("map.ovf_vals", std::size_t{ovf_pairs} * vsize);
      Buffer& ovf_k = pool_.get("map.ovf_keys", ovf_bytes);
      launch_map(kernels_.map_overflow, map_shape, d_input, d_offsets, records, d_side, side_size,
                 cap_pairs, cap_bytes, tables, buckets, options_.hash_mask, combine, local_values,
                 backend::local_memory(std::size_t{local_values} * vsize), entries, vals, keys,
                 ovf_e, ovf_v, ovf_k, pair_base, byte_base, spill, stats);
      q.end_span();
      map_stats = read_stats(stats, groups);
    }
    Buffer& ovf_entries = pool_.get("map.ovf_entries", 1);
    Buffer& ovf_vals = pool_.get("map.ovf_vals", 1);
    Buffer& ovf_keys = pool_.get("map.ovf_keys", 1);

    const std::uint64_t written = map_stats.sum(SMR_STAT_WRITTEN);
    const std::uint64_t pairs = written + ovf_pairs;
    HostOutput out;
    std::uint64_t copied_out = 0;
    double reduce_overflow_pct = 0;
    if (reduce_app) {
      copied_out = reduce(app, map_stats, primary, entries, vals, keys, ovf_entries, ovf_vals,
                          ovf_keys, tables, d_side, side_size, out, reduce_overflow_pct);
    } else {
      copied_out = copy_out_map(app, cap_pairs, cap_bytes, ovf_pairs, ovf_bytes, entries, vals,
                                keys, ovf_entries, ovf_vals, ovf_keys, stats, out);
    }
    result.measurement.total_ms = total.elapsed_ms();
    for (auto& span : q.take_spans())
      result.measurement.phases.push_back({span.name, span.milliseconds});

    if (reduce_app) {
      collect(out, reduce_groups_, reduce_slots_, app.output_value_size(), result.output);
    } else {
      collect_map(out, vsize, result.output);
    }
    order_output(app, result.output);

    // Declared work: map reads the input and writes each pair's entry, value
    // and key; map-only output is compacted on the device (about as many bytes
    // read as written) before copies cross the host link (pageable memory, as
    // Mars).
    const std::uint64_t compacted = reduce_app ? 0 : copied_out;
    result.work.items("records", records)
        .items("intermediate_pairs", pairs)
        .reads(level::h2d, in.size + offset_bytes + in.side.size(), "copy_in")
        .reads(level::dram, in.size, "map")
        .writes(level::dram,
                pairs * (sizeof(SmrEntry) + vsize) + map_stats.sum(SMR_STAT_HEAD_BYTES), "map")
        .writes(level::d2h, copied_out, "copy_out", "d2h_pageable");
    if (compacted > 0) {
      result.work.reads(level::dram, compacted, "copy_out")
          .writes(level::dram, compacted, "copy_out");
    }
    auto& counters = result.measurement.counters;
    counters["wavefront"] = wave;
    counters["hash_tables"] = groups;
    counters["buckets"] = buckets;
    counters["map_slots_per_group"] = cap_pairs;
    counters["overflow_pct"] = pairs ? 100.0 * double(ovf_pairs) / double(pairs) : 0.0;
    counters["combine_rounds"] = map_stats.at(SMR_STAT_ROUNDS, 0);
    if (reduce_app) {
      counters["distinct_keys_in_tables"] = static_cast<double>(map_stats.sum(SMR_STAT_HEADS));
      counters["reduce_overflow_pct"] = reduce_overflow_pct;
      counters["tree_levels"] = tree_levels_;
    }
    return result;
  }

 private:
  // streammr/image: the input's matrices as images (kept between runs while
  // their shapes stay), written in the copy_in span. A matrix with no
  // elements (or an input without matrices) gets a 1 x 1 placeholder: the map
  // reads none of its texels.
  void write_images(const apps::MapReduceApp& app, const mapreduce::PreparedInput& in) {
    auto inputs = app.image_inputs(in.data, in.size);
    if (inputs.empty()) inputs.resize(2);
    if (inputs.size() != 2) {
      throw RunError("streammr: the image kernels take two images; " + app.name() + " has " +
                     std::to_string(inputs.size()));
    }
    static const float placeholder = 0.0f;
    images_.resize(2);
    for (std::size_t i = 0; i < 2; ++i) {
      apps::MapReduceApp::ImageInput m = inputs[i];
      if (m.width == 0 || m.height == 0) m = {1, 1, &placeholder};
      if (images_[i].width() != m.width || images_[i].height() != m.height) {
        images_[i] = device_.allocate_image_f32(m.width, m.height);
      }
      device_.queue().write_image(images_[i], m.texels);
    }
  }
  // A map kernel: `args`, then with `image` the two images (write_images).
  template <class... Args>
  void launch_map(const backend::Kernel& kernel, LaunchShape shape, const Args&... args) {
    std::vector<backend::KernelArg> all{backend::make_arg(args)...};
    if (options_.image) {
      for (const backend::Image2D& image : images_) all.push_back(backend::make_arg(image));
    }
    device_.queue().launch_args(kernel, shape, all);
  }

  GroupStats read_stats(Buffer& stats, std::uint32_t groups) {
    GroupStats s;
    s.groups = groups;
    s.words.resize(std::size_t{groups} * SMR_STATS);
    device_.queue().read(s.words.data(), stats, 0, s.words.size() * 4);
    device_.queue().finish();
    return s;
  }

  // bases = exclusive prefix sum over the groups of one statistics row (the
  // existing device Scan); returns the total.
  std::uint32_t prefix_sum_row(Buffer& stats, int row, std::uint32_t groups, Buffer& bases,
                               const char* what) {
    device_.queue().copy(bases, 0, stats, std::size_t(row) * groups * 4, std::size_t{groups} * 4);
    return checked_u32(scan_->exclusive(bases, groups), what);
  }

  // Reduce phase: optional tree merge, the reduce over every table (or table
  // 0 after the merge) into per-group output regions, its second pass, the
  // cleanup; then copy_out. Returns the bytes copied back.
  std::uint64_t reduce(const apps::MapReduceApp& app, const GroupStats& map_stats,
                       std::uint32_t primary, Buffer& entries, Buffer& vals, Buffer& keys,
                       Buffer& ovf_entries, Buffer& ovf_vals, Buffer& ovf_keys, Buffer& tables,
                       Buffer& side, std::uint32_t side_size, HostOutput& out,
                       double& overflow_pct) {
    auto& q = device_.queue();
    const std::uint32_t groups = options_.groups, wave = wave_, buckets = options_.buckets;
    const std::uint32_t osize = app.output_value_size();
    q.begin_span("reduce");
    std::uint32_t num_tables = groups;
    tree_levels_ = 0;
    if (options_.tree) {
      for (std::uint32_t stride = 1; stride < groups; stride *= 2) {
        const std::uint64_t tasks = ceil_div(groups, 2 * std::uint64_t{stride}) * buckets;
        q.launch(kernels_.tree_merge, LaunchShape::cover(tasks, kCleanupGroup), entries, vals, keys,
                 ovf_entries, ovf_vals, ovf_keys, primary, tables, buckets, groups, stride,
                 options_.combine ? 1u : 0u);
        ++tree_levels_;
      }
      num_tables = 1;
    }
    const std::uint32_t tasks = checked_u32(std::uint64_t{num_tables} * buckets, "reduce tasks");
    const std::uint32_t rgroups = static_cast<std::uint32_t>(ceil_div(tasks, wave));
    // Output regions sized from the keys in the tables: twice a group's share.
    const std::uint64_t heads = map_stats.sum(SMR_STAT_HEADS);
    const std::uint64_t head_bytes = map_stats.sum(SMR_STAT_HEAD_BYTES);
    const std::uint32_t cap_pairs = checked_u32(2 * ceil_div(heads, rgroups) + 4, "reduce slots");
    const std::uint32_t cap_bytes =
        checked_u32(2 * ceil_div(head_bytes, rgroups) + 64, "reduce key bytes");
    const std::uint32_t slots = checked_u32(std::uint64_t{rgroups} * cap_pairs, "reduce slots");
    checked_u32(std::uint64_t{rgroups} * cap_bytes, "reduce key bytes");
    Buffer& recs = pool_.get("out.recs", std::size_t{slots} * sizeof(SmrOutRecord));
    Buffer& ovals = pool_.get("out.vals", std::size_t{slots} * osize);
    Buffer& okeys = pool_.get("out.keys", std::size_t{rgroups} * cap_bytes);
    Buffer& spill = pool_.get("out.spill", std::size_t{rgroups} * wave * 12);
    Buffer& stats = pool_.get("out.stats", std::size_t{rgroups} * SMR_STATS * 4);
    Buffer& pair_base = pool_.get("out.ovf_pair_base", std::size_t{rgroups} * 4);
    Buffer& byte_base = pool_.get("out.ovf_byte_base", std::size_t{rgroups} * 4);
    const LaunchShape shape{rgroups, wave};
    {
      Buffer& none_r = pool_.get("out.ovf_recs", 1);
      Buffer& none_v = pool_.get("out.ovf_vals", 1);
      Buffer& none_k = pool_.get("out.ovf_keys", 1);
      q.launch(kernels_.reduce, shape, entries, vals, keys, ovf_entries, ovf_vals, ovf_keys,
               primary, tables, buckets, num_tables, side, side_size, cap_pairs, cap_bytes, recs,
               ovals, okeys, none_r, none_v, none_k, pair_base, byte_base, spill, stats);
    }
    GroupStats rstats = read_stats(stats, rgroups);
    std::uint32_t ovf_outputs = 0, ovf_bytes = 0;
    if (rstats.sum(SMR_STAT_OVF_PAIRS) > 0) {
      ovf_outputs = prefix_sum_row(stats, SMR_STAT_OVF_PAIRS, rgroups, pair_base, "outputs");
      ovf_bytes = prefix_sum_row(stats, SMR_STAT_OVF_BYTES, rgroups, byte_base, "output keys");
      Buffer& ovf_r = pool_.get("out.ovf_recs", std::size_t{ovf_outputs} * sizeof(SmrOutRecord));
      Buffer& ovf_v = pool_.get("out.ovf_vals", std::size_t{ovf_outputs} * osize);
      Buffer& ovf_k = pool_.get("out.ovf_keys", ovf_bytes);
      q.launch(kernels_.reduce_overflow, shape, entries, vals, keys, ovf_entries, ovf_vals,
               ovf_keys, primary, tables, buckets, num_tables, side, side_size, cap_pairs,
               cap_bytes, recs, ovals, okeys, ovf_r, ovf_v, ovf_k, pair_base, byte_base, spill,
               stats);
    }
    Buffer& ovf_recs = pool_.get("out.ovf_recs", 1);
    Buffer& ovf_ovals = pool_.get("out.ovf_vals", 1);
    Buffer& ovf_okeys = pool_.get("out.ovf_keys", 1);
    const std::uint64_t written = rstats.sum(SMR_STAT_WRITTEN);
    overflow_pct = written + ovf_outputs ? 100.0 * ovf_outputs / double(written + ovf_outputs) : 0;
    // Cleanup (flat reduce only): drop outputs whose key an earlier table also holds.
    const std::uint32_t all = slots + ovf_outputs;
    Buffer& keep = pool_.get("out.keep", std::size_t{all} * 4 + 4);
    if (num_tables > 1 && all > 0) {
      q.launch(kernels_.cleanup, LaunchShape::cover(all, kCleanupGroup), entries, vals, keys,
               ovf_entries, ovf_vals, ovf_keys, primary, tables, buckets, recs, rgroups, cap_pairs,
               stats, ovf_recs, ovf_outputs, keep);
    }
    q.end_span();

    q.begin_span("copy_out");
    out.recs.resize(std::size_t{slots} * sizeof(SmrOutRecord));
    out.vals.resize(std::size_t{slots} * osize);
    out.keys.resize(std::size_t{rgroups} * cap_bytes);
    out.ovf_recs.resize(std::size_t{ovf_outputs} * sizeof(SmrOutRecord));
    out.ovf_vals.resize(std::size_t{ovf_outputs} * osize);
    out.ovf_keys.resize(ovf_bytes);
    out.keep.assign(all, 1u);
    read_all(out.recs, recs);
    read_all(out.vals, ovals);
    read_all(out.keys, okeys);
    read_all(out.ovf_recs, ovf_recs);
    read_all(out.ovf_vals, ovf_ovals);
    read_all(out.ovf_keys, ovf_okeys);
    if (num_tables > 1 && all > 0) q.read(out.keep.data(), keep, 0, std::size_t{all} * 4);
    q.end_span();
    q.finish();
    reduce_groups_ = rgroups;
    reduce_slots_ = cap_pairs;
    reduce_used_.assign(rstats.words.begin() + std::size_t(SMR_STAT_SLOTS) * rgroups,
                        rstats.words.begin() + std::size_t(SMR_STAT_SLOTS + 1) * rgroups);
    return out.recs.size() + out.vals.size() + out.keys.size() + out.ovf_recs.size() +
           out.ovf_vals.size() + out.ovf_keys.size() + (num_tables > 1 ? std::size_t{all} * 4 : 0);
  }

  // Map-only apps: the intermediate pairs are the output. streammr_compact
  // gathers the used slots of every group's region and the overflow buffer
  // into dense pairs, values and key bytes (offsets: device prefix sums over
  // the groups' used slots and key bytes), and only those are read back, one
  // transfer each. Compaction and copies are the copy_out span. Returns the
  // bytes copied back.
  std::uint64_t copy_out_map(const apps::MapReduceApp& app, std::uint32_t cap_pairs,
                             std::uint32_t cap_bytes, std::uint32_t ovf_pairs,
                             std::uint32_t ovf_bytes, Buffer& entries, Buffer& vals, Buffer& keys,
                             Buffer& ovf_entries, Buffer& ovf_vals, Buffer& ovf_keys, Buffer& stats,
                             HostOutput& out) {
    auto& q = device_.queue();
    const std::uint32_t groups = options_.groups, vsize = app.value_size();
    q.begin_span("copy_out");
    Buffer& slot_base = pool_.get("out.slot_base", std::size_t{groups} * 4);
    Buffer& key_base = pool_.get("out.key_base", std::size_t{groups} * 4);
    const std::uint32_t slots =
        prefix_sum_row(stats, SMR_STAT_SLOTS, groups, slot_base, "map output pairs");
    const std::uint32_t bytes =
        prefix_sum_row(stats, SMR_STAT_KEY_BYTES, groups, key_base, "map output key bytes");
    const std::uint32_t n = checked_u32(std::uint64_t{slots} + ovf_pairs, "map output pairs");
    const std::uint32_t nbytes = checked_u32(std::uint64_t{bytes} + ovf_bytes, "map key bytes");
    out.recs.resize(std::size_t{n} * sizeof(SmrPair));
    out.vals.resize(std::size_t{n} * vsize);
    out.keys.resize(nbytes);
    if (n > 0) {
      Buffer& d_pairs = pool_.get("out.pairs", out.recs.size());
      Buffer& d_vals = pool_.get("out.vals", out.vals.size());
      Buffer& d_keys = pool_.get("out.keys", std::max<std::size_t>(nbytes, 1));
      const std::uint64_t ovf_groups =
          ovf_pairs ? std::min(ceil_div(std::max(ovf_pairs, ovf_bytes), kCompactGroup),
                               kMaxOverflowCompactGroups)
                    : 0;
      q.launch(kernels_.compact,
               LaunchShape{static_cast<std::uint32_t>(groups + ovf_groups), kCompactGroup}, entries,
               vals, keys, ovf_entries, ovf_vals, ovf_keys, groups, cap_pairs, cap_bytes, stats,
               slot_base, key_base, ovf_pairs, ovf_bytes, slots, bytes, d_pairs, d_vals, d_keys);
      read_all(out.recs, d_pairs);
      read_all(out.vals, d_vals);
      read_all(out.keys, d_keys);
    }
    q.end_span();
    q.finish();
    return out.recs.size() + out.vals.size() + out.keys.size();
  }

  void read_all(std::vector<std::uint8_t>& dst, Buffer& src) {
    if (!dst.empty()) device_.queue().read(dst.data(), src, 0, dst.size());
  }

  // Reduce outputs: the used slots of each group's region, then the overflow
  // outputs, those the cleanup kept.
  void collect(const HostOutput& out, std::uint32_t rgroups, std::uint32_t cap_pairs,
               std::uint32_t osize, apps::KeyValueList& output) const {
    auto take = [&](const std::vector<std::uint8_t>& recs, const std::vector<std::uint8_t>& vals,
                    const std::vector<std::uint8_t>& keys, std::size_t i, std::size_t keep_at) {
      SmrOutRecord r;
      std::memcpy(&r, recs.data() + i * sizeof(SmrOutRecord), sizeof r);
      if (r.key_len == SMR_DEAD || !out.keep[keep_at]) return;
      output.emplace_back(
          std::string(reinterpret_cast<const char*>(keys.data()) + r.key_off, r.key_len),
          std::string(reinterpret_cast<const char*>(vals.data()) + i * osize, osize));
    };
    for (std::uint32_t g = 0; g < rgroups; ++g) {
      for (std::uint32_t k = 0; k < reduce_used_[g]; ++k) {
        const std::size_t i = std::size_t{g} * cap_pairs + k;
        take(out.recs, out.vals, out.keys, i, i);
      }
    }
    const std::size_t slots = std::size_t{rgroups} * cap_pairs;
    for (std::size_t i = 0; i < out.ovf_recs.size() / sizeof(SmrOutRecord); ++i) {
      take(out.ovf_recs, out.ovf_vals, out.ovf_keys, i, slots + i);
    }
  }

  // Map-only output: the compacted pairs, less the dead slots.
  void collect_map(const HostOutput& out, std::uint32_t vsize, apps::KeyValueList& output) const {
    const std::size_t n = out.recs.size() / sizeof(SmrPair);
    output.reserve(output.size() + n);
    for (std::size_t i = 0; i < n; ++i) {
      SmrPair p;
      std::memcpy(&p, out.recs.data() + i * sizeof(SmrPair), sizeof p);
      if (p.key_len == SMR_DEAD) continue;
      output.emplace_back(
          std::string(reinterpret_cast<const char*>(out.keys.data()) + p.key_off, p.key_len),
          std::string(reinterpret_cast<const char*>(out.vals.data()) + i * vsize, vsize));
    }
  }

  backend::Device& device_;
  Options options_;
  std::uint32_t wave_ = kDefaultWave;
  blocks::BufferPool pool_;
  std::shared_ptr<backend::Program> program_;
  std::unique_ptr<blocks::Scan> scan_;
  Kernels kernels_;
  std::uint32_t tree_levels_ = 0;
  std::uint32_t reduce_groups_ = 0, reduce_slots_ = 0;
  std::vector<std::uint32_t> reduce_used_;
  std::vector<backend::Image2D> images_;
};

}  // namespace

ParamDecls params() {
  return {
      bool_param("combine", true, "map-side combiner where the app has one"),
      bool_param("tree", false, "tree-like reduce: tables merged pairwise, then one reduce"),
      unsigned_param("size_hint", 0, 0, UINT32_MAX,
                     "preallocated pairs per work-group; 0: one per record + 16 (streammr.fig11)"),
      unsigned_param("key_hint", 0, 0, UINT32_MAX,
                     "key bytes per preallocated pair; 0: 16 + 64 per group"),
      unsigned_param("local_values", 0, 0, UINT32_MAX,
                     "values the combiner's local buffer holds; 0: one per work-item (fig12)"),
      unsigned_param("hash_mask", 0xffffffffu, 0, UINT32_MAX,
                     "hash bits kept (tests: few, so keys collide)"),
      pow2_param("buckets", 512, 1, 1u << 31, "buckets per wavefront table"),
      unsigned_param("groups", 0, 0, UINT32_MAX,
                     "map work-groups (= tables); 0: 32 per compute unit"),
      unsigned_param("wavefront", 0, 0, SMR_MAX_WAVE,
                     "work-group size; 0: the device's warp width"),
      bool_param("image", false, "map reads input matrices through the texture path"),
  };
}

Options options_from(const Params& p) {
  check_params(params(), p);
  Options o;
  o.combine = param_bool(p, "combine");
  o.tree = param_bool(p, "tree");
  o.size_hint = param_u32(p, "size_hint");
  o.key_hint = param_u32(p, "key_hint");
  o.local_values = param_u32(p, "local_values");
  o.hash_mask = param_u32(p, "hash_mask");
  o.buckets = param_u32(p, "buckets");
  o.groups = param_u32(p, "groups");
  o.wavefront = param_u32(p, "wavefront");
  o.image = param_bool(p, "image");
  return o;
}

std::unique_ptr<mapreduce::Runtime> make_runtime(backend::Device& device, const Options& options) {
  if (options.buckets == 0 || (options.buckets & (options.buckets - 1)) != 0) {
    throw UsageError("streammr: buckets must be a power of two");
  }
  return std::make_unique<StreamMR>(device, options);
}

void register_variants() {
  const std::vector<mapreduce::VariantRow> rows = {
      {"default",
       "per-work-group output with opportunistic second pass, one hash table per wavefront, "
       "map-side combiner where the app has one, reduce over all tables + cleanup",
       {}},
      {"no-combine", "as default without the map-side combiner", {{"combine", "0"}}},
      {"tree",
       "as default with the tree-like reduce: tables merged pairwise (log2 levels, combining "
       "where the app has a combiner), then one reduce over table 0 without cleanup",
       {{"tree", "1"}}},
      {"image",
       "as default with map reading the app's input matrices through the texture path "
       "(OpenCL images, CUDA texture objects; matrixmult only; streammr.image)",
       {{"image", "1"}}},
  };
  mapreduce::add_gpu_variant_rows(
      "streammr", params(), rows,
      [](const Params& defaults, const apps::MapReduceApp& app) {
        return !param_bool(defaults, "image") || app.has_image_path();
      },
      [](backend::Device& device, const Params& p) {
        return make_runtime(device, options_from(p));
      });
}

}  // namespace harness::streammr
