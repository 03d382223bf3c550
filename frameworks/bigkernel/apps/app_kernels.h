// The apps' AppKernels (one file each in this folder) and what their host code
// shares; app_kernel.cpp's make_app_kernel picks one by name.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "frameworks/bigkernel/app_kernel.h"

namespace harness::bigkernel {

// Host work of the write-back and the merge: every core, a thread per
// 64 Ki items at least.
constexpr std::uint64_t kItemsPerHostThread = 65536;

inline std::string d2h_ceiling(backend::HostMemory kind) {
  return kind == backend::HostMemory::pageable ? "d2h_pageable" : "d2h_pinned";
}

std::unique_ptr<AppKernel> make_kmeans_particles_kernel();
std::unique_ptr<AppKernel> make_netflix_kernel();
std::unique_ptr<AppKernel> make_opinion_finder_kernel();
std::unique_ptr<AppKernel> make_dna_assembly_kernel();
std::unique_ptr<AppKernel> make_wc_kernel();
// mastercard, or with `indexed` mastercard-indexed.
std::unique_ptr<AppKernel> make_mastercard_kernel(bool indexed);

// The bytes of the longest record of a variable-length table (the most
// single-byte reads a thread of wc or mastercard makes); a RunError when a
// thread's address list could not hold them.
std::uint32_t longest_piece(const RecordTable& records);

}  // namespace harness::bigkernel
