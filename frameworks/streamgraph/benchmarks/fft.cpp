// FFT: the fine-grained radix-2 FFT of N complex items (N a power of two),
// one transform per execution, as StreamIt's FFT2: reorder filters of sizes
// N, N/2, ..., 4 put the input in bit-reversed order, then combine filters of
// sizes 2, 4, ..., N do the butterflies (a size-k filter fires N/k times per
// execution). Complex items are (re, im) float pairs. Reference: the direct
// DFT in double precision.
#include <cmath>
#include <numbers>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/benchmarks/bitonic_common.h"
#include "frameworks/streamgraph/benchmarks/source_sink.h"
#include "frameworks/streamgraph/structure.h"
#include "harness/dialect/dialect.h"

namespace harness::streamgraph::kernels {
// clang-format off
#include "frameworks/streamgraph/kernels/sg_work.clh"
#include "frameworks/streamgraph/kernels/fft.clh"
// clang-format on
}  // namespace harness::streamgraph::kernels

namespace harness::streamgraph {

namespace {

constexpr const char* kSource = "frameworks/streamgraph/kernels/fft.clh";

FilterSpec reorder(int k) {
  FilterSpec f =
      kernel_filter<float>("reorder" + std::to_string(k), 2 * k, 2 * k, 2 * k,
                           SG_KERNEL(sg_fft_reorder), kSource, {static_cast<std::uint32_t>(k)});
  return f;
}

FilterSpec combine(int k) {
  std::vector<float> twiddles;
  for (int i = 0; i < k / 2; ++i) {
    const double angle = -2.0 * std::numbers::pi * i / k;
    twiddles.push_back(static_cast<float>(std::cos(angle)));
    twiddles.push_back(static_cast<float>(std::sin(angle)));
  }
  FilterSpec f = kernel_filter<float>("combine" + std::to_string(k), 2 * k, 2 * k, 2 * k,
                                      SG_KERNEL(sg_fft_combine), kSource,
                                      {static_cast<std::uint32_t>(k)}, std::move(twiddles));
  f.cost = 5.0 * k;
  return f;
}

// X[k] = sum_j x[j] exp(-2 pi i j k / n), as (re, im) pairs: the direct DFT in
// double precision, its n roots of unity from a table (computing two sines
// and cosines per term made the sink dominate the run at large N).
class DftReference {
 public:
  explicit DftReference(int n) : n_(n) {
    for (int m = 0; m < n; ++m) {
      const double angle = -2.0 * std::numbers::pi * m / n;
      cos_.push_back(std::cos(angle));
      sin_.push_back(std::sin(angle));
    }
  }

  std::vector<double> operator()(const std::vector<double>& x) const {
    std::vector<double> out(x.size());
    for (int k = 0; k < n_; ++k) {
      double re = 0;
      double im = 0;
      for (int j = 0; j < n_; ++j) {
        const auto m = static_cast<std::size_t>((static_cast<long>(j) * k) % n_);
        const double xr = x[static_cast<std::size_t>(2 * j)];
        const double xi = x[static_cast<std::size_t>(2 * j + 1)];
        re += xr * cos_[m] - xi * sin_[m];
        im += xr * sin_[m] + xi * cos_[m];
      }
      out[static_cast<std::size_t>(2 * k)] = re;
      out[static_cast<std::size_t>(2 * k + 1)] = im;
    }
    return out;
  }

 private:
  int n_;
  std::vector<double> cos_, sin_;  // of -2 pi m / n
};

}  // namespace

Benchmark make_fft(int n, std::uint64_t seed) {
  Benchmark b;
  b.name = "FFT";
  b.n = n;
  auto report = std::make_shared<SinkReport>();
  b.report = report;
  std::vector<Stream> stages;
  stages.push_back(filter(source_f32(seed)));
  for (int k = n; k >= 4; k /= 2) stages.push_back(filter(reorder(k)));
  for (int k = 2; k <= n; k *= 2) stages.push_back(filter(combine(k)));
  const auto items = static_cast<std::size_t>(2 * n);
  auto reference = [seed, items, dft = DftReference(n)](std::uint64_t block) {
    std::vector<double> x(items);
    for (std::size_t i = 0; i < items; ++i) x[i] = input_f32(seed, block * items + i);
    return dft(x);
  };
  stages.push_back(filter(checking_sink_f32(items, reference, Tolerance{1e-5 * n, 1e-4}, report)));
  b.graph = build_graph(pipeline(std::move(stages)), ItemType::f32);
  return b;
}

}  // namespace harness::streamgraph
