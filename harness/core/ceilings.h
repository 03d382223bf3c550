// Ceilings measured on the device in the same run, so results can be stated as
// fractions of the limit (GB/s = 1e9 bytes/s; G/s = 1e9 operations/s).
//
// Built in (copies through the backend's queue): device-to-device copy
// bandwidth (bytes read + written), host-to-device from pinned and from
// pageable host memory, device-to-host into pinned and into pageable memory.
// Ceilings that need kernels (DRAM, L2 and shared-memory read bandwidth,
// atomic throughput) come from probes that a family registers
// (register_ceiling_probe; the memory family of micro/memory registers
// dram_read, l2_read, shared_read, atomic_add_same, atomic_add_distinct and
// atomic_cas_random).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/backend/backend.h"

namespace harness {

// A probe measures one or more ceilings on `device`; `bytes` is the copy size
// of the run (16 MiB in the ci preset, 1 GiB on a GPU), a hint for the probe's
// own sizes. It returns an entry {name, value, unit, method} or an array of
// them (backend and device_index are added by measure_ceilings), and throws
// (RunError, KernelBuildError ...) when it cannot measure.
using CeilingProbe = std::function<nlohmann::json(backend::Device& device, std::size_t bytes)>;

// Registers `probe` under `name` (for messages); a second registration under
// the same name replaces the first. Probes run in registration order.
void register_ceiling_probe(const std::string& name, CeilingProbe probe);

// Names of the registered probes, in order.
std::vector<std::string> ceiling_probe_names();

// Entries, in order: d2d_copy, h2d_pinned, h2d_pageable, d2h_pinned,
// d2h_pageable, then every registered probe's entries; each {backend,
// device_index, name, value, unit, method}, and the host copies also
// {host_memory: "pinned"|"pageable"} (the memory actually used: pinned memory
// too large for the backend to pin falls back to pageable). `bytes` is the
// copy size (the median of `reps` timed copies after one warm-up). A probe
// that fails is reported on stderr (one line naming it, the device and the
// reason) and skipped; the other ceilings are kept.
nlohmann::json measure_ceilings(backend::Device& device, std::size_t bytes, int reps = 5);

// The first five of those alone: the copies every backend can do through its
// queue (d2d_copy, h2d_pinned, h2d_pageable, d2h_pinned, d2h_pageable).
nlohmann::json measure_copies(backend::Device& device, std::size_t bytes, int reps = 5);
}  // namespace harness
