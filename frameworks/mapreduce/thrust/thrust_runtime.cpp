#include "frameworks/mapreduce/thrust/thrust_runtime.h"

#include <utility>

#include "frameworks/mapreduce/apps/registry.h"
#include "harness/core/errors.h"

#if defined(HARNESS_HAVE_CUDA)
#include <cstring>
#include <exception>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/mars/scoped_span.h"
#include "frameworks/mapreduce/thrust/thrust_group.h"
#include "frameworks/mapreduce/thrust/thrust_keys.h"
#include "frameworks/mapreduce/thrust/thrust_kmeans.h"
#include "harness/core/stopwatch.h"
#include "harness/dialect/dialect.h"

namespace harness::thrustmr::kmeans_types {
#include "frameworks/mapreduce/apps/kmeans/kmeans_types.clh"
}  // namespace harness::thrustmr::kmeans_types
#endif

namespace harness::thrustmr {
namespace {

// How a run finds its keys: the apps (and page view jobs) thrust/default runs.
enum class Rule {
  words,    // wordcount: words, lower-cased; value: occurrences
  links,    // invertedindex (map-only): href URLs; value: each link's page start
  entries,  // pvc_dedup: log lines; value: the entry's length, once per distinct entry
  urls,     // pvc_count: the URL field of each distinct entry; value: page views
  ranked,   // pvr_rank (map-only): the `XXXXXXXXURL` lines; value: page views
  kmeans,   // kmeans: cluster ids (no hash); value: the new centroid
};

// The rule of an app or job by name; false for the apps thrust/default does not run.
bool rule_of(const std::string& app, Rule& rule) {
  static const std::pair<const char*, Rule> rules[] = {
      {"wordcount", Rule::words}, {"invertedindex", Rule::links}, {"pvc_dedup", Rule::entries},
      {"pvc_count", Rule::urls},  {"pvr_rank", Rule::ranked},     {"kmeans", Rule::kmeans},
  };
  for (const auto& [name, r] : rules) {
    if (app == name) {
      rule = r;
      return true;
    }
  }
  return false;
}

#if defined(HARNESS_HAVE_CUDA)

using backend::Buffer;

Rule checked_rule(const apps::MapReduceApp& app) {
  Rule rule{};
  if (!rule_of(app.name(), rule)) {
    throw UsageError(
        "thrust runs wordcount, kmeans, invertedindex, pageviewcount and pageviewrank (jobs "
        "pvc_dedup, pvc_count, pvr_rank) only: the others are map-only with keys that need no "
        "grouping (frameworks/mapreduce/thrust/README.md), not '" +
        app.name() + "'");
  }
  return rule;
}

template <typename T>
T* device_ptr(Buffer& b) {
  return static_cast<T*>(b.handle());
}

static_assert(sizeof(cuda::KmSum) == sizeof(kmeans_types::KmPartial));
static_assert(sizeof(cuda::KmCentroidOut) == sizeof(kmeans_types::KmCentroid));
static_assert(cuda::kKmMaxDims == KM_MAX_DIMS);

class ThrustRuntime final : public mapreduce::Runtime {
 public:
  ThrustRuntime(backend::Device& device, Options options)
      : device_(device), options_(options), pool_(device), temp_(options.temp_cache) {}

  std::string name() const override { return "thrust"; }

  void prepare(const apps::MapReduceApp& app) override { checked_rule(app); }

