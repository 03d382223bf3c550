// Rates and fractions of the measured ceilings, computed in one place for
// every point from its declared Work (work.h) and its median times: bytes per
// level become GB/s over the phase they were declared for, items become G/s,
// and each rate is divided by the ceiling of the same kind measured on the
// point's device in the same run.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "harness/core/work.h"

namespace harness {

// The ceiling that bounds a memory level ("dram" -> "dram_read" when measured,
// else "d2d_copy"; "h2d" -> "h2d_pinned"; ...) or an item kind ("atomics" ->
// "atomic_add_distinct", "inserts" -> "atomic_cas_random"); empty when none applies. `measured`
// names the ceilings present for the device.
std::string ceiling_for(const std::string& level_or_kind, bool is_bytes,
                        const std::map<std::string, double>& measured);

// One entry per declared quantity: {name, kind ("bytes"|"items"), value, unit
// ("GB/s"|"G/s"), over ("total_ms" or the phase), ceiling, ceiling_value,
// fraction}. `median_ms` maps "total_ms" and each phase to its median; a
// quantity whose phase was not measured (or took 0 ms) is left out.
// `device_ceilings` is the results document's ceiling entries (any device;
// those of `backend`/`device_index` are used). Host-to-device bytes are judged
// against the ceiling of `input_host_memory` ("pinned" -> h2d_pinned,
// "pageable" -> h2d_pageable), the memory the point's input was read from.
nlohmann::json compute_rates(const Work& work, const std::map<std::string, double>& median_ms,
                             const nlohmann::json& device_ceilings, const std::string& backend,
                             int device_index, const std::string& input_host_memory = "pinned");

}  // namespace harness
