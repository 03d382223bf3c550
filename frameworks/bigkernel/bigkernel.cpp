#include "frameworks/bigkernel/bigkernel.h"

#include <string>
#include <vector>

#include "frameworks/bigkernel/app_kernel.h"
#include "frameworks/bigkernel/persistent.h"
#include "frameworks/bigkernel/points.h"
#include "harness/core/registry.h"

namespace harness::bigkernel {
namespace {

VariantInfo variant(const std::string& name, const std::string& description) {
  VariantInfo v;
  v.framework = "bigkernel";
  v.name = name;
  v.description = description;
  v.backends = {backend::Kind::opencl, backend::Kind::cuda};
  v.apps = app_names();
  v.params = {size_param("piece", "1KiB", 64, std::uint64_t{1} << 30,
                         "wc and mastercard (variable-length records): the bytes of whole lines a "
                         "thread scans (a record), aimed at: the input is cut just past the first "
                         "newline at or after every multiple (the workloads' line cuts; a longer "
                         "line is a record of its own)")};
  return v;
}

ParamDecls pipeline_params() {
  return {bool_param("patterns", true,
                     "address-pattern recognition: send a descriptor instead of the address "
                     "list when every thread reads base + t x stride (falls back to raw "
                     "addresses when not)"),
          unsigned_param("assembly_threads", 0, 0, 1024,
                         "host threads of the assembly stage (0: every host core)")};
}

}  // namespace

void register_family() {
  struct Buffered {
    const char* name;
    std::uint32_t lanes;
    const char* description;
  };
  for (const Buffered& d :
       {Buffered{"single-buffer", 1,
                 "BigKernel's single-buffer baseline: chunks of whole records sized from the GPU "
                 "memory budget, copied, computed by the plain kernel and their results copied "
                 "back, one queue"},
        Buffered{"double-buffer", 2,
                 "BigKernel's double-buffer baseline: the same plain kernel on two buffers and "
                 "two queues, one chunk's copy beside the other's kernel"}}) {
    VariantInfo v = variant(d.name, d.description);
    const std::string name = d.name;
    const std::uint32_t lanes = d.lanes;
    v.make = [name, lanes](const PointContext& ctx) {
      return make_buffered_point(ctx, name, lanes);
    };
    Registry::instance().add_variant(std::move(v));
  }
  {
    VariantInfo v = variant(
        "zero-copy",
        "the plain kernel reading the input in mapped pinned host memory, each read over the "
        "link when made (EMOGI, PyTorch's UnifiedTensor): the baseline the CPU assembly stage "
        "must beat on a modern GPU");
    v.make = [](const PointContext& ctx) { return make_zero_copy_point(ctx); };
    v.skip = [](const PointContext& ctx) -> std::string {
      if (ctx.device && !ctx.device->info().zero_copy_host_memory) {
        return "the device cannot read mapped host memory in place (NVIDIA OpenCL has no "
               "zero-copy buffers: CL_DEVICE_HOST_UNIFIED_MEMORY is false)";
      }
      return "";
    };
    Registry::instance().add_variant(std::move(v));
  }
  {
    VariantInfo v = variant(
        "persistent",
        "BigKernel as the thesis runs it: one persistent kernel a pass whose blocks hold "
        "address-generation warps and computation warps (named barriers, never mixed in a "
        "warp), flags in mapped host memory and a round number copied after the values; host "
        "threads poll the blocks, assemble the values in the coalesced layout and copy them on "
        "streams of their own (CUDA; the apps it has a persistent kernel for)");
    v.backends = {backend::Kind::cuda};
    v.apps = persistent_app_names();
    for (ParamDecl& p : pipeline_params()) v.params.push_back(std::move(p));
    v.params.push_back(unsigned_param(
        "blocks_per_sm", 1, 0, 64,
        "persistent blocks an SM runs (0: as many as fit at once, the occupancy query's answer; "
        "more is refused). 1 by measurement: K-means at 1 GiB under a 128 MiB budget took 25.2, "
        "34.8 and 47.8 ms at 1, 2 and 3 blocks an SM on an H100 (smaller rounds, more copies)"));
    v.make = [](const PointContext& ctx) { return make_persistent_point(ctx); };
    Registry::instance().add_variant(std::move(v));
  }
  struct Pipeline {
    const char* name;
    bool reduce;
    Layout layout;
    const char* description;
    bool sl1 = false;
  };
  for (const Pipeline& d :
       {Pipeline{"overlap-only", false, Layout::coalesced,
                 "BigKernel's pipeline sending whole records in their layout (figure 4.12's "
                 "first step): host threads copy a round's records into a pinned buffer while "
                 "the other round is copied and computed"},
        Pipeline{"reduced-volume", true, Layout::thread,
                 "BigKernel's pipeline sending only the bytes the kernel reads (figure 4.12's "
                 "second step): address generation, CPU assembly of the named values packed "
                 "thread after thread, copy, computation"},
        Pipeline{"full", true, Layout::coalesced,
                 "BigKernel: the four-stage pipeline sending only the bytes the kernel reads, "
                 "assembled in the coalesced layout (a warp's n-th reads adjacent)"},
        Pipeline{"full-sl1", true, Layout::thread,
                 "BigKernel + S-L1 (thesis figure 5.14): the four-stage pipeline sending only "
                 "the bytes the kernel reads, packed thread after thread, which the computation "
                 "reads through S-L1's 16 B lines in shared memory",
                 true}}) {
    VariantInfo v = variant(d.name, d.description);
    for (ParamDecl& p : pipeline_params()) v.params.push_back(std::move(p));
    PipelineOptions options;
    options.variant = d.name;
    options.reduce_volume = d.reduce;
    options.layout = d.layout;
    options.sl1 = d.sl1;
    v.make = [options](const PointContext& ctx) { return make_pipeline_point(ctx, options); };
    Registry::instance().add_variant(std::move(v));
  }
}

}  // namespace harness::bigkernel
