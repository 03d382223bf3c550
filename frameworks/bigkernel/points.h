// The family's point runners, one file each: the buffered baselines and
// zero-copy (buffered_point.cpp), the BigKernel pipeline (pipeline_point.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "frameworks/bigkernel/assembly.h"
#include "harness/core/registry.h"

namespace harness::bigkernel {

// single-buffer (1 lane) and double-buffer (2): chunks of whole records
// copied from the input into a lane's buffer, the plain kernel run on it.
std::unique_ptr<PointRunner> make_buffered_point(const PointContext& ctx,
                                                 const std::string& variant, std::uint32_t lanes);
// zero-copy: the plain kernel reads the input in mapped (pinned) host memory.
std::unique_ptr<PointRunner> make_zero_copy_point(const PointContext& ctx);

// persistent: the pipeline as one persistent kernel a pass (persistent.h), CUDA only.
std::unique_ptr<PointRunner> make_persistent_point(const PointContext& ctx);

// What a BigKernel pipeline variant sends (figure 4.12's steps).
struct PipelineOptions {
  std::string variant;
  bool reduce_volume = true;          // false: whole records (overlap-only)
  Layout layout = Layout::coalesced;  // of the assembled values
  bool sl1 = false;                   // COMPUTE reads the values through S-L1 (figure 5.14)
};
std::unique_ptr<PointRunner> make_pipeline_point(const PointContext& ctx,
                                                 const PipelineOptions& options);
// The same with the app's kernel given instead of the family's for ctx.app
// (which still names the workload that validates): a kernel the family does
// not register, such as the tests' one that address generation cannot derive.
class AppKernel;
std::unique_ptr<PointRunner> make_pipeline_point(const PointContext& ctx,
                                                 const PipelineOptions& options,
                                                 std::unique_ptr<AppKernel> app);

}  // namespace harness::bigkernel