  // A plain thrust program copies the input's bytes and finds its keys, and
  // its lines, on the device: word count, inverted index and the page view
  // jobs take no host record split. Inverted index's page starts are host
  // side data (phase `preprocess`; the others have none); k-means (points)
  // takes the default.
  mapreduce::RunResult run(const apps::MapReduceApp& app, const std::uint8_t* input,
                           std::size_t size) override {
    const Rule rule = checked_rule(app);
    const bool words = rule == Rule::words;
    if (!words && !(app.records_are_lines() && (rule == Rule::entries || rule == Rule::urls ||
                                                rule == Rule::ranked || rule == Rule::links))) {
      return Runtime::run(app, input, size);
    }
    apps::check_input_size(app, size);
    mapreduce::PreparedInput in;
    in.data = input;
    in.size = size;
    in.offsets = {0, static_cast<std::uint32_t>(size)};  // one range; lines found on the device
    Stopwatch host;
    in.side = app.side_data(app_params(), input, size);
    const double preprocess_ms = host.elapsed_ms();
    mapreduce::RunResult result =
        guarded([&] { return run_keys(app, rule, in, 0, 1, /*lines_on_device=*/!words); });
    if (!in.side.empty()) {
      result.measurement.total_ms += preprocess_ms;
      auto& phases = result.measurement.phases;
      phases.insert(phases.begin(), {"preprocess", preprocess_ms});
    }
    return result;
  }

  mapreduce::RunResult run_records(const apps::MapReduceApp& app,
                                   const mapreduce::PreparedInput& in, std::uint32_t first,
                                   std::uint32_t last) override {
    const Rule rule = checked_rule(app);
    return guarded([&] {
      if (rule == Rule::kmeans) return run_kmeans(app, in, first, last);
      return run_keys(app, rule, in, first, last, /*lines_on_device=*/false);
    });
  }

 private:
  // CUDA and thrust errors (std::exception) become RunErrors.
  template <class F>
  static mapreduce::RunResult guarded(F&& f) {
    try {
      return f();
    } catch (const UsageError&) {
      throw;
    } catch (const RunError&) {
      throw;
    } catch (const std::exception& e) {
      throw RunError(e.what());
    }
  }

