#!/usr/bin/env bash
# Counters that some verdicts judge and that come from NVIDIA's tools, merged
# into a reproduction's documents (scripts/run.sh's last step on a machine
# with an NVIDIA GPU), then the figures and report drawn again:
#   atomics.fig14: the kernels' instruction mix from the built code
#     (micro/atomics/isa_counts.py: SASS of the harness binary for cuda,
#     NVIDIA OpenCL's PTX of the programs it builds for opencl);
#   thesis.fig5_1, thesis.fig5_13: L1/L2 hit rates from Nsight Compute
#     (scripts/ncu_counters.py; a separate profiled run of the cuda points,
#     one repetition, so the timed documents keep their times);
#   thesis.fig5_15: the S-L1 kernels' warp instructions executed and issued,
#     from Nsight Compute the same way.
# Usage: tool_counters.sh OUT_DIR BUILD_DIR [PRESET]. Experiments absent from
# OUT_DIR/results are skipped; a missing tool or a failed merge is reported
# and leaves those verdicts "not run". Exit 0 unless the report fails.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
build=$2
preset=${3:-gpu}
H=$build/bin/harness
export PATH=$PATH:/usr/local/cuda/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
merged=0
say() { echo "tool counters: $*" >&2; }

doc=$out/results/atomics.fig14.json
if [ -f "$doc" ]; then
  if ! command -v cuobjdump >/dev/null; then
    say "atomics.fig14 (cuda): cuobjdump not found, no instruction counts"
  elif python3 "$root/micro/atomics/isa_counts.py" "$H" --into "$doc" --backend cuda >"$tmp/isa-cuda.log" 2>&1; then
    merged=1
  else
    say "atomics.fig14 (cuda): isa_counts.py failed ($(tail -1 "$tmp/isa-cuda.log"))"
  fi
  if HARNESS_DUMP_CL="$tmp" "$H" run --experiment atomics.fig14 --preset "$preset" --backend opencl \
    --reps 1 --no-ceilings --out "$tmp/fig14-opencl.json" >"$tmp/dump.log" 2>&1; then
    for bin in "$tmp"/*atomics*.bin; do
      [ -f "$bin" ] || continue
      python3 "$root/micro/atomics/isa_counts.py" --ptx "$bin" --into "$doc" --backend opencl \
        >>"$tmp/isa-opencl.log" 2>&1 && merged=1
    done
  else
    say "atomics.fig14 (opencl): no NVIDIA OpenCL program to count ($(tail -1 "$tmp/dump.log"))"
  fi
fi

for e in thesis.fig5_1 thesis.fig5_13; do
  doc=$out/results/$e.json
  [ -f "$doc" ] || continue
  if ! command -v ncu >/dev/null; then
    say "$e: ncu not found, no hit rates"
    continue
  fi
  if python3 "$root/scripts/ncu_counters.py" --into "$doc" -- "$H" run --experiment "$e" \
    --preset "$preset" --backend cuda --reps 1 --no-ceilings --out "$tmp/$e.ncu.json" \
    >"$tmp/ncu-$e.log" 2>&1; then
    merged=1
  else
    say "$e: ncu_counters.py failed ($(tail -1 "$tmp/ncu-$e.log"))"
  fi
done

# Figure 5.15: instructions of the S-L1 app kernels (not the staged ones, not
# the fills and copies around them), a run's launches summed.
e=thesis.fig5_15
doc=$out/results/$e.json
if [ -f "$doc" ]; then
  if ! command -v ncu >/dev/null; then
    say "$e: ncu not found, no instruction counts"
  elif python3 "$root/scripts/ncu_counters.py" --metrics instructions \
    --kernels 'sl1_(upper|wc|grep|kmeans_particles|opinion_finder|dna_assembly)' --into "$doc" -- \
    "$H" run --experiment "$e" --preset "$preset" --backend cuda --reps 1 --no-ceilings \
    --out "$tmp/$e.ncu.json" >"$tmp/ncu-$e.log" 2>&1; then
    merged=1
  else
    say "$e: ncu_counters.py failed ($(tail -1 "$tmp/ncu-$e.log"))"
  fi
fi

if [ "$merged" = 1 ]; then
  "$H" reproduce --report-only --out-dir "$out"
fi
