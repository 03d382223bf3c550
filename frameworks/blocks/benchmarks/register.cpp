// The blocks family's apps (each makes its own data) and variants.
#include <string>
#include <utility>

#include "frameworks/blocks/benchmarks/benchmarks.h"
#include "harness/core/errors.h"

namespace harness::blocks {
namespace {

void add_app(const char* name, const char* description) {
  AppInfo app;
  app.name = name;
  app.kind = "block";
  app.description = description;
  app.reads_input = false;
  app.validation = {"exact", 0, 0};
  Registry::instance().add_app(std::move(app));
}

ParamDecl bytes_param() {
  return size_param("bytes", "0", 0, std::uint64_t{1} << 36,
                    "bytes worked on; 0: 1 GiB on a GPU, 16 MiB elsewhere");
}

void add_variant(const char* name, const char* description, const char* app, ParamDecls params,
                 std::unique_ptr<PointRunner> (*make)(const PointContext&)) {
  VariantInfo v;
  v.framework = "blocks";
  v.name = name;
  v.description = description;
  v.backends = {backend::Kind::opencl, backend::Kind::cuda};
  v.params = std::move(params);
  v.apps = {app};
  v.make = [make, name](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
    if (!ctx.device) throw UsageError(std::string("blocks/") + name + " needs a GPU backend");
    return make(ctx);
  };
  Registry::instance().add_variant(std::move(v));
}

}  // namespace

std::uint64_t bench_bytes(const PointContext& ctx) {
  const std::uint64_t bytes = param_size(ctx.params, "bytes");
  if (bytes != 0) return bytes;
  const bool gpu = ctx.device && ctx.device->info().type == "gpu";
  return gpu ? std::uint64_t{1} << 30 : std::uint64_t{16} << 20;
}

std::uint32_t bench_items(const PointContext& ctx, std::uint64_t item_bytes,
                          std::uint64_t max_items, const char* who) {
  const std::uint64_t n = bench_bytes(ctx) / item_bytes;
  if (n == 0 || n > max_items)
    throw UsageError(std::string(who) + ": bytes must give 1 to " + std::to_string(max_items) +
                     " items of " + std::to_string(item_bytes) + " bytes");
  return static_cast<std::uint32_t>(n);
}

void register_benchmarks() {
  add_app("h2d-stream", "a pinned host array streamed to the device in pieces");
  add_app("scan-u32", "an exclusive prefix sum of u32 values (0 or 1)");
  add_app("sort-pairs", "a stable sort of (random u32 key, index) pairs");
  add_variant(
      "pipeline",
      "the copy/compute pipeline (pipeline.h), pieces over `lanes` queues, each piece "
      "copied to its place in a device array (the trivial compute stage)",
      "h2d-stream",
      {bytes_param(), size_param("chunk", "64MiB", 1, std::uint64_t{1} << 34, "bytes per piece"),
       unsigned_param("lanes", 3, 1, 16, "queues, each copying then computing its pieces")},
      make_pipeline_bench);
  add_variant("scan", "the device-wide exclusive prefix sum (scan.h), in place", "scan-u32",
              {bytes_param()}, make_scan_bench);
  add_variant("radix-sort", "the device-wide stable LSD radix sort of pairs (radix_sort.h)",
              "sort-pairs", {bytes_param()}, make_radix_sort_bench);
}

}  // namespace harness::blocks
