#!/usr/bin/env python3
"""The gpu preset's time budget: the main command (scripts/run.sh) reproduces
every experiment on cuda and NVIDIA OpenCL in at most 30 minutes on one H100,
set-up and build included.

The suite's time is the sum, over the experiments of paper/experiments/, of
the wall time (`wall_s`) of each one's checked-in reference document of the
preset in results/reference/ (the slowest, where there are several; documents
of runs on several GPUs at once are not the one-GPU suite's), plus the
set-up, build and tool-counter time of that run. A spec without such a document has no
known cost: it is listed, and fails the check, until a run of it is checked
in. The test in scripts/tests/test_suite_budget.py fails when the sum passes
the budget, so a new experiment's gpu preset has to fit the suite.

The standing rule per experiment: its gpu preset costs about 30 s per
backend (its reference time over the GPU backends it ran on, or the host for
host-only experiments); past PER_BACKEND_LIMIT_S its spec says why in
"gpu_time_note", or the check fails.

    python3 scripts/suite_budget.py [--preset gpu] [--budget-min 30]
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys

from results_doc import wall_seconds

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPECS = os.path.join(ROOT, "paper", "experiments")
REFERENCE = os.path.join(ROOT, "results", "reference")
# Set-up and build of scripts/run.sh on a fresh H100 (16 cores) at 0f12f19
# (158 s of its 1573 s) and its tool-counter step (scripts/tool_counters.sh,
# 77 s on an H100 at a59213b); rounded up.
BUILD_S = 260.0
BUDGET_MIN = 30.0
PER_BACKEND_S = 30.0  # the rule: "about 30 s per backend"
PER_BACKEND_LIMIT_S = 45.0  # past this, the spec's gpu_time_note says why


def load_specs(specs: str = SPECS) -> dict:
    out = {}
    for path in sorted(glob.glob(os.path.join(specs, "*.json"))):
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
        out[spec["id"]] = spec
    return out


def backends_run(doc: dict) -> int:
    """The GPU backends a document's points ran on (1 for a host-only one)."""
    ran = {p.get("backend") for p in doc.get("points") or [] if p.get("status") != "skipped"}
    return max(1, len(ran - {"cpu", None}))


def several_gpus(doc: dict) -> bool:
    """Whether some point ran on more than one GPU (a machine with several,
    e.g. streamit.fig7's 2-4 GPU points): not the one-GPU suite's time. A GPU
    with the host (mars.fig9's co-processing) is one GPU."""
    gpus = {(d.get("backend"), d.get("index"))
            for d in (doc.get("environment") or {}).get("devices") or [] if d.get("type") == "gpu"}
    return any(len({(d.get("backend"), d.get("index")) for d in p.get("devices") or []} & gpus) > 1
               for p in doc.get("points") or [])


def experiment_times(preset: str, specs: dict, reference: str = REFERENCE) -> dict:
    """{experiment id: (seconds or None, reference file or None, backends)} for every spec
    (`specs`: load_specs' answer), from documents whose points each ran on one device."""
    times = {i: (None, None, 1) for i in specs}
    for path in sorted(glob.glob(os.path.join(reference, "*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        exp = doc.get("experiment") or {}
        if exp.get("id") not in times or exp.get("preset") != preset or several_gpus(doc):
            continue
        s = wall_seconds(doc)
        if s is not None and (times[exp["id"]][0] is None or s > times[exp["id"]][0]):
            times[exp["id"]] = (s, os.path.relpath(path, ROOT), backends_run(doc))
    return times


def over_without_note(times: dict, specs: dict) -> list[str]:
    """Experiments past PER_BACKEND_LIMIT_S per backend whose spec gives no gpu_time_note."""
    return sorted(i for i, (s, _, n) in times.items()
                  if s is not None and s / n > PER_BACKEND_LIMIT_S
                  and not str(specs[i].get("gpu_time_note", "")).strip())


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="gpu")
    ap.add_argument("--budget-min", type=float, default=BUDGET_MIN)
    ap.add_argument("--specs", default=SPECS, help=argparse.SUPPRESS)
    ap.add_argument("--reference", default=REFERENCE, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    spec = load_specs(a.specs)
    times = experiment_times(a.preset, spec, a.reference)
    missing = sorted(i for i, (s, _, _) in times.items() if s is None)
    total = sum(s for s, _, _ in times.values() if s is not None) + BUILD_S
    for i, (s, f, n) in sorted(times.items()):
        per = "" if s is None else f"{s / n:6.1f} s per backend"
        note = " (gpu_time_note)" if s is not None and s / n > PER_BACKEND_LIMIT_S and \
            spec[i].get("gpu_time_note") else ""
        print(f"{i:28s} {'-' if s is None else f'{s:7.1f}'} s {per}{note}  {f or 'no reference document'}")
    print(f"set-up, build and tool counters {BUILD_S:.0f} s; total {total:.0f} s ({total / 60:.1f} min) "
          f"of a {a.budget_min:.0f}-minute budget")
    if missing:
        print(f"no reference time for: {', '.join(missing)}", file=sys.stderr)
    unexplained = over_without_note(times, spec)
    if unexplained:
        print(f"past {PER_BACKEND_LIMIT_S:.0f} s per backend without a gpu_time_note: "
              f"{', '.join(unexplained)}", file=sys.stderr)
    ok = not missing and not unexplained and total <= a.budget_min * 60
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
