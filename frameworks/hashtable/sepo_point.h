// One point of hashtable/<organization>[-pinned]: the SePo iterations of one
// app's inserts, or the one iteration of a heap in pinned host memory
// (sepo_point.cpp).
#pragma once

#include <memory>
#include <string>

#include "frameworks/hashtable/hashtable.h"
#include "harness/core/registry.h"

namespace harness::hashtable {

std::unique_ptr<PointRunner> make_sepo_point(Organization org, Heap heap, const PointContext& ctx);

// Heap::paging_bound: why the point cannot run here ("" when it can): the
// whole table, the input and the trace do not fit the device's free memory.
std::string paging_bound_skip(const PointContext& ctx);

}  // namespace harness::hashtable
