#include "harness/core/registry.h"

#include <algorithm>

#include "harness/core/errors.h"

namespace harness {

namespace {
std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}
}  // namespace

Params point_defaults(const VariantInfo& variant, const AppInfo& app) {
  Params p = defaults_of(variant.params);
  for (const auto& [k, v] : defaults_of(app.params)) p.emplace(k, v);
  return p;
}

const ParamDecl* find_point_param(const VariantInfo& variant, const AppInfo& app,
                                  const std::string& name) {
  if (const ParamDecl* d = find_param(variant.params, name)) return d;
  return find_param(app.params, name);
}

void check_point_params(const VariantInfo& variant, const AppInfo& app, const Params& params) {
  for (const auto& [name, value] : params) {
    const ParamDecl* d = find_point_param(variant, app, name);
    if (!d) {
      std::vector<std::string> known;
      for (const ParamDecl& k : variant.params) known.push_back(k.name);
      for (const ParamDecl& k : app.params) known.push_back(k.name);
      throw UsageError(variant.framework + "/" + variant.name + " on app '" + app.name +
                       "' has no parameter '" + name +
                       "' (it takes: " + (known.empty() ? std::string("none") : join(known)) + ")");
    }
    check_param(*d, value);
  }
}

Registry& Registry::instance() {
  static Registry r;
  return r;
}

void Registry::add_variant(VariantInfo v) { variants_.push_back(std::move(v)); }
void Registry::add_app(AppInfo a) { apps_.push_back(std::move(a)); }

std::vector<std::string> Registry::frameworks() const {
  std::vector<std::string> out;
  for (const auto& v : variants_) {
    if (std::find(out.begin(), out.end(), v.framework) == out.end()) out.push_back(v.framework);
  }
  return out;
}

const VariantInfo& Registry::find_variant(const std::string& framework,
                                          const std::string& variant) const {
  std::vector<std::string> names;
  const VariantInfo* only = nullptr;
  for (const auto& v : variants_) {
    if (v.framework != framework) continue;
    if (v.name == variant) return v;
    names.push_back(v.name);
    only = &v;
  }
  // "default" (what --variant defaults to) of a framework with one variant is that one.
  if (variant == "default" && names.size() == 1) return *only;
  if (names.empty())
    throw UsageError("unknown framework '" + framework + "' (known: " + join(frameworks()) + ")");
  throw UsageError("unknown variant '" + variant + "' of framework '" + framework +
                   "' (known: " + join(names) + ")");
}

const AppInfo& Registry::find_app(const std::string& name) const {
  std::vector<std::string> names;
  for (const auto& a : apps_) {
    if (a.name == name) return a;
    names.push_back(a.name);
  }
  throw UsageError("unknown app '" + name + "' (known: " + join(names) + ")");
}

}  // namespace harness
