// MatrixMult and MatrixMult3: blocked multiplication C = A B of M x M float
// matrices, A then B row-major from the source each execution. MatrixMult:
// M = 2N in 2 x 2 blocks; MatrixMult3: M = 3N + 3 in 3 x 3 blocks. Row block
// I of C gets A and B through a tree of duplicate split-joins (binary, so no
// splitter holds more than three copies of its input) and keeps A's rows of
// block I; inside it, column block J does the same and keeps B's column J,
// pairs the blocks (I, K) and (K, J), multiplies each pair (a filter firing
// nb times per execution) and sums the nb products. Reference: the plain
// triple loop in double precision.
#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/benchmarks/source_sink.h"
#include "frameworks/streamgraph/structure.h"
#include "harness/dialect/dialect.h"

namespace harness::streamgraph::kernels {
// clang-format off
#include "frameworks/streamgraph/kernels/sg_work.clh"
#include "frameworks/streamgraph/kernels/matrix_mult.clh"
// clang-format on
}  // namespace harness::streamgraph::kernels

namespace harness::streamgraph {

namespace {

constexpr const char* kSource = "frameworks/streamgraph/kernels/matrix_mult.clh";

struct Shape {
  int m;   // matrix side
  int b;   // block side
  int nb;  // blocks per side
};

std::vector<std::uint32_t> params(const Shape& s, int index) {
  return {static_cast<std::uint32_t>(s.m), static_cast<std::uint32_t>(s.b),
          static_cast<std::uint32_t>(index)};
}

// Leaves lo..hi-1 of `leaf`, fed by duplicate splitters in a binary tree and
// joined in order, each leaf producing `out_items` per execution.
template <class Leaf>
Stream duplicate_tree(int lo, int hi, int out_items, const Leaf& leaf, const std::string& name) {
  if (hi - lo == 1) return leaf(lo);
  const int mid = (lo + hi) / 2;
  std::vector<Stream> halves;
  halves.push_back(duplicate_tree(lo, mid, out_items, leaf, name));
  halves.push_back(duplicate_tree(mid, hi, out_items, leaf, name));
  return split_join(duplicate(), std::move(halves),
                    join_round_robin({out_items * (mid - lo), out_items * (hi - mid)}),
                    name + std::to_string(lo) + "_" + std::to_string(hi));
}

Stream column_block(const Shape& s, int i, int j) {
  const std::string tag = std::to_string(i) + "_" + std::to_string(j);
  const int bb = s.b * s.b;
  std::vector<Stream> stages;
  stages.push_back(filter(kernel_filter<float>(
      "select_col" + tag, s.b * s.m + s.m * s.m, s.b * s.m + s.m * s.m, 2 * bb * s.nb,
      SG_KERNEL(sg_mm_select_col_block), kSource, params(s, j))));
  FilterSpec mul = kernel_filter<float>("multiply" + tag, 2 * bb, 2 * bb, bb,
                                        SG_KERNEL(sg_mm_block_multiply), kSource, params(s, 0));
  mul.cost = 2.0 * bb * s.b;
  stages.push_back(filter(std::move(mul)));
  stages.push_back(filter(kernel_filter<float>("add" + tag, bb * s.nb, bb * s.nb, bb,
                                               SG_KERNEL(sg_mm_block_add), kSource, params(s, 0))));
  return pipeline(std::move(stages));
}

Stream row_block(const Shape& s, int i) {
  const std::string tag = std::to_string(i);
  const int bb = s.b * s.b;
  std::vector<Stream> stages;
  stages.push_back(filter(
      kernel_filter<float>("select_row" + tag, 2 * s.m * s.m, 2 * s.m * s.m, s.b * s.m + s.m * s.m,
                           SG_KERNEL(sg_mm_select_row_block), kSource, params(s, i))));
  stages.push_back(duplicate_tree(
      0, s.nb, bb, [&](int j) { return column_block(s, i, j); }, "cols" + tag + "_"));
  stages.push_back(
      filter(kernel_filter<float>("to_rows" + tag, bb * s.nb, bb * s.nb, s.b * s.m,
                                  SG_KERNEL(sg_mm_blocks_to_rows), kSource, params(s, i))));
  return pipeline(std::move(stages));
}

Benchmark make_blocked(const std::string& name, int n, const Shape& s, std::uint64_t seed) {
  Benchmark bench;
  bench.name = name;
  bench.n = n;
  auto report = std::make_shared<SinkReport>();
  bench.report = report;
  const auto mm = static_cast<std::size_t>(s.m * s.m);
  const int m = s.m;
  // Each input drawn once (2 M^2 draws, not M^3: the check of MatrixMult3
  // N = 20 took 4.5 s a run), then C = A B in double, row by row.
  auto reference = [seed, mm, m](std::uint64_t block) {
    const std::uint64_t base = block * 2 * mm;
    std::vector<double> a(mm), b(mm), c(mm, 0.0);
    for (std::size_t i = 0; i < mm; ++i) {
      a[i] = input_f32(seed, base + i);
      b[i] = input_f32(seed, base + mm + i);
    }
    const auto mu = static_cast<std::size_t>(m);
    for (std::size_t r = 0; r < mu; ++r) {
      double* row = &c[r * mu];
      for (std::size_t k = 0; k < mu; ++k) {
        const double ark = a[r * mu + k];
        const double* brow = &b[k * mu];
        for (std::size_t col = 0; col < mu; ++col) row[col] += ark * brow[col];
      }
    }
    return c;
  };
  std::vector<Stream> stages;
  stages.push_back(filter(source_f32(seed)));
  stages.push_back(duplicate_tree(
      0, s.nb, s.b * s.m, [&](int i) { return row_block(s, i); }, "rows_"));
  stages.push_back(filter(checking_sink_f32(mm, reference, Tolerance{1e-5 * s.m, 1e-4}, report)));
  bench.graph = build_graph(pipeline(std::move(stages)), ItemType::f32);
  return bench;
}

}  // namespace

Benchmark make_matrix_mult(int n, std::uint64_t seed) {
  return make_blocked("MatrixMult", n, {2 * n, 2, n}, seed);
}

Benchmark make_matrix_mult3(int n, std::uint64_t seed) {
  return make_blocked("MatrixMult3", n, {3 * n + 3, 3, n + 1}, seed);
}

}  // namespace harness::streamgraph
