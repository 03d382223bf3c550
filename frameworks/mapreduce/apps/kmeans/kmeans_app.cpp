// KMeans (one iteration), host side: the points (.npy), one record per point,
// the side data (dimensions, k and the first k points as the centroids), the
// CPU reference (the same assignment rule in double, sums in double).
#include <limits>
#include <mutex>

#include "datasets/npy.h"
#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "harness/core/errors.h"
#include "harness/core/parallel.h"
#include "harness/dialect/dialect.h"

namespace harness::apps {

const DialectFacts& kmeans_dialect_facts();  // kmeans_facts.cpp

namespace kmeans_types {
#include "frameworks/mapreduce/apps/kmeans/kmeans_types.clh"
}  // namespace kmeans_types
namespace {

using kmeans_types::KmCentroid;
using kmeans_types::KmPartial;
constexpr std::uint64_t kMaxDims = KM_MAX_DIMS;

struct Points {
  std::uint64_t n = 0, dims = 0, start = 0;  // start: in floats
};

Points points(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return {};
  const auto arrays = datasets::parse_npy_arrays(data, size, "kmeans input");
  if (arrays.size() != 1 || arrays[0].shape.size() != 2) {
    throw UsageError("kmeans input: expected one float32 .npy array of shape (points, dims)");
  }
  const Points p{arrays[0].shape[0], arrays[0].shape[1], arrays[0].data_offset / 4};
  if (p.dims == 0 || p.dims > kMaxDims) {
    throw UsageError(fmt::format("kmeans input: points have {} dimensions; 1 to {} are supported",
                                 p.dims, kMaxDims));
  }
  return p;
}

class KMeans final : public MapReduceApp {
 public:
  std::string name() const override { return "kmeans"; }
  std::string description() const override {
    return "one KMeans iteration over float32 .npy points: map assigns each point to the "
           "nearest of the first --param k points, reduce computes the new centroids";
  }
  std::string default_dataset() const override { return "points-f32"; }
  const DialectFacts* dialect() const override { return &kmeans_dialect_facts(); }
  ParamDecls params() const override {
    return {unsigned_param("k", 16, 1, 999999, "clusters (the first k points are the centroids)")};
  }
  // Counts exact; centroids are double means rounded to float32.
  ValidationPolicy validation() const override { return {"tolerance", 1e-5, 1e-6}; }

  std::vector<std::uint32_t> split_records(const std::uint8_t* data,
                                           std::size_t size) const override {
    std::vector<std::uint32_t> offsets;
    split_records_into(data, size, offsets);  // checks the size
    return offsets;
  }
  // Every point's first byte (record_stride), filled in place on every core.
  void split_records_into(const std::uint8_t* data, std::size_t size,
                          std::vector<std::uint32_t>& offsets) const override {
    const RecordStride r = *record_stride(data, size);
    offsets.resize(std::size_t{r.count} + 1);
    parallel_ranges(r.count + 1, 0, std::uint64_t{1} << 20, [&](std::uint64_t b, std::uint64_t e) {
      for (std::uint64_t i = b; i < e; ++i)
        offsets[i] = static_cast<std::uint32_t>(r.first + i * r.stride);
    });
  }
  // One record a point: dims floats after the .npy header.
  std::optional<RecordStride> record_stride(const std::uint8_t* data,
                                            std::size_t size) const override {
    check_input_size(*this, size);
    const Points p = points(data, size);
    return RecordStride{static_cast<std::uint32_t>(4 * p.start),
                        static_cast<std::uint32_t>(4 * p.dims), static_cast<std::uint32_t>(p.n)};
  }

  std::vector<std::uint8_t> side_data(const Params& params, const std::uint8_t* data,
                                      std::size_t size) const override {
    const Points p = points(data, size);
    const std::uint64_t k = clusters(params, p);
    std::vector<std::uint32_t> words = {static_cast<std::uint32_t>(p.dims),
                                        static_cast<std::uint32_t>(k)};
    words.resize(2 + k * p.dims);
    std::memcpy(words.data() + 2, data + 4 * p.start, 4 * k * p.dims);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(words.data());
    return {bytes, bytes + 4 * words.size()};
  }