  // The apps whose keys are bytes of the input: map finds them (one thread
  // per word, record or link), then the shared group-by (thrust_group.h).
  // With lines_on_device (line apps only), records [first, last) are one
  // byte range whose line records are found on the device (phase `split`),
  // not taken from the host's offsets.
  mapreduce::RunResult run_keys(const apps::MapReduceApp& app, Rule rule,
                                const mapreduce::PreparedInput& in, std::uint32_t first,
                                std::uint32_t last, bool lines_on_device) {
    device_.make_current();
    auto& q = device_.queue();
    const cuda::Exec exec{q.native_handle(), &temp_};
    const std::uint64_t allocations_before = temp_.device_allocations();
    mapreduce::RunResult result;
    Stopwatch total;
    // Records [first, last) are one byte range; no key spans a record end.
    const std::uint32_t begin = in.offsets[first];
    const std::uint32_t bytes = in.offsets[last] - begin;
    std::uint32_t records = last - first;
    const bool words = rule == Rule::words;
    const bool pairs = rule == Rule::links || rule == Rule::ranked;  // map-only: every value out
    const bool host_records = !words && !lines_on_device;

    Buffer& d_input = pool_.get("input", bytes);
    const auto* input = device_ptr<const std::uint8_t>(d_input);
    // Line apps: the records' starts relative to the run's first byte, then its end.
    std::vector<std::uint32_t> record_starts;
    if (host_records) {
      record_starts.resize(std::size_t{records} + 1);
      for (std::uint32_t r = 0; r <= records; ++r) record_starts[r] = in.offsets[first + r] - begin;
    }
    std::uint64_t h2d = bytes;
    {
      mapreduce::ScopedSpan span(q, "copy_in");
      if (bytes > 0) q.write(d_input, 0, in.data + begin, bytes);
      if (host_records) {
        q.write(pool_.get("records", record_starts.size() * 4), 0, record_starts.data(),
                record_starts.size() * 4);
        h2d += record_starts.size() * 4;
      }
      if (rule == Rule::links && !in.side.empty()) {
        q.write(pool_.get("pages", in.side.size()), 0, in.side.data(), in.side.size());
        h2d += in.side.size();
      }
      span.end();
    }
    if (lines_on_device) {
      mapreduce::ScopedSpan span(q, "split");
      records = cuda::count_lines(input, bytes, exec);
      cuda::write_line_starts(
          input, bytes, records,
          device_ptr<std::uint32_t>(pool_.get("records", (std::size_t{records} + 1) * 4)), exec);
      span.end();
    }
    const std::uint32_t* d_records =
        words
            ? nullptr
            : device_ptr<const std::uint32_t>(pool_.get("records", (std::size_t{records} + 1) * 4));

    cuda::Keys keys;
    keys.input = input;
    keys.fold_case = words;  // word count's keys are lower-cased
    std::uint32_t* values = nullptr;
    std::uint64_t* hashes = nullptr;
    {
      mapreduce::ScopedSpan span(q, "map");
      if (words) {
        const std::size_t capacity = cuda::words_capacity(bytes);
        auto* s = device_ptr<std::uint32_t>(pool_.get("starts", capacity * 4));
        auto* l = device_ptr<std::uint32_t>(pool_.get("lengths", capacity * 4));
        hashes = device_ptr<std::uint64_t>(pool_.get("hashes", capacity * 8));
        keys.count = cuda::find_words(input, bytes, options_.hash_bits, s, l, hashes, exec);
        keys.starts = s;
        keys.lengths = l;
      } else if (rule == Rule::links) {
        auto* link_offsets =
            device_ptr<std::uint32_t>(pool_.get("link_offsets", (std::size_t{records} + 1) * 4));
        const std::uint32_t links =
            cuda::count_links(input, d_records, records, link_offsets, exec);
        const std::size_t capacity = std::size_t{links} + 1;
        auto* s = device_ptr<std::uint32_t>(pool_.get("starts", capacity * 4));
        auto* l = device_ptr<std::uint32_t>(pool_.get("lengths", capacity * 4));
        values = device_ptr<std::uint32_t>(pool_.get("values", capacity * 4));
        hashes = device_ptr<std::uint64_t>(pool_.get("hashes", capacity * 8));
        const auto pages = static_cast<std::uint32_t>(in.side.size() / 4);
        cuda::write_links(input, d_records, records, link_offsets,
                          device_ptr<const std::uint32_t>(pool_.get("pages", in.side.size())),
                          pages, begin, s, l, values, exec);
        keys.count = links;
        keys.starts = s;
        keys.lengths = l;
      } else {
        const std::size_t capacity = std::size_t{records} + 1;
        auto* s = device_ptr<std::uint32_t>(pool_.get("starts", capacity * 4));
        auto* l = device_ptr<std::uint32_t>(pool_.get("lengths", capacity * 4));
        values = device_ptr<std::uint32_t>(pool_.get("values", capacity * 4));
        hashes = device_ptr<std::uint64_t>(pool_.get("hashes", capacity * 8));
        const cuda::LineKey kind = rule == Rule::entries ? cuda::LineKey::entry
                                   : rule == Rule::urls  ? cuda::LineKey::url
                                                         : cuda::LineKey::ranked;
        keys.count = cuda::line_keys(input, d_records, records, kind, s, l, values, exec);
        keys.starts = s;
        keys.lengths = l;
      }
      if (!words) cuda::hash_keys(keys, options_.hash_bits, hashes, exec);
      span.end();
    }
    const std::uint32_t n = keys.count;

    // Per-group arrays: at most one entry per key.
    const std::size_t slots = std::size_t{n} + 1;
    cuda::GroupScratch s;
    s.order = device_ptr<std::uint32_t>(pool_.get("order", slots * 4));
    s.group_hashes = device_ptr<std::uint64_t>(pool_.get("group_hashes", slots * 8));
    s.group_first = device_ptr<std::uint32_t>(pool_.get("group_first", slots * 4));
    s.counts = device_ptr<std::uint32_t>(pool_.get("counts", slots * 4));
    s.offsets = device_ptr<std::uint32_t>(pool_.get("offsets", (slots + 1) * 4));
    s.key_bytes = device_ptr<std::uint8_t>(pool_.get("key_bytes", bytes));
    s.key_capacity = bytes;
    s.flag = device_ptr<unsigned long long>(pool_.get("flag", 8));
    s.hashes = hashes;
    cuda::Groups groups;
    {
      mapreduce::ScopedSpan span(q, "group");
      groups = cuda::group_keys(keys, s, options_.verify_keys, exec);
      span.end();
    }
    // Host vectors whose size is known here are first touched before the
    // span opens (as Mars and hashagg do): that is host time in the total,
    // not copy_out. The keys' bytes are sized inside, from their offsets,
    // into a vector kept from run to run, as Mars and hashagg keep theirs: a
    // fresh one's first touch is a page fault per 4 KiB, which made page view
    // count's dedup job (1.8 M distinct lines, 126 MB of keys) spend 45-66 ms
    // in copy_out on an H100.
    cuda::HostGroups& out = host_groups_;
    std::vector<std::uint32_t>& sorted_values = host_values_;
    out.offsets.resize(std::size_t{groups.distinct} + 1);
    out.counts.resize(groups.distinct);
    if (pairs) sorted_values.resize(keys.count);
    std::uint64_t copied_out = 0;
    {
      mapreduce::ScopedSpan span(q, "copy_out");
      copied_out = cuda::copy_out_groups(keys, groups.distinct, s, exec, out);
      if (pairs) {
        auto* sorted = device_ptr<std::uint32_t>(pool_.get("sorted_values", slots * 4));
        copied_out += cuda::copy_out_values(keys, values, s, sorted, exec, sorted_values);
      }
      span.end();
    }
    result.measurement.total_ms = total.elapsed_ms();
    for (auto& span : q.take_spans())
      result.measurement.phases.push_back({span.name, span.milliseconds});

    // Output: one pair per distinct key (its count, or for pvc_dedup its
    // length), or for map-only apps one per key, its value.
    result.output.reserve(pairs ? n : groups.distinct);
    std::size_t at = 0;
    for (std::uint32_t g = 0; g < groups.distinct; ++g) {
      const std::uint32_t length = out.offsets[g + 1] - out.offsets[g];
      std::string key(reinterpret_cast<const char*>(out.bytes.data()) + out.offsets[g], length);
      if (pairs) {
        for (std::uint32_t j = 0; j < out.counts[g]; ++j) {
          result.output.emplace_back(key, apps::raw_bytes(sorted_values[at++]));
        }
      } else {
        const std::uint32_t value = rule == Rule::entries ? length : out.counts[g];
        result.output.emplace_back(std::move(key), apps::raw_bytes(value));
      }
    }
    order_output(app, result.output);

    // Declared work: the input (and the record starts, the page starts)
    // crosses the host link and map reads it once (inverted index: twice,
    // counting then writing links); map writes a start, a length and a hash
    // per key (and a value); the sort reads and writes hash and index (at
    // least once); the output lands in std::vectors (pageable).
    const std::string item = words ? "words" : "keys";
    const std::string distinct = words ? "distinct_words" : "distinct_keys";
    const std::uint64_t key_bytes = std::uint64_t{n} * (words ? 16 : 20);
    const std::uint64_t sort_bytes = std::uint64_t{n} * 12;
    result.work.items("records", records)
        .items(item, n)
        .items(distinct, groups.distinct)
        .reads(level::h2d, h2d, "copy_in")
        .reads(level::dram, std::uint64_t{bytes} * (rule == Rule::links ? 2 : 1), "map")
        .writes(level::dram, key_bytes, "map")
        .reads(level::dram, sort_bytes, "group")
        .writes(level::dram, sort_bytes, "group")
        .writes(level::d2h, copied_out, "copy_out", "d2h_pageable");
    if (lines_on_device) {  // count_lines and write_line_starts each read the input
      result.work.reads(level::dram, std::uint64_t{bytes} * 2, "split")
          .writes(level::dram, (std::uint64_t{records} + 1) * 4, "split");
    }
    result.measurement.counters[item] = n;
    result.measurement.counters[distinct] = groups.distinct;
    if (options_.verify_keys)
      result.measurement.counters["hash_collisions"] = static_cast<double>(groups.collisions);
    result.measurement.counters["keys_verified"] = options_.verify_keys ? 1 : 0;
    result.measurement.counters["hash_bits"] = options_.hash_bits;
    result.measurement.counters["temp_allocations"] =
        static_cast<double>(temp_.device_allocations() - allocations_before);
    return result;
  }

