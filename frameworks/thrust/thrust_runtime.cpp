#include "frameworks/thrust/thrust_runtime.h"

#include "frameworks/apps/registry.h"
#include "harness/core/errors.h"

#if defined(HARNESS_HAVE_CUDA)
#include <exception>

#include "frameworks/common/buffer_pool.h"
#include "frameworks/mars/scoped_span.h"
#include "frameworks/thrust/thrust_wordcount.h"
#include "harness/core/stopwatch.h"
#endif

namespace harness::thrustmr {
namespace {

#if defined(HARNESS_HAVE_CUDA)

using backend::Buffer;

template <typename T>
T* device_ptr(Buffer& b) {
  return static_cast<T*>(b.handle());
}

class ThrustRuntime final : public mapreduce::Runtime {
 public:
  ThrustRuntime(backend::Device& device, Options options)
      : device_(device), options_(options), pool_(device) {}

  std::string name() const override { return "thrust"; }

  void prepare(const apps::MapReduceApp& app) override {
    if (app.name() != "wordcount") {
      throw UsageError("thrust runs wordcount only (frameworks/thrust/README.md), not '" +
                       app.name() + "'");
    }
  }

  mapreduce::RunResult run_records(const apps::MapReduceApp& app,
                                   const mapreduce::PreparedInput& in, std::uint32_t first,
                                   std::uint32_t last) override {
    prepare(app);
    try {
      return run_words(in, first, last);
    } catch (const UsageError&) {
      throw;
    } catch (const RunError&) {
      throw;
    } catch (const std::exception& e) {  // CUDA and thrust errors
      throw RunError(e.what());
    }
  }

 private:
  mapreduce::RunResult run_words(const mapreduce::PreparedInput& in, std::uint32_t first,
                                 std::uint32_t last) {
    device_.make_current();
    auto& q = device_.queue();
    void* stream = q.native_handle();
    mapreduce::RunResult result;
    Stopwatch total;
    // Records [first, last) are one byte range; no word spans a record end.
    const std::uint32_t begin = in.offsets[first];
    const std::uint32_t bytes = in.offsets[last] - begin;
    const std::size_t capacity = cuda::words_capacity(bytes);

    Buffer& d_input = pool_.get("input", bytes);
    cuda::WordScratch s;
    s.starts = device_ptr<std::uint32_t>(pool_.get("starts", capacity * 4));
    s.hashes = device_ptr<std::uint64_t>(pool_.get("hashes", capacity * 8));
    s.words = device_ptr<std::uint8_t>(pool_.get("words", bytes));
    s.flag = device_ptr<unsigned long long>(pool_.get("flag", 8));
    const auto* input = device_ptr<const std::uint8_t>(d_input);

    {
      mapreduce::ScopedSpan span(q, "copy_in");
      if (bytes > 0) q.write(d_input, 0, in.data + begin, bytes);
      span.end();
    }
    std::uint32_t words = 0;
    {
      mapreduce::ScopedSpan span(q, "map");
      words = cuda::find_words(input, 0, bytes, options_.hash_bits, s, stream);
      span.end();
    }
    // Per-group arrays: at most one entry per word.
    const std::size_t slots = std::size_t{words} + 1;
    s.group_starts = device_ptr<std::uint32_t>(pool_.get("group_starts", slots * 4));
    s.group_hashes = device_ptr<std::uint64_t>(pool_.get("group_hashes", slots * 8));
    s.counts = device_ptr<std::uint32_t>(pool_.get("counts", slots * 4));
    s.lengths = device_ptr<std::uint32_t>(pool_.get("lengths", (slots + 1) * 4));
    cuda::Groups groups;
    {
      mapreduce::ScopedSpan span(q, "group");
      groups = cuda::group_words(input, bytes, words, s, stream);
      span.end();
    }
    cuda::HostWords out;
    std::uint64_t copied_out = 0;
    {
      mapreduce::ScopedSpan span(q, "copy_out");
      copied_out = cuda::copy_out(input, bytes, groups.distinct, s, stream, out);
      span.end();
    }
    result.measurement.total_ms = total.elapsed_ms();
    for (auto& span : q.take_spans())
      result.measurement.phases.push_back({span.name, span.milliseconds});

    const apps::MapReduceApp& app = apps::wordcount_app();
    result.output.reserve(groups.distinct);
    for (std::uint32_t g = 0; g < groups.distinct; ++g) {
      const char* w = reinterpret_cast<const char*>(out.bytes.data()) + out.offsets[g];
      const std::uint32_t n = out.counts[g];
      result.output.emplace_back(std::string(w, out.offsets[g + 1] - out.offsets[g]),
                                 std::string(reinterpret_cast<const char*>(&n), sizeof(n)));
    }
    apps::sort_output(app, result.output);

    // Declared work: the input crosses the host link and map reads it once;
    // map writes a start and a hash per word; the sort reads and writes
    // them (at least once); the output lands in std::vectors (pageable).
    const std::uint64_t pair_bytes = std::uint64_t{words} * 12;
    result.work.items("records", last - first)
        .items("words", words)
        .items("distinct_words", groups.distinct)
        .reads(level::h2d, bytes, "copy_in")
        .reads(level::dram, bytes, "map")
        .writes(level::dram, pair_bytes, "map")
        .reads(level::dram, pair_bytes, "group")
        .writes(level::dram, pair_bytes, "group")
        .writes(level::d2h, copied_out, "copy_out", "d2h_pageable");
    result.measurement.counters["words"] = words;
    result.measurement.counters["distinct_words"] = groups.distinct;
    result.measurement.counters["hash_collisions"] = static_cast<double>(groups.collisions);
    result.measurement.counters["hash_bits"] = options_.hash_bits;
    return result;
  }

  backend::Device& device_;
  Options options_;
  mapreduce::BufferPool pool_;
};

#endif  // HARNESS_HAVE_CUDA

}  // namespace

Params default_params() { return {{"hash_bits", "64"}}; }

Options options_from(const Params& params) {
  Options o;
  o.hash_bits = mapreduce::param_u32(params, "hash_bits");
  if (o.hash_bits < 1 || o.hash_bits > 64) {
    throw UsageError("thrust: hash_bits must be 1..64, not " + std::to_string(o.hash_bits));
  }
  return o;
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
      "the everyday GPU group-by as a baseline: words found and hashed (FNV-1a 64) on the device, "
      "thrust::sort_by_key + thrust::reduce_by_key, a collision check with a (hash, bytes) "
      "fallback";
  v.backends = {backend::Kind::cuda};
  v.default_params = default_params();
  v.apps = {"wordcount"};
  v.make = mapreduce::point_factory([](const PointContext& ctx) {
    if (!ctx.device) throw UsageError("thrust needs the cuda backend");
    return make_runtime(*ctx.device, options_from(ctx.params));
  });
  Registry::instance().add_variant(std::move(v));
}

}  // namespace harness::thrustmr
