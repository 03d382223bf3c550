// One point of hashtable/open-addressing: today's design of the fastest GPU
// hash tables (open addressing over fixed-size keys, cooperative probing,
// per-work-group combining of hot keys) on key-counts, made SePo-capable so
// it can outgrow its GPU memory budget as the thesis' chained table does
// (kernels/open_addressing.clh, README.md "Open addressing").
#pragma once

#include <memory>

#include "harness/core/registry.h"

namespace harness::hashtable {

std::unique_ptr<PointRunner> make_open_addressing_point(const PointContext& ctx);

// The variant's registration (hashtable.cpp's register_family calls it).
void register_open_addressing();

}  // namespace harness::hashtable
