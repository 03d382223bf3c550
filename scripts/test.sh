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
echo "test.sh: set-up and build took $SECONDS s"
# shellcheck source=register-nvidia-opencl.sh
source "$root/scripts/register-nvidia-opencl.sh"
export HARNESS_DATA_DIR=${HARNESS_DATA_DIR:-$build/datasets}
# A failing test does not stop the reproduction: CI shows both, then fails.
status=0
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" --timeout 900 || status=$?
echo "test.sh: tests done at $SECONDS s"
out=$(mktemp -d)
"$build/bin/harness" reproduce --preset ci --out-dir "$out" || status=$?
python3 "$root/scripts/check_results.py" "$out"/results/*.json || status=$?
echo "reproduction: $out/report.md"
echo "test.sh: reproduction done at $SECONDS s"
if [ "$status" -ne 0 ]; then echo "test.sh: failed (exit $status); see above" >&2; fi
exit "$status"
