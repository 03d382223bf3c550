#!/usr/bin/env bash
# The main command (README): set-up, build, then `harness reproduce` at the
# preset that suits the backends found (gpu with a GPU, ci without) on every
# backend present. Results, figures and report.md land in $OUT_DIR
# (default out/reproduce). Extra arguments go to `harness reproduce`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
HARNESS_NEED_TESTS=0 bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" "$build" -DHARNESS_TESTS=OFF
# shellcheck source=register-nvidia-opencl.sh
source "$root/scripts/register-nvidia-opencl.sh"
"$build/bin/harness" env
"$build/bin/harness" reproduce --out-dir "${OUT_DIR:-$root/out/reproduce}" "$@"
