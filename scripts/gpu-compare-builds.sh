#!/usr/bin/env bash
# Before/after on a GPU machine: builds this tree and an older source tree
# (OLD_TREE, e.g. `git archive <commit> | tar -x -C old/`), runs each
# experiment with each build on each backend (old and new one after the other),
# and prints `harness compare` (ratio of medians, bootstrap interval,
# Mann-Whitney p) per experiment and backend.
#   OLD_TREE    source folder of the older version (required)
#   EXPERIMENTS comma-separated experiment ids     (default: mars.wordcount-smoke)
#   PRESET      preset                             (default: gpu)
#   BACKENDS    backends to run                    (default: "cuda opencl")
#   REPS        repetitions                        (default: 5)
#   ARTIFACTS   output folder                      (default: out/compare)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=${OLD_TREE:?set OLD_TREE to the older source tree}
experiments=${EXPERIMENTS:-${EXPERIMENT:-mars.wordcount-smoke}}
artifacts=${ARTIFACTS:-$root/out/compare}
mkdir -p "$artifacts"
# shellcheck source=register-nvidia-opencl.sh
source "$root/scripts/register-nvidia-opencl.sh"
build() {  # source build-dir log
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DHARNESS_TESTS=OFF -DHARNESS_CUDA=ON \
    -DHARNESS_OPENCL=ON -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" > "$3" 2>&1 &&
    cmake --build "$2" -j"$(nproc)" --target harness >> "$3" 2>&1 || { tail -40 "$3"; return 1; }
}
[ -x "$root/build-new/bin/harness" ] || build "$root" "$root/build-new" "$artifacts/build-new.log"
[ -x "$root/build-old/bin/harness" ] || build "$old" "$root/build-old" "$artifacts/build-old.log"
for experiment in ${experiments//,/ }; do
  for backend in ${BACKENDS:-cuda opencl}; do
    for which in old new; do
      "$root/build-$which/bin/harness" run --experiment "$experiment" --preset "${PRESET:-gpu}" \
        --backend "$backend" --reps "${REPS:-5}" --out "$artifacts/$experiment.$which-$backend.json" \
        2> "$artifacts/$experiment.$which-$backend.log" ||
        { tail -20 "$artifacts/$experiment.$which-$backend.log"; exit 1; }
    done
    echo "== $experiment on $backend: old -> new"
    "$root/build-new/bin/harness" compare "$artifacts/$experiment.old-$backend.json" \
      "$artifacts/$experiment.new-$backend.json" | tee "$artifacts/$experiment.compare-$backend.txt"
  done
done
