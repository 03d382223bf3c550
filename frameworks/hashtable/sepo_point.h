// One point of hashtable/<organization>: the SePo iterations of one app's
// inserts (sepo_point.cpp).
#pragma once

#include <memory>

#include "frameworks/hashtable/hashtable.h"
#include "harness/core/registry.h"

namespace harness::hashtable {

std::unique_ptr<PointRunner> make_sepo_point(Organization org, const PointContext& ctx);

}  // namespace harness::hashtable