  // K-means: the key is the nearest centroid's id, grouped by a sort on the
  // id itself (thrust_kmeans.h).
  mapreduce::RunResult run_kmeans(const apps::MapReduceApp& app, const mapreduce::PreparedInput& in,
                                  std::uint32_t first, std::uint32_t last) {
    device_.make_current();
    auto& q = device_.queue();
    const cuda::Exec exec{q.native_handle(), &temp_};
    const std::uint64_t allocations_before = temp_.device_allocations();
    mapreduce::RunResult result;
    Stopwatch total;
    // Records are points, contiguous: n x dims float32.
    const std::uint32_t begin = in.offsets[first];
    const std::uint32_t bytes = in.offsets[last] - begin;
    const std::uint32_t n = last - first;
    std::uint32_t dims = 0, k = 0;
    if (in.side.size() >= 8) {
      std::memcpy(&dims, in.side.data(), 4);
      std::memcpy(&k, in.side.data() + 4, 4);
    }
    if (n > 0 && (k == 0 || dims == 0 || dims > cuda::kKmMaxDims ||
                  in.side.size() < 8 + std::uint64_t{k} * dims * 4 ||
                  bytes != std::uint64_t{n} * dims * 4)) {
      throw RunError("thrust: kmeans side data does not match its points");
    }

    Buffer& d_input = pool_.get("input", bytes);
    Buffer& d_side = pool_.get("side", in.side.size());
    {
      mapreduce::ScopedSpan span(q, "copy_in");
      if (bytes > 0) q.write(d_input, 0, in.data + begin, bytes);
      if (!in.side.empty()) q.write(d_side, 0, in.side.data(), in.side.size());
      span.end();
    }
    const auto* points = device_ptr<const float>(d_input);
    const auto* centroids =
        reinterpret_cast<const float*>(device_ptr<const std::uint8_t>(d_side) + 8);
    const std::size_t slots = std::size_t{k} + 1;
    cuda::KmScratch s;
    s.clusters = device_ptr<std::uint32_t>(pool_.get("clusters", (std::size_t{n} + 1) * 4));
    s.order = device_ptr<std::uint32_t>(pool_.get("order", (std::size_t{n} + 1) * 4));
    s.ids = device_ptr<std::uint32_t>(pool_.get("ids", slots * 4));
    s.sums = device_ptr<cuda::KmSum>(pool_.get("sums", slots * sizeof(cuda::KmSum)));
    s.centroids = device_ptr<cuda::KmCentroidOut>(
        pool_.get("centroids", slots * sizeof(cuda::KmCentroidOut)));
    {
      mapreduce::ScopedSpan span(q, "map");
      cuda::nearest_centroids(points, n, dims, centroids, k, s, exec);
      span.end();
    }
    std::uint32_t clusters = 0;
    {
      mapreduce::ScopedSpan span(q, "group");
      clusters = cuda::group_points(points, n, dims, s, exec);
      span.end();
    }
    std::vector<std::uint32_t> ids;
    std::vector<cuda::KmCentroidOut> out;
    std::uint64_t copied_out = 0;
    {
      mapreduce::ScopedSpan span(q, "copy_out");
      copied_out = cuda::copy_out_centroids(clusters, s, exec, ids, out);
      span.end();
    }
    result.measurement.total_ms = total.elapsed_ms();
    for (auto& span : q.take_spans())
      result.measurement.phases.push_back({span.name, span.milliseconds});

    result.output.reserve(clusters);
    for (std::uint32_t c = 0; c < clusters; ++c) {
      kmeans_types::KmCentroid centroid{};
      std::memcpy(&centroid, &out[c], sizeof(centroid));
      std::string key;
      apps::append_be32(key, ids[c]);
      result.output.emplace_back(std::move(key), apps::raw_bytes(centroid));
    }
    order_output(app, result.output);

    // Declared work: points and side data over the host link; map reads the
    // points (the centroids stay in cache) and writes an id per point; the
    // sort reads and writes (id, index) once at least, the reduce reads the
    // points again and writes a sum and a centroid per cluster.
    const std::uint64_t pair_bytes = std::uint64_t{n} * 8;
    const std::uint64_t per_cluster = sizeof(cuda::KmSum) + sizeof(cuda::KmCentroidOut) + 4;
    result.work.items("records", n)
        .items("points", n)
        .items("clusters", clusters)
        .reads(level::h2d, bytes + in.side.size(), "copy_in")
        .reads(level::dram, bytes, "map")
        .writes(level::dram, std::uint64_t{n} * 4, "map")
        .reads(level::dram, pair_bytes + bytes, "group")
        .writes(level::dram, pair_bytes + per_cluster * clusters, "group")
        .writes(level::d2h, copied_out, "copy_out", "d2h_pageable");
    result.measurement.counters["points"] = n;
    result.measurement.counters["clusters"] = clusters;
    result.measurement.counters["temp_allocations"] =
        static_cast<double>(temp_.device_allocations() - allocations_before);
    return result;
  }

