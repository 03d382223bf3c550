// One point of hashtable/mapcg: MapCG's grouping (one global hash table built
// with atomics, everything in GPU memory: thesis table 6.2's baseline) on the
// hash table family's apps, so MapCG and the SePo table insert the same
// records' pairs and are validated against the same references
// (mapcg_point.cpp, README.md "MapCG").
#pragma once

#include <memory>
#include <string>

#include "frameworks/hashtable/hashtable.h"
#include "harness/core/registry.h"

namespace harness::hashtable {

// How MapCG answers `app`: combining (a combining app, combining_apps(): its
// values reduced on the GPU by the app's HT_COMBINE) or multi_valued (each
// key's list of values). The organization the app's collect() is called with.
Organization mapcg_organization(const std::string& app);

std::unique_ptr<PointRunner> make_mapcg_point(const PointContext& ctx);

}  // namespace harness::hashtable
