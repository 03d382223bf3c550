// The family's apps and variants (harness list shows them).
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "micro/atomics/internal.h"

namespace harness::atomics {
namespace {

void add_app(const char* name, const char* description, ParamDecls params,
             const char* dataset = nullptr) {
  AppInfo app;
  app.name = name;
  app.kind = "micro";
  app.description = description;
  // Every buffer but keyword-match's text is generated in prepare(): no dataset.
  app.reads_input = dataset != nullptr;
  if (dataset) app.default_dataset = dataset;
  app.validation = {"exact", 0, 0};
  app.params = std::move(params);
  Registry::instance().add_app(std::move(app));
}

void add_variant(const std::string& name, const std::string& description,
                 std::vector<std::string> apps, ParamDecls params,
                 std::function<std::unique_ptr<PointRunner>(const PointContext&)> make) {
  VariantInfo v;
  v.framework = "atomics";
  v.name = name;
  v.description = description;
  v.backends = {backend::Kind::opencl, backend::Kind::cuda};
  v.params = std::move(params);
  v.apps = std::move(apps);
  v.make = std::move(make);
  v.skip = [name](const PointContext& ctx) { return skip_point(ctx, name); };
  Registry::instance().add_variant(std::move(v));
}

}  // namespace

std::string skip_point(const PointContext& ctx, const std::string& variant) {
  (void)variant;
  if (!ctx.device) return "";  // make() names the problem
  return point_shape(ctx).skip;
}

void register_family() {
  static bool done = false;
  if (done) return;
  done = true;
  add_app("path-copy", "copy of u32 words, with or without an atomic in the kernel (figure 1)",
          {unsigned_param("elements", 0, 0, UINT32_MAX, "words copied; 0: by the device's type")});
  add_app("path-fig3",
          "figure 3: an atomic add to a global word, then the word written to an "
          "array (figure 4)",
          {});
  const ParamDecls add_params = {
      unsigned_param("vars", 1, 1, UINT32_MAX, "shared variables the work-items add to"),
      unsigned_param("skip_every", 0, 0, UINT32_MAX,
                     "every n-th work-item adds nothing; 0: all add")};
  add_app("atomic-add", "every work-item adds to a shared variable, nothing else (figure 8)",
          add_params);
  add_app("atomic-add-mem",
          "every work-item adds to a shared variable and stores the old value (figure 9)",
          add_params);
  add_app("scalar-product", "x . y, each product added atomically to the result (figure 12)",
          {unsigned_param("per_thread", 1, 1, UINT32_MAX, "products per work-item")});
  add_app("mm-map",
          "MapReduce matrix multiplication's map: one record per output element "
          "(figure 10)",
          {unsigned_param("n", 64, 1, 8192, "matrix side")});
  add_app("kmeans-map", "MapReduce KMeans' map: each point emits its nearest centroid (figure 11)",
          {unsigned_param("points", 4096, 1, UINT32_MAX, "points"),
           unsigned_param("clusters", 16, 1, 4096, "centroids")});
  add_app("keyword-match",
          "string match: every occurrence of a keyword takes an output slot (figure 13)",
          {choice_param("query", "q1", {"q1", "q2", "q3", "q4"},
                        "the keyword, by its frequency class (q1 rarest)")},
          "text-zipf");

  const ParamDecl wave =
      unsigned_param("wave", 0, 0, 1024, "lanes per wavefront; 0: the device's warp width");
  const ParamDecls launch = {micro::group_size_param(), micro::groups_param(), wave};
  const ParamDecls sweep = {micro::group_size_param(), micro::groups_param(8), wave};
  const auto path = [](const std::string& name) {
    return [name](const PointContext& c) { return make_path(c, name); };
  };
  add_variant("copy-plain", "copy, no atomic in the kernel", {"path-copy"}, launch,
              path("copy-plain"));
  add_variant("copy-never", "copy with an atomic add that is never executed", {"path-copy"}, launch,
              path("copy-never"));
  add_variant("copy-thread", "copy with an atomic add per element", {"path-copy"}, launch,
              path("copy-thread"));
  add_variant("copy-wave", "copy with one atomic add per wavefront per step", {"path-copy"}, launch,
              path("copy-wave"));
  add_variant("fig3-atomic", "figure 3's kernel, the atomic only", {"path-fig3"}, sweep,
              path("fig3-atomic"));
  add_variant("fig3-memory", "figure 3's kernel, the memory transaction only", {"path-fig3"}, sweep,
              path("fig3-memory"));
  add_variant("fig3-both", "figure 3's kernel, both", {"path-fig3"}, sweep, path("fig3-both"));
  add_variant("fig3-ideal",
              "the atomic-only and memory-only kernels back to back (the paper's 'ideal')",
              {"path-fig3"}, sweep, path("fig3-ideal"));

  const std::vector<std::string> all_apps = {"atomic-add", "atomic-add-mem", "scalar-product",
                                             "mm-map",     "kmeans-map",     "keyword-match"};
  const auto runner = [](const std::string& name) {
    return [name](const PointContext& c) {
      if (c.app == "atomic-add" || c.app == "atomic-add-mem") return make_add(c, name);
      return make_app(c, name);
    };
  };
  add_variant("system", "the device's atomic add, per work-item", all_apps, sweep,
              runner("system"));
  add_variant("wave", "the device's atomic add, once per wavefront (MapReduce map phases)",
              {"mm-map", "kmeans-map"}, sweep, runner("wave"));
  add_variant("software",
              "the paper's software atomic add: wavefront sums, a coordinator work-group", all_apps,
              sweep, runner("software"));
  ParamDecls model = sweep;
  model.push_back(
      choice_param("curve", "measured", {"measured", "predicted"}, "the curve a point reports"));
  add_variant("model",
              "system and software atomic add timed together, with the speedup the model "
              "predicts from t_fast, t_comp and t_local measured on the device",
              {"atomic-add"}, model, [](const PointContext& c) { return make_add(c, "model"); });
}

}  // namespace harness::atomics