  backend::Device& device_;
  Options options_;
  blocks::BufferPool pool_;
  cuda::TempCache temp_;          // thrust's temporary storage, kept from call to call (temp_cache)
  cuda::HostGroups host_groups_;  // copy_out's landing place, kept from run to run
  std::vector<std::uint32_t> host_values_;  // map-only apps' values, likewise
};

#endif  // HARNESS_HAVE_CUDA

}  // namespace

ParamDecls params() {
  return {unsigned_param("hash_bits", 64, 1, 64,
                         "low bits of the 64-bit key hash kept (tests: few, to collide)"),
          bool_param("verify_keys", false,
                     "compare the bytes of keys with equal hashes and split collisions (off: "
                     "trust the hash, as a plain thrust program does; validation still checks "
                     "the output)"),
          bool_param("temp_cache", true,
                     "keep thrust's temporary blocks from call to call, as a cached allocator "
                     "does (off: cudaMalloc and cudaFree on every call, thrust's default)")};
}

Options options_from(const Params& p) {
  const Params r = resolve_params(params(), p);  // checked, defaults for the missing
  Options o;
  o.hash_bits = param_u32(r, "hash_bits");
  o.verify_keys = param_bool(r, "verify_keys");
  o.temp_cache = param_bool(r, "temp_cache");
  return o;
}

bool runs(const std::string& app_or_job) {
  Rule rule{};
  return rule_of(app_or_job, rule);
}

std::vector<std::string> app_names() {
  return {"wordcount", "invertedindex", "pageviewcount", "pageviewrank", "kmeans"};
}

std::unique_ptr<mapreduce::Runtime> make_runtime(backend::Device& device, const Options& options) {
  if (device.info().kind != backend::Kind::cuda) {
    throw UsageError("thrust runs on the cuda backend only");
  }
#if defined(HARNESS_HAVE_CUDA)
  return std::make_unique<ThrustRuntime>(device, options);
#else
  (void)options;
  throw UsageError("thrust needs a CUDA build (HARNESS_CUDA=ON)");
#endif
}

void register_variants() {
  VariantInfo v;
  v.framework = "thrust";
  v.name = "default";
  v.description =
      "the everyday GPU group-by as a baseline: keys found on the device, hashed (FNV-1a 64), "
      "thrust::sort_by_key + thrust::reduce_by_key (verify_keys: a collision check and a "
      "(hash, bytes) fallback); k-means sorts and reduces by cluster id";
  v.backends = {backend::Kind::cuda};
  v.params = params();
  v.apps = app_names();
  v.make = mapreduce::point_factory([](const PointContext& ctx) {
    if (!ctx.device) throw UsageError("thrust needs the cuda backend");
    return make_runtime(*ctx.device, options_from(ctx.params));
  });
  Registry::instance().add_variant(std::move(v));
}

}  // namespace harness::thrustmr
