// The family's apps and variants (harness list shows them) and its probes.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "micro/memory/internal.h"

namespace harness::memory {
namespace {

void add_app(const char* name, const char* description) {
  AppInfo app;
  app.name = name;
  app.kind = "micro";
  app.description = description;
  // These benchmarks generate their own buffers on the device: no dataset.
  app.reads_input = false;
  app.validation = {"exact", 0, 0};  // checksums exactly; rates positive and finite
  Registry::instance().add_app(std::move(app));
}

void add_variant(const char* name, const char* description, std::vector<backend::Kind> backends,
                 ParamDecls params, const char* app,
                 std::function<std::unique_ptr<PointRunner>(const PointContext&)> make,
                 std::function<std::string(const PointContext&)> skip) {
  VariantInfo v;
  v.framework = "memory";
  v.name = name;
  v.description = description;
  v.backends = std::move(backends);
  v.params = std::move(params);
  v.apps = {app};
  v.make = std::move(make);
  v.skip = std::move(skip);
  Registry::instance().add_variant(std::move(v));
}

}  // namespace

void register_family() {
  static bool done = false;
  if (done) return;
  done = true;
  add_app("l2-read", "threads read disjoint words of an L2-resident working set, c-way coalesced");
  add_app("dram-read", "threads read disjoint words of a working set 8x the L2, c-way coalesced");
  add_app("dram-copy", "threads copy a buffer 8x the L2 into another, 16 bytes at a time");
  add_app("shared-read", "threads read their work-group's shared-memory tile, conflict-free");
  add_app("byte-scan", "each thread hashes its chunks byte by byte (wc's access pattern)");

  const std::vector<backend::Kind> portable = {backend::Kind::opencl, backend::Kind::cuda};
  const std::vector<backend::Kind> cuda_only = {backend::Kind::cuda};
  // 0 = chosen for the device: groups one per compute unit; steps and
  // working_set by device type (memory.h: auto_sizes).
  const ParamDecl working_set = size_param("working_set", "0", 0, UINT64_MAX,
                                           "bytes touched; 0: by the device's type and L2");
  const ParamDecl steps =
      unsigned_param("steps", 0, 0, UINT32_MAX, "reads per work-item; 0: by the device's type");
  const ParamDecls global = {
      micro::group_size_param(), micro::groups_param(),
      unsigned_param("coalescing", 4, 1, 1024, "work-items sharing one memory transaction"), steps,
      working_set};
  const ParamDecls copy = {micro::group_size_param(), micro::groups_param(), working_set};
  const ParamDecls shared = {micro::group_size_param(), micro::groups_param(), steps};
  const ParamDecls scan = {micro::group_size_param(), micro::groups_param(),
                           unsigned_param("chunk", 4096, 1, UINT32_MAX, "bytes each thread scans"),
                           working_set};

  add_variant(
      "l2", "reads of an L2-resident working set (a quarter of the L2), L1 never reused", portable,
      global, "l2-read", [](const PointContext& c) { return make_global_read(c, GlobalLevel::l2); },
      [](const PointContext& c) { return skip_global_read(c, GlobalLevel::l2); });
  add_variant(
      "dram", "reads of a working set 8x the L2, streamed from DRAM", portable, global, "dram-read",
      [](const PointContext& c) { return make_global_read(c, GlobalLevel::dram); },
      [](const PointContext& c) { return skip_global_read(c, GlobalLevel::dram); });
  add_variant("copy", "a kernel copy of a buffer 8x the L2 (16-byte loads and stores, grid-stride)",
              portable, copy, "dram-copy", make_copy, skip_copy);
  add_variant("shared", "conflict-free reads of a 16 KiB shared-memory tile per work-group",
              portable, shared, "shared-read", make_shared_read, skip_shared_read);
  add_variant(
      "scan-line", "byte scan from 16-byte lines loaded into registers", portable, scan,
      "byte-scan", [](const PointContext& c) { return make_byte_scan(c, ScanLoads::line16); },
      [](const PointContext& c) { return skip_byte_scan(c, ScanLoads::line16); });
  add_variant(
      "scan-l1", "byte scan, one ld.global.ca (L1-caching) load per byte", cuda_only, scan,
      "byte-scan", [](const PointContext& c) { return make_byte_scan(c, ScanLoads::l1); },
      [](const PointContext& c) { return skip_byte_scan(c, ScanLoads::l1); });
  add_variant(
      "scan-nol1", "byte scan, one ld.global.cg (L1-bypassing) load per byte", cuda_only, scan,
      "byte-scan", [](const PointContext& c) { return make_byte_scan(c, ScanLoads::no_l1); },
      [](const PointContext& c) { return skip_byte_scan(c, ScanLoads::no_l1); });
  register_probes();
}

}  // namespace harness::memory
