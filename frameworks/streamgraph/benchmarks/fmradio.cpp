// FMRadio: an FM radio with an (N + 3)-band equalizer, after StreamIt's
// FMRadio: a decimating low-pass FIR (64 taps, decimation 4: peek 64, pop
// 5), an FM demodulator (peek 2, pop 1), then a duplicate split-join over the
// bands, each band the difference of two low-pass FIRs (itself a duplicate
// split-join) scaled by the band's gain, and a filter summing the bands. The
// FIR taps are the design (windowed sinc); the reference recomputes the whole
// chain from the input stream in double precision, sample by sample.
#include <cmath>
#include <numbers>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/benchmarks/source_sink.h"
#include "frameworks/streamgraph/structure.h"
#include "harness/dialect/dialect.h"

namespace harness::streamgraph::kernels {
// clang-format off
#include "frameworks/streamgraph/kernels/sg_work.clh"
#include "frameworks/streamgraph/kernels/fmradio.clh"
// clang-format on
}  // namespace harness::streamgraph::kernels

namespace harness::streamgraph {

namespace {

constexpr const char* kSource = "frameworks/streamgraph/kernels/fmradio.clh";
constexpr int kTaps = 64;
constexpr int kDecimation = 4;
constexpr double kFrontCutoff = 0.432;  // of the input sampling rate (StreamIt: 108 of 250 MHz)
constexpr double kDemodGain = 1.0;
constexpr double kLowestCutoff = 0.01;  // equalizer band edges, geometric, of the sampling rate
constexpr double kHighestCutoff = 0.4;

// Hamming-windowed sinc low-pass filter, cutoff as a fraction of the sampling rate.
std::vector<double> lowpass_taps(double cutoff) {
  std::vector<double> h(kTaps);
  const double m = kTaps - 1;
  const double w = 2 * std::numbers::pi * cutoff;
  for (int i = 0; i < kTaps; ++i) {
    const double t = i - m / 2;
    h[static_cast<std::size_t>(i)] = std::sin(w * t) / (std::numbers::pi * t) *
                                     (0.54 - 0.46 * std::cos(2 * std::numbers::pi * i / m));
  }
  return h;
}

std::vector<double> band_edges(int bands) {
  std::vector<double> edges;
  for (int i = 0; i <= bands; ++i) {
    edges.push_back(kLowestCutoff *
                    std::pow(kHighestCutoff / kLowestCutoff, static_cast<double>(i) / bands));
  }
  return edges;
}

double band_gain(int band, int bands) { return 1.0 + static_cast<double>(band) / bands; }

std::vector<float> to_float(const std::vector<double>& v) { return {v.begin(), v.end()}; }

FilterSpec fir(const std::string& name, double cutoff, int decimation) {
  FilterSpec f =
      kernel_filter<float>(name, decimation + 1, kTaps, 1, SG_KERNEL(sg_fir), kSource,
                           {static_cast<std::uint32_t>(kTaps)}, to_float(lowpass_taps(cutoff)));
  f.cost = 2.0 * kTaps;
  return f;
}

Stream band(int i, double low, double high, double gain) {
  const std::string tag = std::to_string(i);
  std::vector<Stream> pair;
  pair.push_back(filter(fir("band" + tag + "_high", high, 0)));
  pair.push_back(filter(fir("band" + tag + "_low", low, 0)));
  std::vector<Stream> stages;
  stages.push_back(split_join(duplicate(), std::move(pair), join_round_robin({1}), "band" + tag));
  stages.push_back(filter(
      kernel_filter<float>("band" + tag + "_subtract", 2, 2, 1, SG_KERNEL(sg_subtract), kSource)));
  stages.push_back(
      filter(kernel_filter<float>("band" + tag + "_gain", 1, 1, 1, SG_KERNEL(sg_amplify), kSource,
                                  {}, {static_cast<float>(gain)})));
  return pipeline(std::move(stages));
}

// The radio in double precision, one output sample at a time.
class RadioReference {
 public:
  RadioReference(std::uint64_t seed, int bands) : seed_(seed), front_(lowpass_taps(kFrontCutoff)) {
    const std::vector<double> edges = band_edges(bands);
    // Each band's two filters and gain fold into one FIR: g (h_high - h_low).
    for (int b = 0; b < bands; ++b) {
      const auto lo = lowpass_taps(edges[static_cast<std::size_t>(b)]);
      const auto hi = lowpass_taps(edges[static_cast<std::size_t>(b) + 1]);
      std::vector<double> h(kTaps);
      for (std::size_t i = 0; i < h.size(); ++i) h[i] = band_gain(b, bands) * (hi[i] - lo[i]);
      bands_.push_back(std::move(h));
    }
  }

  double output(std::uint64_t j) {
    double out = 0;
    for (const auto& h : bands_) {
      for (int i = 0; i < kTaps; ++i)
        out += h[static_cast<std::size_t>(i)] * demod(j + static_cast<std::uint64_t>(i));
    }
    return out;
  }

 private:
  double lowpassed(std::uint64_t k) {
    while (lowpassed_.size() <= k) {
      const std::uint64_t first = lowpassed_.size() * (kDecimation + 1);
      double sum = 0;
      for (int i = 0; i < kTaps; ++i) {
        sum += front_[static_cast<std::size_t>(i)] *
               input_f32(seed_, first + static_cast<std::uint64_t>(i));
      }
      lowpassed_.push_back(sum);
    }
    return lowpassed_[k];
  }
  double demod(std::uint64_t k) { return kDemodGain * std::atan(lowpassed(k) * lowpassed(k + 1)); }

  std::uint64_t seed_;
  std::vector<double> front_;
  std::vector<std::vector<double>> bands_;
  std::vector<double>
      lowpassed_;  // the front filter's outputs so far (grows with the test's length)
};

}  // namespace

Benchmark make_fmradio(int n, std::uint64_t seed) {
  Benchmark b;
  b.name = "FMRadio";
  b.n = n;
  auto report = std::make_shared<SinkReport>();
  b.report = report;
  const int bands = n + 3;
  const std::vector<double> edges = band_edges(bands);
  std::vector<Stream> band_streams;
  for (int i = 0; i < bands; ++i) {
    band_streams.push_back(band(i, edges[static_cast<std::size_t>(i)],
                                edges[static_cast<std::size_t>(i) + 1], band_gain(i, bands)));
  }
  auto radio = std::make_shared<RadioReference>(seed, bands);
  auto reference = [radio](std::uint64_t block) {
    return std::vector<double>{radio->output(block)};
  };
  std::vector<Stream> stages;
  stages.push_back(filter(source_f32(seed)));
  stages.push_back(filter(fir("front_lowpass", kFrontCutoff, kDecimation)));
  stages.push_back(filter(kernel_filter<float>("demodulate", 1, 2, 1, SG_KERNEL(sg_fm_demodulate),
                                               kSource, {}, {static_cast<float>(kDemodGain)})));
  stages.push_back(
      split_join(duplicate(), std::move(band_streams), join_round_robin({1}), "equalizer"));
  stages.push_back(filter(kernel_filter<float>("sum_bands", bands, bands, 1, SG_KERNEL(sg_sum),
                                               kSource, {static_cast<std::uint32_t>(bands)})));
  stages.push_back(filter(checking_sink_f32(1, reference, Tolerance{1e-4, 1e-4}, report)));
  b.graph = build_graph(pipeline(std::move(stages)), ItemType::f32);
  return b;
}

}  // namespace harness::streamgraph
