#!/usr/bin/env bash
# Builds the harness once, then submits the shard array and the merge job
# that waits for it (afterok). Run from the repository root on a login node:
#   SHARED=/shared/$USER/harness bash scripts/slurm/submit.sh [SHARDS] [sbatch options...]
# SHARDS defaults to 4; further arguments go to both sbatch calls (e.g.
# --partition=gpu --account=myproj). Environment: see reproduce-array.sbatch;
# RUN_DIR (an earlier run's folder, to resume it); BUILD_DIR (default: build-slurm), BUILD_WITH (default: "srun --gpus=1", the
# command that runs the build on a compute node; "" builds here).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
: "${SHARED:?set SHARED to a folder every node sees}"
shards=${1:-4}
shift || true
build=${BUILD_DIR:-$root/build-slurm}
${BUILD_WITH-srun --gpus=1} bash "$root/scripts/build.sh" "$build" -DHARNESS_TESTS=OFF
export HARNESS=$build/bin/harness SHARED
export HARNESS_GIT_SHA=${HARNESS_GIT_SHA:-$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || true)}
cd "$root"
jid=$(sbatch --parsable --array="0-$((shards - 1))" --export=ALL "$@" scripts/slurm/reproduce-array.sbatch)
jid=${jid%%;*}  # --parsable prints "id" or "id;cluster"
run_dir=${RUN_DIR:-$SHARED/run-$jid}  # RUN_DIR set: resume that earlier run
mid=$(sbatch --parsable --dependency="afterok:$jid" --export="ALL,RUN_DIR=$run_dir" "$@" \
  scripts/slurm/merge.sbatch)
echo "array job $jid ($shards shards) -> $run_dir/shard-*"
echo "merge job ${mid%%;*} -> $run_dir/merged/report.md"
