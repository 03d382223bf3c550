// Pieces the memory family's files share (not for other families).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "harness/backend/backend.h"
#include "harness/core/registry.h"
#include "micro/memory/memory.h"

namespace harness::memory {

// A parameter as an unsigned integer; UsageError naming it otherwise.
std::uint32_t param_u32(const Params& params, const std::string& name);
// A byte count: "0" (auto), a plain number or a size such as "16MiB".
std::uint64_t param_bytes(const Params& params, const std::string& name);
// The work-groups of a point: the `groups` parameter, 0 meaning one per compute unit.
std::uint32_t resolve_groups(const backend::DeviceInfo& info, std::uint32_t groups);
// "" when `group_size` can run on the device, else why not (for skip()).
std::string group_size_problem(const backend::DeviceInfo& info, std::uint32_t group_size);
// A launch that covers `items` with a grid-stride loop (fills): groups of up
// to 256 work-items, at most 4096 groups.
backend::LaunchShape fill_shape(const backend::DeviceInfo& info, std::uint64_t items);
// The device of a point; UsageError for the cpu backend.
backend::Device& point_device(const PointContext& ctx, const std::string& variant);

// The portable program (kernels/*.cl, OpenCL and CUDA) and the CUDA-only one
// (kernels/scan_cache_ops.cuh; ProgramSource::cuda null without CUDA).
backend::ProgramSource portable_program();
backend::ProgramSource cuda_only_program();

// Which memory level a global-read point measures.
enum class GlobalLevel { l2, dram };

std::unique_ptr<PointRunner> make_global_read(const PointContext& ctx, GlobalLevel level);
std::string skip_global_read(const PointContext& ctx, GlobalLevel level);

std::unique_ptr<PointRunner> make_shared_read(const PointContext& ctx);
std::string skip_shared_read(const PointContext& ctx);

// How the byte scan loads its bytes.
enum class ScanLoads { line16, l1, no_l1 };
std::unique_ptr<PointRunner> make_byte_scan(const PointContext& ctx, ScanLoads loads);
std::string skip_byte_scan(const PointContext& ctx, ScanLoads loads);

// The host-side expected sum of memory_scan_line / memory_scan_ca/cg for one
// chunk of the period: FNV-1a over its bytes.
std::uint32_t scan_chunk_hash(std::uint32_t first_word, std::uint32_t chunk_bytes);

}  // namespace harness::memory
