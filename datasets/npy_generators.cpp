#include "datasets/npy_generators.h"

#include <cmath>
#include <vector>

#include "datasets/npy.h"
#include "datasets/random.h"

namespace harness::datasets {
namespace {

float uniform01(Rng& rng) {  // 24 random bits: exact in float
  return static_cast<float>(rng.next() >> 40) * (1.0f / 16777216.0f);
}

void write_floats(std::ostream& out, const std::vector<float>& v) {
  out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(4 * v.size()));
}

// One array of `rows` x `cols`, row r filled by fill(rng seeded from (seed, stream, r), row).
template <typename Fill>
void write_array(std::ostream& out, std::uint64_t rows, std::uint64_t cols, std::uint64_t seed,
                 std::uint64_t stream, const Fill& fill) {
  const std::string header = npy_header({rows, cols});
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  std::vector<float> row(cols);
  for (std::uint64_t r = 0; r < rows && out; ++r) {
    Rng rng(mix_seed(mix_seed(seed, stream), r));
    fill(rng, row);
    write_floats(out, row);
  }
}

std::uint64_t header_bytes(std::uint64_t rows, std::uint64_t cols) {
  return npy_header({rows, cols}).size();
}

class MatrixF32 final : public Generator {
 public:
  std::string name() const override { return "matrix-f32"; }
  std::string description() const override {
    return "two n x n float32 matrices (.npy, one after the other), entries uniform in [0, 1)";
  }
  int version() const override { return 1; }
  std::string extension() const override { return "npy"; }
  static std::uint64_t order(std::uint64_t size) {
    auto n = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(size / 8)));
    while (8 * (n + 1) * (n + 1) <= size) ++n;
    while (n > 0 && 8 * n * n > size) --n;
    return n;
  }
  std::uint64_t output_bytes(std::uint64_t size) const override {
    const std::uint64_t n = order(size);
    return 2 * (header_bytes(n, n) + 4 * n * n);
  }
  void generate(std::uint64_t size, std::uint64_t seed, std::ostream& out) const override {
    const std::uint64_t n = order(size);
    auto fill = [](Rng& rng, std::vector<float>& row) {
      for (float& v : row) v = uniform01(rng);
    };
    write_array(out, n, n, seed, 0, fill);
    write_array(out, n, n, seed, 1, fill);
  }
};

class FeaturesF32 final : public Generator {
 public:
  std::string name() const override { return "features-f32"; }
  std::string description() const override {
    return "documents x 128 float32 tf-idf-like feature weights (.npy) from 16 topics";
  }
  int version() const override { return 1; }
  std::string extension() const override { return "npy"; }
  static std::uint64_t documents(std::uint64_t size) { return size / (4 * kFeaturesPerDocument); }
  std::uint64_t output_bytes(std::uint64_t size) const override {
    const std::uint64_t d = documents(size);
    return header_bytes(d, kFeaturesPerDocument) + 4 * kFeaturesPerDocument * d;
  }
  void generate(std::uint64_t size, std::uint64_t seed, std::ostream& out) const override {
    constexpr std::uint32_t kTopics = 16;
    write_array(out, documents(size), kFeaturesPerDocument, seed, 0,
                [](Rng& rng, std::vector<float>& row) {
                  const std::uint32_t topic = rng.below(kTopics);
                  for (std::size_t f = 0; f < row.size(); ++f) {
                    // A topic's own features (every 16th, offset by the topic) are
                    // used by half its documents; any feature by 1 in 8.
                    const bool own = f % kTopics == topic;
                    const bool used = rng.below(own ? 2 : 8) == 0;
                    row[f] = used ? (own ? 1.0f : 0.25f) * (0.25f + uniform01(rng)) : 0.0f;
                  }
                });
  }
};

class PointsF32 final : public Generator {
 public:
  std::string name() const override { return "points-f32"; }
  std::string description() const override {
    return "points x 4 float32 coordinates (.npy) around 32 cluster centres in [0, 100)^4";
  }
  int version() const override { return 1; }
  std::string extension() const override { return "npy"; }
  static std::uint64_t points(std::uint64_t size) { return size / (4 * kPointDims); }
  std::uint64_t output_bytes(std::uint64_t size) const override {
    const std::uint64_t n = points(size);
    return header_bytes(n, kPointDims) + 4 * kPointDims * n;
  }
  void generate(std::uint64_t size, std::uint64_t seed, std::ostream& out) const override {
    constexpr std::uint32_t kClusters = 32;
    std::vector<float> centres(kClusters * kPointDims);
    Rng centre_rng(mix_seed(seed, 0xce47e5));
    for (float& c : centres) c = 100.0f * uniform01(centre_rng);
    write_array(out, points(size), kPointDims, seed, 1, [&](Rng& rng, std::vector<float>& row) {
      const std::uint32_t c = rng.below(kClusters);
      for (std::size_t d = 0; d < row.size(); ++d) {
        // Irwin-Hall(4) - 2: mean 0, standard deviation 0.577; times 5: about 2.9.
        const float noise =
            uniform01(rng) + uniform01(rng) + uniform01(rng) + uniform01(rng) - 2.0f;
        row[d] = centres[c * kPointDims + d] + 5.0f * noise;
      }
    });
  }
};

}  // namespace

const Generator& matrix_f32_generator() {
  static const MatrixF32 g;
  return g;
}
const Generator& features_f32_generator() {
  static const FeaturesF32 g;
  return g;
}
const Generator& points_f32_generator() {
  static const PointsF32 g;
  return g;
}

}  // namespace harness::datasets
