#!/usr/bin/env bash
# Host-code sanitizer build (AddressSanitizer + UndefinedBehaviorSanitizer,
# CUDA off) and the tests that need no OpenCL driver under it: PoCL's JIT and
# the ICD loader are not built with ASan, so the OpenCL suites run in the
# normal build instead (scripts/test.sh). Without precompiled headers, so
# that GCC 12 keeps the warnings the precompiled build turns off (CMakeLists.txt).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-asan}
bash "$root/scripts/build.sh" "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHARNESS_CUDA=OFF -DHARNESS_OPENCL=OFF \
  -DHARNESS_SANITIZE=address,undefined -DHARNESS_PCH=OFF
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export HARNESS_DATA_DIR=${HARNESS_DATA_DIR:-$build/datasets}
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
