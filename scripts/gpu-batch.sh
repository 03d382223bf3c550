#!/usr/bin/env bash
# One batch on a GPU machine, for a lease of limited time: build for the GPU,
# run the tests matching $TESTS on every backend, reproduce $EXPERIMENTS at
# the gpu preset on each of $BACKENDS, then run the commands of $COMMANDS (a
# file, one shell command a line, `$H` standing for the harness binary), each
# with its own log. Logs and result documents land under $ARTIFACTS, packed
# into $OUT/gpu-batch.tgz when $OUT is set (the device tool brings back few
# files); a short summary is printed last.
#   ARTIFACTS    output folder                       (default: out/gpu-batch)
#   TESTS        ctest -R regex, empty: none          (default: empty)
#   EXPERIMENTS  comma-separated experiment ids        (default: empty)
#   BACKENDS     space-separated backends              (default: "cuda opencl")
#   REPRODUCE    extra arguments of harness reproduce  (default: empty)
#   COMMANDS     file of extra commands                (default: none)
#   BUILD_DIR    build folder                          (default: build-gpu)
#   TARGETS      build targets, space-separated        (default: all)
#   CMD_TIMEOUT  seconds each extra command may run    (default: 300)
# The pack is refreshed after every step, so a call cut by its time limit
# still brings back what ran.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
artifacts=${ARTIFACTS:-$root/out/gpu-batch}
build=${BUILD_DIR:-$root/build-gpu}
mkdir -p "$artifacts"
summary=()
# Packs the artifacts into $OUT (when set) and prints the summary so far.
pack() {
  if [ -n "${OUT:-}" ]; then tar czf "$OUT/gpu-batch.tgz" -C "$artifacts" . 2>/dev/null; fi
  printf '%s\n' "${summary[@]}" >"$artifacts/summary.txt"
}
# shellcheck source=register-nvidia-opencl.sh
source "$root/scripts/register-nvidia-opencl.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$artifacts/nvidia-smi.txt" 2>&1 || true
export HARNESS_GIT_SHA=${HARNESS_GIT_SHA:-$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || true)}

start=$(date +%s)
if ! { cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" &&
  cmake --build "$build" -j"$(nproc)" ${TARGETS:+--target $TARGETS}; } >"$artifacts/build.log" 2>&1; then
  tail -40 "$artifacts/build.log"
  echo "gpu-batch: build failed"
  exit 1
fi
summary+=("build: $(($(date +%s) - start)) s")
pack
H=$build/bin/harness
"$H" env --ceilings >"$artifacts/env.txt" 2>&1 || true

if [ -n "${TESTS:-}" ]; then
  start=$(date +%s)
  ctest --test-dir "$build" -R "$TESTS" --output-on-failure -j4 >"$artifacts/ctest.log" 2>&1
  summary+=("tests ($TESTS): rc $?, $(grep -E 'tests passed|tests failed' "$artifacts/ctest.log" | tail -1), $(($(date +%s) - start)) s")
  pack
fi

if [ -n "${EXPERIMENTS:-}" ]; then
  for backend in ${BACKENDS:-cuda opencl}; do
    start=$(date +%s)
    # shellcheck disable=SC2086
    "$H" reproduce --preset gpu --backend "$backend" --experiments "$EXPERIMENTS" \
      --out-dir "$artifacts/reproduce" ${REPRODUCE:-} >"$artifacts/reproduce-$backend.log" 2>&1
    summary+=("reproduce $backend: rc $?, $(($(date +%s) - start)) s")
    pack
  done
  grep -h -A3 "verdict" "$artifacts"/reproduce/report.md 2>/dev/null | head -40 >"$artifacts/verdicts.txt" || true
fi

if [ -n "${COMMANDS:-}" ]; then
  export H ARTIFACTS=$artifacts
  i=0
  while IFS= read -r cmd; do
    [ -z "$cmd" ] || [ "${cmd:0:1}" = "#" ] && continue
    i=$((i + 1))
    start=$(date +%s)
    timeout "${CMD_TIMEOUT:-300}" bash -c "$cmd" >"$artifacts/cmd$i.log" 2>&1
    summary+=("cmd$i: rc $?, $(($(date +%s) - start)) s: ${cmd:0:100}")
    pack
  done <"$COMMANDS"
fi
pack
printf '%s\n' "${summary[@]}"
