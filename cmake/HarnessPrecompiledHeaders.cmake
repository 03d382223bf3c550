# Precompiled headers for host C++: the standard, fmt and GoogleTest headers
# that most sources include are parsed once per library (and once for all
# tests) instead of once per source. On CI's 2-core machine the clean build
# is most of the test command's time and parsing a large share of it.
#
# harness_precompile_headers(<target>) gives a library its own precompiled
# header; harness_add_test reuses one shared by every test executable (tests
# have identical compile options, which a reused header requires).
# (The option HARNESS_PCH is declared in the top-level CMakeLists.txt.)

set(HARNESS_PCH_HEADERS
  <algorithm> <cstddef> <cstdint> <cstring> <functional> <map> <memory>
  <stdexcept> <string> <string_view> <utility> <vector>
  <fmt/format.h> "${PROJECT_SOURCE_DIR}/harness/core/errors.h")

function(harness_precompile_headers target)
  if(NOT HARNESS_PCH)
    return()
  endif()
  foreach(h IN LISTS HARNESS_PCH_HEADERS)
    # CXX only: nvcc-compiled sources of the same target are left alone.
    target_precompile_headers(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${h}>")
  endforeach()
endfunction()

# The precompiled header every test executable reuses (REUSE_FROM).
function(harness_test_precompiled_headers)
  if(NOT HARNESS_PCH OR NOT HARNESS_TESTS OR TARGET harness_test_pch)
    return()
  endif()
  file(WRITE "${PROJECT_BINARY_DIR}/generated/harness_test_pch.cpp"
       "// Anchor of the tests' precompiled header (cmake/HarnessPrecompiledHeaders.cmake).\n")
  add_library(harness_test_pch OBJECT "${PROJECT_BINARY_DIR}/generated/harness_test_pch.cpp")
  target_link_libraries(harness_test_pch PRIVATE harness_core GTest::gtest harness_warnings)
  harness_precompile_headers(harness_test_pch)
  target_precompile_headers(harness_test_pch PRIVATE <gtest/gtest.h>)
endfunction()
