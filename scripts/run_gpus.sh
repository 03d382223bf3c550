#!/usr/bin/env bash
# The main command (scripts/run.sh) spread over the GPUs of one host: set-up
# and one build, then one `harness reproduce` per GPU, each seeing only its
# GPU (CUDA_VISIBLE_DEVICES, which NVIDIA's OpenCL honours too) and pinned to
# an equal share of the host cores local to it (scripts/gpu_cores.py), so
# every shard runs as on a one-GPU machine with 1/N of the cores. The
# experiments are split by their last measured times, experiments that reuse
# each other's points kept together (scripts/plan_shards.py). All shards write
# into one out-dir (one results file per experiment); the report is drawn
# from all of them at the end. Run it again to resume: finished experiments
# are skipped. Each experiment's wall time is its own, so their sum is the
# suite's time on one GPU of this kind.
#   GPUS      how many GPUs to use, from the first (default: all nvidia-smi lists)
#   OUT_DIR   out-dir (default out/reproduce)    BUILD_DIR  (default build)
# Arguments: --preset P (default gpu); the rest go to every `harness reproduce`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
preset=gpu
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --preset) preset=$2; shift 2 ;;
    --experiments | --shard) echo "run_gpus.sh: $1 is chosen per GPU here; use harness reproduce for a subset" >&2; exit 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "run_gpus.sh: no NVIDIA GPU (nvidia-smi -L failed); scripts/run.sh runs the suite on the backends present" >&2
  exit 1
fi
start=$(date +%s)
HARNESS_NEED_TESTS=0 bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" "$build" -DHARNESS_TESTS=OFF
# shellcheck source=register-nvidia-opencl.sh
source "$root/scripts/register-nvidia-opencl.sh"
harness=$build/bin/harness
gpus=${GPUS:-$(nvidia-smi -L | wc -l)}
mapfile -t cores < <(python3 "$root/scripts/gpu_cores.py" --gpus "$gpus")
mapfile -t plan < <(python3 "$root/scripts/plan_shards.py" --shards "$gpus" --preset "$preset")
out=${OUT_DIR:-$root/out/reproduce}
mkdir -p "$out/logs"
echo "run_gpus.sh: set-up and build $(($(date +%s) - start)) s; $gpus GPUs, preset $preset, into $out"
pids=()
for ((g = 0; g < gpus; ++g)); do
  ids=${plan[g]#* }
  [ -n "$ids" ] || continue
  echo "run_gpus.sh: GPU $g, cores ${cores[g]}, about ${plan[g]%% *} s: $ids"
  (
    shard_start=$(date +%s)
    status=0
    CUDA_VISIBLE_DEVICES=$g taskset -c "${cores[g]}" "$harness" reproduce --out-dir "$out" \
      --preset "$preset" --experiments "$ids" ${args[@]+"${args[@]}"} >"$out/logs/gpu$g.log" 2>&1 || status=$?
    echo "run_gpus.sh: GPU $g done in $(($(date +%s) - shard_start)) s, exit $status (log $out/logs/gpu$g.log)"
    exit $status
  ) &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
"$harness" reproduce --report-only --out-dir "$out" || status=1
bash "$root/scripts/tool_counters.sh" "$out" "$build" "$preset" || status=1
echo "run_gpus.sh: $(($(date +%s) - start)) s in all, exit $status; report $out/report.md"
exit $status
