#include "datasets/uniform_f32.h"

#include <cstring>
#include <vector>

#include "datasets/random.h"

namespace harness::datasets {
namespace {

constexpr std::uint64_t kChunkBytes = std::uint64_t{1} << 20;

class UniformF32 final : public Generator {
 public:
  std::string name() const override { return "uniform-f32"; }
  std::string description() const override {
    return "float32 values uniform in [0, 1) (little-endian), for numeric kernels";
  }
  int version() const override { return 1; }
  std::string extension() const override { return "f32"; }
  void generate(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out) const override {
    std::vector<float> values(kChunkBytes / 4);
    for (std::uint64_t chunk = 0; chunk * kChunkBytes < size_bytes && out; ++chunk) {
      Rng rng(mix_seed(seed, chunk));
      for (float& v : values)
        v = static_cast<float>(rng.next() >> 40) * (1.0f / 16777216.0f);  // 24 random bits
      const std::uint64_t left = size_bytes - chunk * kChunkBytes;
      const auto n = static_cast<std::streamsize>(left < kChunkBytes ? left : kChunkBytes);
      static_assert(sizeof(float) == 4, "float32");
      out.write(reinterpret_cast<const char*>(values.data()), n);  // x86/ARM: little-endian
    }
  }
};

}  // namespace

const Generator& uniform_f32_generator() {
  static const UniformF32 g;
  return g;
}

}  // namespace harness::datasets
