// Pieces the memory family's files share (not for other families).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "harness/backend/backend.h"
#include "harness/core/registry.h"
#include "micro/common/params.h"
#include "micro/memory/memory.h"

namespace harness::memory {

inline backend::Device& point_device(const PointContext& ctx, const std::string& variant) {
  return micro::point_device(ctx, "memory", variant);
}
using micro::fill_shape;
using micro::group_size_problem;
using micro::resolve_groups;

// The portable program (kernels/*.cl, OpenCL and CUDA) and the CUDA-only one
// (kernels/scan_cache_ops.cuh; ProgramSource::cuda null without CUDA).
backend::ProgramSource portable_program();
backend::ProgramSource cuda_only_program();

// Which memory level a global-read point measures.
enum class GlobalLevel { l2, dram };

std::unique_ptr<PointRunner> make_global_read(const PointContext& ctx, GlobalLevel level);
std::string skip_global_read(const PointContext& ctx, GlobalLevel level);

// memory/copy (copy.cpp).
std::unique_ptr<PointRunner> make_copy(const PointContext& ctx);
std::string skip_copy(const PointContext& ctx);

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
