# harness_add_test(<name> SOURCES <files...> [LIBS <targets...>])
# One GoogleTest executable per call, registered with CTest through
# gtest_discover_tests. Tests live beside the code they test.
function(harness_add_test name)
  if(NOT HARNESS_TESTS)
    return()
  endif()
  cmake_parse_arguments(T "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} harness_core GTest::gtest_main harness_warnings)
  if(HARNESS_PCH)
    harness_test_precompiled_headers()
    target_precompile_headers(${name} REUSE_FROM harness_test_pch)
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 TEST_PREFIX "${name}."
    PROPERTIES ENVIRONMENT "HARNESS_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endfunction()
