// The building blocks' own microbenchmarks (framework `blocks`): each block on
// data it makes itself (no dataset), every repetition checked against a host
// computation, its rate stated as a fraction of the matching measured ceiling
// through the Work it declares: the pipeline's input rate of h2d_pinned, the
// scan's bytes of dram, the radix sort's keys per second beside its bytes.
#pragma once

#include <cstdint>
#include <memory>

#include "harness/core/registry.h"

namespace harness::blocks {

// Registers the family's apps and variants (harness/suite/register_all.cpp).
void register_benchmarks();

// The bytes a point works on: the `bytes` parameter, or when it is 0, 1 GiB on
// a GPU-type device (many times its L2) and 16 MiB elsewhere (PoCL in CI).
std::uint64_t bench_bytes(const PointContext& ctx);
// bench_bytes / item_bytes items; UsageError naming `who` unless 1 to max_items.
std::uint32_t bench_items(const PointContext& ctx, std::uint64_t item_bytes,
                          std::uint64_t max_items, const char* who);

std::unique_ptr<PointRunner> make_pipeline_bench(const PointContext& ctx);
std::unique_ptr<PointRunner> make_scan_bench(const PointContext& ctx);
std::unique_ptr<PointRunner> make_radix_sort_bench(const PointContext& ctx);

}  // namespace harness::blocks
