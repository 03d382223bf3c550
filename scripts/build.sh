#!/usr/bin/env bash
# Configures and builds into $1 (default build/), with every backend whose
# toolchain is present (CUDA when nvcc is found; OpenCL when its headers are).
# Extra arguments go to cmake's configure step.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
grep -E "^-- harness:" "$build.configure.log" || true
cmake --build "$build" -j"$(nproc)" >"$build.build.log" 2>&1 || { tail -60 "$build.build.log"; exit 1; }
echo "built $build/bin/harness"
