// A kernel whose address generation cannot be derived (a mapped value
// chooses where its next mapped read goes: tests/kernels/data_dependent.clh)
// is refused before timing by the pipeline's probe (derivable.h), with a
// RunError naming the record and the read. The kernel is built from source:
// OpenCL only (PoCL in CI, NVIDIA OpenCL on a GPU machine).
#include <gtest/gtest.h>

#include <string>

#include "frameworks/bigkernel/app_kernel.h"
#include "frameworks/bigkernel/points.h"
#include "frameworks/bigkernel/tests/bigkernel_testing.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

using bigkernel::AppKernel;
using bigkernel::Chunk;
using bigkernel::MappedArgs;
using bigkernel::Mode;

// kmeans-particles' 64 B records read by the data-dependent kernel; nothing
// after address generation is ever reached.
class DataDependentKernel final : public AppKernel {
 public:
  std::string app() const override { return "test-data-dependent"; }
  std::size_t record_bytes() const override { return 64; }
  std::uint32_t max_reads() const override { return 2; }
  std::uint32_t max_value_bytes() const override { return 8; }
  std::uint64_t fixed_bytes(const Params&) const override { return 0; }
  std::string fixed_text() const override { return "nothing"; }
  std::uint64_t side_bytes(std::uint64_t records) const override {
    return bigkernel::pool_bytes(records * 8);
  }
  std::string side_text() const override { return "write buffer of 8 B a record"; }
  void begin_run(const std::vector<Chunk>&, std::uint64_t) override {}
  void enqueue_addrgen(backend::Queue& q, const MappedArgs& mapped, const Chunk& c) override {
    bigkernel::launch_mapped(q, kernel(Mode::addrgen),
                             backend::LaunchShape::cover(c.count, bigkernel::kGroupSize), mapped,
                             unused(), 64u, unused(), std::uint64_t{c.first},
                             static_cast<std::uint32_t>(c.count));
  }
  void enqueue(backend::Queue&, Mode, const MappedArgs&, std::uint32_t, std::size_t,
               const Chunk&) override {
    ADD_FAILURE() << "a round ran after the probe";
  }
  std::unique_ptr<workloads::Output> finish_run() override { return nullptr; }
  std::uint64_t copied_out() const override { return 0; }
  std::string copy_out_ceiling() const override { return "d2h_pinned"; }

 protected:
  void prepare_app(const Params&, const std::uint8_t*, std::size_t) override {}
  std::string source_file() const override {
    return "frameworks/bigkernel/tests/kernels/data_dependent.clh";
  }
  std::string kernel_name() const override { return "bk_test_data_dependent"; }
};

class BigKernelDerivableTest : public DeviceTest {};

TEST_P(BigKernelDerivableTest, AKernelWhoseReadsDependOnMappedDataIsRefusedBeforeTiming) {
  if (GetParam() != backend::Kind::opencl)
    GTEST_SKIP() << "the test kernel is built from source (OpenCL only)";
  register_all();
  const std::string particles = generate("particles", 64 * 1000, 3);
  for (const std::string variant : {"reduced-volume", "full"}) {
    SCOPED_TRACE(variant);
    const VariantInfo& v = Registry::instance().find_variant("bigkernel", variant);
    // kmeans-particles: the workload that would validate.
    const PointContext ctx = family_point_context(*device_, v, "kmeans-particles", particles);
    bigkernel::PipelineOptions options;
    options.variant = variant;
    options.layout = variant == "full" ? bigkernel::Layout::coalesced : bigkernel::Layout::thread;
    auto point =
        bigkernel::make_pipeline_point(ctx, options, std::make_unique<DataDependentKernel>());
    try {
      point->prepare();
      FAIL() << "no RunError";
    } catch (const RunError& e) {
      // Record 0's u32 reads 0, then 1: its second read moves from byte 8 to 9.
      EXPECT_EQ(std::string(e.what()),
                "bigkernel/" + variant +
                    ": kmeans-particles's address generation cannot be derived: record 0's read "
                    "1 is 1 B at mapped byte 8 when mapped data reads 0, 1 B at byte 9 when it "
                    "reads 1; a mapped read's address and the control flow around it must not "
                    "depend on mapped data");
    }
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BigKernelDerivableTest);
INSTANTIATE_TEST_SUITE_P(Backends, BigKernelDerivableTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
