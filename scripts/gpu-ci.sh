#!/usr/bin/env bash
# GPU CI: builds for the GPU, prints the environment with measured ceilings,
# runs the test suite (GPU tests included) and a validated reproduction on
# every GPU backend; everything lands under $ARTIFACTS.
#   ARTIFACTS  output folder            (default: out/gpu-ci)
#   PRESET     reproduction preset      (default: ci)
#   CUDA_ARCH  CMAKE_CUDA_ARCHITECTURES (default: 90)
#   BUILD_DIR  build folder             (default: build-gpu)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
artifacts=${ARTIFACTS:-$root/out/gpu-ci}
build=${BUILD_DIR:-$root/build-gpu}
preset=${PRESET:-ci}
mkdir -p "$artifacts"
# shellcheck source=register-nvidia-opencl.sh
source "$root/scripts/register-nvidia-opencl.sh"

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$artifacts/nvidia-smi.txt" || true
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHARNESS_CUDA=ON -DHARNESS_OPENCL=ON \
  -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" > "$artifacts/configure.log"
export HARNESS_GIT_SHA=${HARNESS_GIT_SHA:-$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || true)}
cmake --build "$build" -j"$(nproc)" > "$artifacts/build.log" 2>&1 || { tail -50 "$artifacts/build.log"; exit 1; }
harness="$build/bin/harness"
"$harness" env --ceilings | tee "$artifacts/env.txt"
ctest --test-dir "$build" --output-on-failure -j4 > "$artifacts/ctest.log" 2>&1 || { tail -60 "$artifacts/ctest.log"; exit 1; }
tail -3 "$artifacts/ctest.log"

status=0
for backend in cuda opencl; do
  "$harness" reproduce --preset "$preset" --backend "$backend" --out-dir "$artifacts/reproduce-$backend" || status=1
done
exit $status
