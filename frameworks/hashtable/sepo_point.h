// One point of hashtable/<organization>[-pinned]: the SePo iterations of one
// app's inserts, or the one iteration of a heap in pinned host memory
// (sepo_point.cpp).
#pragma once

#include <memory>

#include "frameworks/hashtable/hashtable.h"
#include "harness/core/registry.h"

namespace harness::hashtable {

std::unique_ptr<PointRunner> make_sepo_point(Organization org, Heap heap, const PointContext& ctx);

}  // namespace harness::hashtable
