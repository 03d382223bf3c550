#include "frameworks/workloads/matrix_multiply/matrix_output.h"

#include <fmt/format.h>

#include <ostream>

#include "frameworks/workloads/outputs.h"

namespace harness::workloads::matrix_multiply {

std::string MatrixOutput::compare_with(const Output& expected,
                                       const ValidationPolicy& policy) const {
  const auto& e = expect_same_type<MatrixOutput>(expected, "matrix-multiply");
  if (e.rows_ != rows_ || e.columns_ != columns_)
    return fmt::format("C is {} x {}, expected {} x {}", rows_, columns_, e.rows_, e.columns_);
  const bool tolerant = policy.kind == "tolerance";
  std::string bad;
  std::uint64_t wrong = 0;
  for (std::uint64_t c = 0; c < rows_ * columns_; ++c) {
    const double want = e.cells_[c], got = cells_[c];
    if (tolerant ? within_tolerance(want, got, policy) : want == got) continue;
    if (++wrong <= 3)
      bad += fmt::format("{}C[{}][{}] = {:.9g}, expected {:.9g}", bad.empty() ? "" : "; ",
                         c / columns_, c % columns_, got, want);
  }
  if (!wrong) return "";
  return fmt::format("{} of {} cells differ: {}", wrong, rows_ * columns_, bad);
}

void MatrixOutput::dump(std::ostream& out) const {
  for (std::uint64_t i = 0; i < rows_; ++i) {
    for (std::uint64_t j = 0; j < columns_; ++j)
      out << fmt::format("{}\t{}\t{:.9g}\n", i, j, cells_[i * columns_ + j]);
  }
}

}  // namespace harness::workloads::matrix_multiply
