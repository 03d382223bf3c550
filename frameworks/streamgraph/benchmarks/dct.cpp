// DCT: the two-dimensional DCT-II (orthonormal) of N x N float matrices, one
// per execution: a round-robin(N) split-join transforms each row with a
// one-dimensional DCT filter, a round-robin(1) split-join each column.
// Reference: the 2-D formula in double precision (DctReference).
#include <cmath>
#include <numbers>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/benchmarks/source_sink.h"
#include "frameworks/streamgraph/structure.h"
#include "harness/dialect/dialect.h"

namespace harness::streamgraph::kernels {
// clang-format off
#include "frameworks/streamgraph/kernels/sg_work.clh"
#include "frameworks/streamgraph/kernels/dct.clh"
// clang-format on
}  // namespace harness::streamgraph::kernels

namespace harness::streamgraph {

namespace {

double dct_scale(int k, int n) { return std::sqrt((k == 0 ? 1.0 : 2.0) / n); }

FilterSpec dct_1d(int n, const std::string& name) {
  std::vector<float> coeff(static_cast<std::size_t>(n * n));
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < n; ++j) {
      coeff[static_cast<std::size_t>(k * n + j)] = static_cast<float>(
          dct_scale(k, n) * std::cos(std::numbers::pi * (2 * j + 1) * k / (2.0 * n)));
    }
  }
  FilterSpec f = kernel_filter<float>(name, n, n, n, SG_KERNEL(sg_dct_1d),
                                      "frameworks/streamgraph/kernels/dct.clh",
                                      {static_cast<std::uint32_t>(n)}, std::move(coeff));
  f.cost = 2.0 * n * n;
  return f;
}

// X[u][v] = c(u) c(v) sum_x sum_y f[x][y] cos((2x+1) u pi / 2N) cos((2y+1) v pi / 2N),
// in double precision from a table of the cosines, the sum over y taken once
// per (x, v) (the formula is separable): O(N^3) a block instead of O(N^4)
// with two cosines each, which made the sink, and so the whole run, CPU-bound
// (DCT N = 20 on an H100 host: 14 s a run, 1.3 G cosines).
class DctReference {
 public:
  explicit DctReference(int n) : n_(n), c_(static_cast<std::size_t>(n * n)) {
    for (int k = 0; k < n; ++k) {
      for (int j = 0; j < n; ++j) {
        c_[at(k, j)] = dct_scale(k, n) * std::cos(std::numbers::pi * (2 * j + 1) * k / (2.0 * n));
      }
    }
  }

  std::vector<double> operator()(const std::vector<double>& f) const {
    std::vector<double> rows(f.size());  // rows[x][v] = sum_y f[x][y] c(v) cos(...y...)
    for (int x = 0; x < n_; ++x) {
      for (int v = 0; v < n_; ++v) {
        double sum = 0;
        for (int y = 0; y < n_; ++y) sum += f[at(x, y)] * c_[at(v, y)];
        rows[at(x, v)] = sum;
      }
    }
    std::vector<double> out(f.size());
    for (int u = 0; u < n_; ++u) {
      for (int v = 0; v < n_; ++v) {
        double sum = 0;
        for (int x = 0; x < n_; ++x) sum += c_[at(u, x)] * rows[at(x, v)];
        out[at(u, v)] = sum;
      }
    }
    return out;
  }

 private:
  std::size_t at(int i, int j) const { return static_cast<std::size_t>(i * n_ + j); }

  int n_;
  std::vector<double> c_;  // c_[k][j] = c(k) cos((2j+1) k pi / 2N)
};

}  // namespace

Benchmark make_dct(int n, std::uint64_t seed) {
  Benchmark b;
  b.name = "DCT";
  b.n = n;
  auto report = std::make_shared<SinkReport>();
  b.report = report;
  std::vector<Stream> rows;
  std::vector<Stream> cols;
  for (int i = 0; i < n; ++i) {
    rows.push_back(filter(dct_1d(n, "dct_row" + std::to_string(i))));
    cols.push_back(filter(dct_1d(n, "dct_col" + std::to_string(i))));
  }
  const auto items = static_cast<std::size_t>(n * n);
  auto reference = [seed, items, dct = DctReference(n)](std::uint64_t block) {
    std::vector<double> f(items);
    for (std::size_t i = 0; i < items; ++i) f[i] = input_f32(seed, block * items + i);
    return dct(f);
  };
  std::vector<Stream> stages;
  stages.push_back(filter(source_f32(seed)));
  stages.push_back(split_join(round_robin({n}), std::move(rows), join_round_robin({n}), "rows"));
  stages.push_back(split_join(round_robin({1}), std::move(cols), join_round_robin({1}), "cols"));
  stages.push_back(filter(checking_sink_f32(items, reference, Tolerance{1e-5 * n, 1e-4}, report)));
  b.graph = build_graph(pipeline(std::move(stages)), ItemType::f32);
  return b;
}

}  // namespace harness::streamgraph
