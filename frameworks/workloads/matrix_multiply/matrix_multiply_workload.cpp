// matrix-multiply (thesis chapter 5, S-L1's table 5.1): C = A B, the naive
// product that reads A's row and B's column for every cell (no tiling, no
// shared memory); three data structures, A, B and C.
#include <algorithm>
#include <vector>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/matrix_multiply/matrix_operands.h"
#include "frameworks/workloads/matrix_multiply/matrix_output.h"
#include "harness/core/errors.h"
#include "harness/core/parallel.h"

namespace harness::workloads {
namespace {

using namespace matrix_multiply;

constexpr const char* kWhat = "matrix-multiply input";

class MatrixMultiply final : public Workload {
 public:
  std::string name() const override { return "matrix-multiply"; }
  std::string description() const override {
    return "C = A B for float32 matrices A (n x k) and B (k x m) of one .npy file, the naive "
           "product (each cell a dot product of A's row and B's column)";
  }
  std::string default_dataset() const override { return "matrix-f32"; }
  std::string record_type() const override { return "fixed"; }
  std::string chapters() const override { return "ch5"; }
  // float32 dot products against the double reference: relative error about
  // sqrt(k) 2^-24 (the MapReduce matrixmult app's tolerance).
  ValidationPolicy validation() const override { return {"tolerance", 1e-4, 1e-5}; }

  void check_input(const std::uint8_t* data, std::size_t size) const override {
    try {
      matrix_operands(data, size, kWhat);
    } catch (const UsageError& e) {
      throw RunError(e.what());
    }
  }

  // Row by row on every host core (a serial product of the gpu preset's 64
  // MiB, 2 x 2896^3 operations, takes minutes), each row in double in index
  // order: the same sums whatever the thread count.
  std::unique_ptr<Output> reference(const Params&, const std::uint8_t* data,
                                    std::size_t size) const override {
    const MatrixOperands o = matrix_operands(data, size, kWhat);
    auto out = std::make_unique<MatrixOutput>(o.n, o.m);
    float* c = out->cells();
    parallel_ranges(o.n, 0, 1, [&](std::uint64_t begin, std::uint64_t end) {
      product_rows_f64(o, data, begin, end, [&](std::uint64_t i, const std::vector<double>& row) {
        for (std::uint64_t j = 0; j < o.m; ++j) c[i * o.m + j] = static_cast<float>(row[j]);
      });
    });
    return out;
  }

  // The CPU-MT baseline: float32 throughout, rows split over the threads, and
  // within a row B's rows streamed a block of columns at a time (the row of C
  // stays in L1 while A's entries scale B's rows into it, which vectorizes).
  std::unique_ptr<Output> run_cpu(const Params&, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    const MatrixOperands o = matrix_operands(data, size, kWhat);
    auto out = std::make_unique<MatrixOutput>(o.n, o.m);
    float* c = out->cells();
    const auto* f = reinterpret_cast<const float*>(data);
    constexpr std::uint64_t kColumns = 1024;
    parallel_ranges(o.n, threads, 1, [&](std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t i = begin; i < end; ++i) {
        const float* a = f + o.a + i * o.k;
        float* row = c + i * o.m;
        for (std::uint64_t j0 = 0; j0 < o.m; j0 += kColumns) {
          const std::uint64_t j1 = std::min(o.m, j0 + kColumns);
          std::fill(row + j0, row + j1, 0.0f);
          for (std::uint64_t x = 0; x < o.k; ++x) {
            const float ax = a[x];
            const float* b = f + o.b + x * o.m;
            for (std::uint64_t j = j0; j < j1; ++j) row[j] += ax * b[j];
          }
        }
      }
    });
    return out;
  }

  // Every float of A and B is read (the .npy headers are not); C is not part
  // of the input.
  AccessShare access_share(const Params&, const std::uint8_t* data,
                           std::size_t size) const override {
    const MatrixOperands o = matrix_operands(data, size, kWhat);
    AccessMap map(size);
    map.read(4 * o.a, 4 * o.n * o.k);
    map.read(4 * o.b, 4 * o.k * o.m);
    return map.share(o.cells());
  }
};

}  // namespace

const Workload& matrix_multiply_workload() {
  static const MatrixMultiply w;
  return w;
}

}  // namespace harness::workloads
