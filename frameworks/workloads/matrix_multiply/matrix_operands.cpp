#include "frameworks/workloads/matrix_multiply/matrix_operands.h"

#include <fmt/format.h>

#include "datasets/npy.h"
#include "harness/core/errors.h"

namespace harness::workloads::matrix_multiply {

MatrixOperands matrix_operands(const std::uint8_t* data, std::size_t size,
                               const std::string& what) {
  if (size == 0) return {};  // empty input: no cells
  const auto arrays = datasets::parse_npy_arrays(data, size, what);
  for (const datasets::NpyArray& array : arrays) {
    if (array.data_offset % 4 != 0)
      throw UsageError(fmt::format("{}: an array's floats start at byte {}, not a multiple of 4",
                                   what, array.data_offset));
  }
  MatrixOperands o;
  if (arrays.size() == 1 && arrays[0].shape.size() == 3 && arrays[0].shape[0] == 2 &&
      arrays[0].shape[1] == arrays[0].shape[2]) {
    o.n = o.k = o.m = arrays[0].shape[1];
    o.a = arrays[0].data_offset / 4;
    o.b = o.a + o.n * o.n;
  } else if (arrays.size() == 2 && arrays[0].shape.size() == 2 && arrays[1].shape.size() == 2 &&
             arrays[0].shape[1] == arrays[1].shape[0]) {
    o.n = arrays[0].shape[0];
    o.k = arrays[0].shape[1];
    o.m = arrays[1].shape[1];
    o.a = arrays[0].data_offset / 4;
    o.b = arrays[1].data_offset / 4;
  } else {
    throw UsageError(what +
                     ": expected two float32 .npy arrays A (n x k) then B (k x m) in one file "
                     "(numpy.save twice on one open file), or one array of shape (2, n, n)");
  }
  return o;
}

}  // namespace harness::workloads::matrix_multiply
