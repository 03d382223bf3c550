// matrix-multiply (apps/matrix_multiply.clh): C in a device array of its own,
// copied back into pinned memory kept from run to run and viewed by the
// output (checked before the next run overwrites it).
#include <optional>

#include "frameworks/blocks/pinned_array.h"
#include "frameworks/sl1/app_kernels.h"
#include "frameworks/workloads/matrix_multiply/matrix_operands.h"
#include "frameworks/workloads/matrix_multiply/matrix_output.h"

namespace harness::sl1 {
namespace {

using backend::local_memory;
namespace mm = workloads::matrix_multiply;

class MatrixMultiplyKernel final : public AppKernel {
 public:
  std::string source() const override { return "frameworks/sl1/apps/matrix_multiply.clh"; }
  std::vector<std::string> structures() const override { return {"a", "b", "c"}; }
  std::string staging_problem() const override {
    return "matrix-multiply has no staged kernel: the staged kernels scan a text byte by byte, "
           "matrix-multiply reads a row of A and a column of B for each cell";
  }
  std::string kernel_name(Mode) const override { return "sl1_matrix_multiply"; }
  // The cells are dealt out GLOBAL_SIZE apart, not in slices: no cuts (the
  // point uploads these zeros unread).
  std::vector<std::uint64_t> cuts(const std::uint8_t*, std::size_t, unsigned parts) const override {
    return std::vector<std::uint64_t>(parts + 1, 0);
  }
  void prepare(backend::Device& device, const Params&, const std::uint8_t* input, std::size_t size,
               std::uint64_t) override {
    operands_ = mm::matrix_operands(input, size, "matrix-multiply input");
    c_ = padded_zeros(device, operands_.cells() * sizeof(float));
    host_.emplace(device);
    host_->resize(operands_.cells());
  }
  void launch(backend::Queue& q, const backend::Kernel& k, const Launch& l) override {
    const mm::MatrixOperands& o = operands_;
    q.launch(k, l.shape, *l.text, c_, o.n, o.k, o.m, std::uint64_t{4 * o.a}, std::uint64_t{4 * o.b},
             l.lines, l.monitor, *l.stats, local_memory(l.local_bytes));
  }
  std::unique_ptr<workloads::Output> read_output(backend::Queue& q, const Launch&) override {
    if (operands_.cells()) read_now(q, host_->data(), c_, 0, copied_out());
    return std::make_unique<mm::MatrixOutput>(host_->data(), operands_.n, operands_.m);
  }
  std::uint64_t copied_out() const override { return operands_.cells() * sizeof(float); }

 private:
  mm::MatrixOperands operands_;
  backend::Buffer c_;
  std::optional<blocks::PinnedArray<float>> host_;  // pinned, kept from run to run
};

}  // namespace

std::unique_ptr<AppKernel> make_matrix_multiply_kernel() {
  return std::make_unique<MatrixMultiplyKernel>();
}

}  // namespace harness::sl1
