// matrix-multiply: a hand-made product's exact cells and dump, both .npy
// layouts, the CPU-MT product against the double reference on every thread
// count (within the workload's tolerance, not exactly: float32 sums), a
// wrong cell named, malformed inputs refused, the access share.
#include <cstring>
#include <string>
#include <vector>

#include "datasets/npy.h"
#include "frameworks/workloads/matrix_multiply/matrix_output.h"
#include "frameworks/workloads/tests/fixed_records_testing.h"

namespace harness::workloads {
namespace {

using namespace testing;

const std::string kApp = "matrix-multiply";

std::string floats(const std::vector<float>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float)};
}

// A (2 x 3) = [[1 2 3] [4 5 6]], B (3 x 2) = [[7 8] [9 10] [11 12]].
std::string small_product() {
  return datasets::npy_header({2, 3}) + floats({1, 2, 3, 4, 5, 6}) + datasets::npy_header({3, 2}) +
         floats({7, 8, 9, 10, 11, 12});
}

TEST(MatrixMultiply, SmallProductIsExact) {
  const auto out = reference(kApp, small_product());
  EXPECT_EQ(dump(*out), "0\t0\t58\n0\t1\t64\n1\t0\t139\n1\t1\t154\n");
  EXPECT_EQ(out->items(), 4u);
  const auto cpu = run_cpu(kApp, small_product(), 2);
  EXPECT_EQ(dump(*cpu), dump(*out));
}

TEST(MatrixMultiply, OneArrayOfTwoSquareMatrices) {
  // Shape (2, 2, 2): A = [[1 2] [3 4]], B = [[5 6] [7 8]].
  const std::string input = datasets::npy_header({2, 2, 2}) + floats({1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ(dump(*reference(kApp, input)), "0\t0\t19\n0\t1\t22\n1\t0\t43\n1\t1\t50\n");
}

TEST(MatrixMultiply, ThreadsAgreeWithTheReferenceWithinTheTolerance) {
  const ValidationPolicy policy = find_workload(kApp).validation();
  ASSERT_EQ(policy.kind, "tolerance");
  for (const std::string& input :
       {generate("matrix-f32", 8 * 150 * 150), generate("matrix-f32", 8 * 33 * 33, 7)}) {
    const auto expected = reference(kApp, input);
    for (unsigned threads : {1u, 2u, 3u, 7u, 16u})
      EXPECT_EQ(run_cpu(kApp, input, threads)->compare_with(*expected, policy), "") << threads;
  }
  EXPECT_EQ(reference(kApp, "")->items(), 0u);
  EXPECT_EQ(run_cpu(kApp, "", 3)->items(), 0u);
}

TEST(MatrixMultiply, AWrongCellIsNamed) {
  const auto expected = reference(kApp, small_product());
  const auto& e = dynamic_cast<const matrix_multiply::MatrixOutput&>(*expected);
  std::vector<float> cells(e.cells(), e.cells() + 4);
  cells[3] = 155;
  const matrix_multiply::MatrixOutput got(cells.data(), 2, 2);
  const ValidationPolicy policy = find_workload(kApp).validation();
  EXPECT_EQ(got.compare_with(*expected, policy),
            "1 of 4 cells differ: C[1][1] = 155, expected 154");
  cells[3] = 154.001f;  // within 1e-5 + 1e-4 * 154
  EXPECT_EQ(got.compare_with(*expected, policy), "");
  const matrix_multiply::MatrixOutput shape(cells.data(), 4, 1);
  EXPECT_EQ(shape.compare_with(*expected, policy), "C is 4 x 1, expected 2 x 2");
}

TEST(MatrixMultiply, MalformedInputsAreRefused) {
  EXPECT_NE(input_error(kApp, "not a .npy file").find("matrix-multiply input"), std::string::npos);
  // A (2 x 3) then B (2 x 2): the shapes do not chain.
  const std::string unchained = datasets::npy_header({2, 3}) + floats({1, 2, 3, 4, 5, 6}) +
                                datasets::npy_header({2, 2}) + floats({1, 2, 3, 4});
  EXPECT_NE(input_error(kApp, unchained).find("expected two float32 .npy arrays A (n x k) then B"),
            std::string::npos);
  EXPECT_EQ(input_error(kApp, small_product()), "");
}

TEST(MatrixMultiply, AccessShareIsTheFloatsOfAAndB) {
  const std::string input = small_product();
  const AccessShare s = find_workload(kApp).access_share({}, bytes(input), input.size());
  EXPECT_EQ(s.read_bytes, 4u * 12);
  EXPECT_EQ(s.written_bytes, 0u);
  EXPECT_EQ(s.records, 4u);
  EXPECT_EQ(s.input_bytes, input.size());
}

}  // namespace
}  // namespace harness::workloads
