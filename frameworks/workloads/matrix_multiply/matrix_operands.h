// The operands of a matrix product as the matrix-f32 dataset lays them out
// (datasets/npy_generators.h): A (n x k) then B (k x m) as two float32 .npy
// arrays in one file, or one array of shape (2, n, n). Shared by the
// matrix-multiply workload (S-L1, ch5) and the MapReduce matrixmult app.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace harness::workloads::matrix_multiply {

// Shapes, and where A and B start in the input, in floats.
struct MatrixOperands {
  std::uint64_t n = 0, k = 0, m = 0, a = 0, b = 0;
  std::uint64_t cells() const { return n * m; }
};

// The operands of `data`; an empty input has none (n = 0). Throws UsageError
// naming `what` for anything else than the two layouts above.
MatrixOperands matrix_operands(const std::uint8_t* data, std::size_t size, const std::string& what);

// Rows [begin, end) of A B in double, each accumulated in index order
// (row[j] += A[i][x] B[x][j] for x ascending): fn(i, row) per row. The
// references' product (the MapReduce app's and the workload's).
template <typename Fn>
void product_rows_f64(const MatrixOperands& o, const std::uint8_t* data, std::uint64_t begin,
                      std::uint64_t end, Fn&& fn) {
  const auto* f = reinterpret_cast<const float*>(data);  // offsets are 4-byte aligned
  std::vector<double> row(o.m);
  for (std::uint64_t i = begin; i < end; ++i) {
    std::fill(row.begin(), row.end(), 0.0);
    for (std::uint64_t x = 0; x < o.k; ++x) {
      const double a = f[o.a + i * o.k + x];
      const float* b = f + o.b + x * o.m;
      for (std::uint64_t j = 0; j < o.m; ++j) row[j] += a * b[j];
    }
    fn(i, static_cast<const std::vector<double>&>(row));
  }
}

}  // namespace harness::workloads::matrix_multiply
