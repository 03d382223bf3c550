// S-L1, the software L1 cache of the thesis' chapter 5 (frameworks/sl1/README.md).
#pragma once

#include <cstdint>
#include <string>

namespace harness::sl1 {

void register_family();

// How a program's loads and stores are built (SL1_MODE in kernels/sl1_cache.clh).
enum class Mode { no_l1, hw_l1, sl1, register_line, staging, coalesced };

// The program's name ("sl1/wc/sl1-16": frameworks/CMakeLists.txt builds the
// same names for CUDA) and its defines.
std::string program_name(const std::string& app, Mode mode, std::uint32_t line_bytes);
std::string program_defines(Mode mode, std::uint32_t line_bytes);

}  // namespace harness::sl1
