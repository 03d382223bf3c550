// matrix-multiply's answer: C (rows x columns float32, row-major). Dump: one
// line per cell, `row<TAB>column<TAB>value`, row-major (the format
// scripts/matrixmult_check.py reads). Compare: the same shape, every cell
// within the policy's tolerance ("tolerance"), else equal.
#pragma once

#include <cstdint>
#include <memory>

#include "frameworks/workloads/workload.h"

namespace harness::workloads::matrix_multiply {

class MatrixOutput final : public Output {
 public:
  // Owning: the cells are left uninitialized, so the threads that fill them
  // touch them first.
  MatrixOutput(std::uint64_t rows, std::uint64_t columns)
      : owned_(new float[rows * columns]), cells_(owned_.get()), rows_(rows), columns_(columns) {}
  // A view of cells someone else owns (a run's result in pinned memory).
  MatrixOutput(const float* cells, std::uint64_t rows, std::uint64_t columns)
      : cells_(cells), rows_(rows), columns_(columns) {}

  float* cells() { return owned_.get(); }  // only for an owning output
  const float* cells() const { return cells_; }
  std::uint64_t rows() const { return rows_; }
  std::uint64_t columns() const { return columns_; }

  std::string compare_with(const Output& expected, const ValidationPolicy& policy) const override;
  void dump(std::ostream& out) const override;
  std::uint64_t items() const override { return rows_ * columns_; }

 private:
  std::unique_ptr<float[]> owned_;
  const float* cells_;
  std::uint64_t rows_, columns_;
};

}  // namespace harness::workloads::matrix_multiply