  KeyValueList reference(const Params& params, const std::uint8_t* data,
                         std::size_t size) const override {
    const Points p = points(data, size);
    const std::uint64_t k = clusters(params, p);
    const auto* x = reinterpret_cast<const float*>(data) + p.start;
    // Per block of points: partial sums per cluster; then added up.
    std::vector<std::vector<KmPartial>> partials;
    std::mutex mutex;
    parallel_blocks(p.n, [&](std::size_t begin, std::size_t end) {
      std::vector<KmPartial> sums(k, KmPartial{});
      for (std::size_t i = begin; i < end; ++i) {
        std::uint64_t best = 0;
        double best_distance = std::numeric_limits<double>::infinity();
        for (std::uint64_t c = 0; c < k; ++c) {
          double distance = 0;
          for (std::uint64_t d = 0; d < p.dims; ++d) {
            const double diff = double{x[i * p.dims + d]} - double{x[c * p.dims + d]};
            distance += diff * diff;
          }
          if (distance < best_distance) best = c, best_distance = distance;
        }
        for (std::uint64_t d = 0; d < p.dims; ++d) sums[best].sum[d] += x[i * p.dims + d];
        sums[best].count += 1;
      }
      std::lock_guard lock(mutex);
      partials.push_back(std::move(sums));
    });
    KeyValueList out;
    for (std::uint64_t c = 0; c < k; ++c) {
      KmPartial total{};
      for (const auto& sums : partials) {
        for (std::uint64_t d = 0; d < kMaxDims; ++d) total.sum[d] += sums[c].sum[d];
        total.count += sums[c].count;
      }
      if (total.count == 0) continue;  // no point chose this centroid: no output
      KmCentroid centroid{};
      centroid.count = total.count;
      centroid.dims = static_cast<std::uint32_t>(p.dims);
      for (std::uint64_t d = 0; d < p.dims; ++d) {
        centroid.centroid[d] = static_cast<float>(total.sum[d] / total.count);
      }
      std::string key;
      append_be32(key, static_cast<std::uint32_t>(c));
      out.emplace_back(std::move(key), raw_bytes(centroid));
    }
    return out;
  }

  std::string format_key(std::string_view raw) const override {
    return std::to_string(read_be32(raw));
  }
  // `count<TAB>x0<TAB>x1 ...`
  std::string format_value(std::string_view raw) const override {
    const auto c = from_raw<KmCentroid>(raw);
    std::string out = std::to_string(c.count);
    for (std::uint32_t d = 0; d < c.dims && d < kMaxDims; ++d) {
      out += '\t' + format_f32(c.centroid[d]);
    }
    return out;
  }
  // A cluster's points split between two parts: the centroid is the mean of
  // the two means weighted by their counts.
  std::string merge_values(std::string_view a, std::string_view b) const override {
    const auto x = from_raw<KmCentroid>(a), y = from_raw<KmCentroid>(b);
    KmCentroid out = x;
    out.count = x.count + y.count;
    for (std::uint32_t d = 0; d < kMaxDims; ++d) {
      out.centroid[d] = out.count == 0 ? 0.0f
                                       : static_cast<float>((double{x.centroid[d]} * x.count +
                                                             double{y.centroid[d]} * y.count) /
                                                            out.count);
    }
    return raw_bytes(out);
  }
  // The cluster and its point count are exact; the coordinates within tolerance.
  std::string tolerant_view(std::string_view key, std::string_view value,
                            std::vector<double>& numbers) const override {
    const auto c = from_raw<KmCentroid>(value);
    for (std::uint32_t d = 0; d < c.dims && d < kMaxDims; ++d) numbers.push_back(c.centroid[d]);
    return std::string(key) + ":" + std::to_string(c.count);
  }

 private:
  std::uint64_t clusters(const Params& params, const Points& p) const {
    const std::uint64_t k = param_unsigned(resolve_params(params), "k");
    if (p.n == 0) return 0;  // nothing to cluster
    if (p.n < k) {
      throw UsageError(
          fmt::format("kmeans: k = {} centroids need at least {} points; the input "
                      "has {}",
                      k, k, p.n));
    }
    return k;
  }
};

}  // namespace

const MapReduceApp& kmeans_app() {
  static const KMeans app;
  return app;
}

}  // namespace harness::apps
