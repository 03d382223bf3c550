// What the GPU families' tests (BigKernel, S-L1, the SePo hash table) share to
// run one of their points on a thesis workload the way the runner does:
// seeded inputs, and a point prepared and run for a few repetitions, each
// validated against the workload's reference.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>

#include "datasets/dataset.h"
#include "harness/backend/backend.h"
#include "harness/core/params.h"
#include "harness/core/registry.h"
#include "harness/suite/register_all.h"

namespace harness::testing {

// The bytes a seeded generator makes.
inline std::string generate(const std::string& generator, std::uint64_t size,
                            std::uint64_t seed = 42) {
  std::ostringstream out;
  datasets::find_generator(generator).generate(size, seed, out);
  return std::move(out).str();
}

struct PointRun {
  std::string validation;   // "" when it matched the reference
  Measurement measurement;  // of the last repetition run
};

// The context the runner gives a point of variant `v` on `app` over `input` on
// `device`: the point's default parameters (override them in ctx.params).
inline PointContext family_point_context(backend::Device& device, const VariantInfo& v,
                                         const std::string& app, const std::string& input) {
  const AppInfo& a = Registry::instance().find_app(app);
  PointContext ctx;
  ctx.device = &device;
  ctx.devices = {&device};
  ctx.app = app;
  ctx.input = reinterpret_cast<const std::uint8_t*>(input.data());
  ctx.input_size = input.size();
  ctx.params = point_defaults(v, a);
  ctx.validation = a.validation;
  return ctx;
}

// framework/variant on `app` over `input` on `device` with a GPU memory budget
// (0: none), the point's defaults overridden by `params`: prepared, then
// `repetitions` runs (later ones reuse what the first allocated), each
// validated; stops at the first wrong result. With `dump`, the last run's
// output is written there (the family's dump format).
inline PointRun run_point(backend::Device& device, const std::string& framework,
                          const std::string& variant, const std::string& app,
                          const std::string& input, std::uint64_t budget, const Params& params,
                          int repetitions, std::ostream* dump = nullptr) {
  register_all();
  const VariantInfo& v = Registry::instance().find_variant(framework, variant);
  device.set_memory_budget(budget);
  PointContext ctx = family_point_context(device, v, app, input);
  for (const auto& [k, value] : params) ctx.params[k] = value;
  auto point = v.make(ctx);
  point->prepare();
  PointRun r;
  for (int i = 0; i < repetitions; ++i) {
    point->before_repetition();
    r.measurement = point->run_once();
    r.validation = point->validate_last();
    if (!r.validation.empty()) break;
  }
  if (dump) point->dump_output(*dump);
  return r;
}

}  // namespace harness::testing
