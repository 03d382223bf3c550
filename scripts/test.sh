#!/usr/bin/env bash
# The test command (README; .ci/run calls it): set-up, build with every backend
# whose toolchain is present, the GoogleTest/CTest suite, then a ci-preset
# `harness reproduce` into a temporary folder. Works without a GPU: OpenCL
# kernels run on PoCL, CUDA code is compiled and its device tests skip.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-test}
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" "$build"
# shellcheck source=register-nvidia-opencl.sh
source "$root/scripts/register-nvidia-opencl.sh"
export HARNESS_DATA_DIR=${HARNESS_DATA_DIR:-$build/datasets}
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" --timeout 900
out=$(mktemp -d)
"$build/bin/harness" reproduce --preset ci --out-dir "$out"
python3 "$root/scripts/check_results.py" "$out"/results/*.json
echo "reproduction: $out/report.md"
