#!/usr/bin/env bash
# The main command (README): set-up, build, then `harness reproduce` at the
# preset that suits the backends found (gpu with a GPU, ci without) on every
# backend present. Results, figures and report.md land in $OUT_DIR
# (default out/reproduce). Extra arguments go to `harness reproduce`. With an
# NVIDIA GPU, scripts/tool_counters.sh then merges the counters some verdicts
# judge (instruction counts, Nsight Compute hit rates) and redraws the report.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
HARNESS_NEED_TESTS=0 bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" "$build" -DHARNESS_TESTS=OFF
# shellcheck source=register-nvidia-opencl.sh
source "$root/scripts/register-nvidia-opencl.sh"
"$build/bin/harness" env
out=${OUT_DIR:-$root/out/reproduce}
status=0
"$build/bin/harness" reproduce --out-dir "$out" "$@" || status=$?
# With an NVIDIA GPU: the counters a few verdicts judge, from NVIDIA's tools.
if nvidia-smi -L >/dev/null 2>&1; then
  preset=gpu
  args=("$@")
  for ((i = 0; i + 1 < ${#args[@]}; ++i)); do
    [ "${args[i]}" = --preset ] && preset=${args[i + 1]}
  done
  bash "$root/scripts/tool_counters.sh" "$out" "$build" "$preset" || status=1
fi
exit $status
