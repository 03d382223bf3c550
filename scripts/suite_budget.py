#!/usr/bin/env python3
"""The gpu preset's time budget: the main command (scripts/run.sh) reproduces
every experiment on cuda and NVIDIA OpenCL in at most 30 minutes on one H100,
set-up and build included.

The suite's time is the sum, over the experiments of paper/experiments/, of
the wall time (`wall_s`) of each one's checked-in reference document of the
preset in results/reference/ (the slowest, where there are several; documents
of runs on several GPUs at once are not the one-GPU suite's), plus the
set-up, build and tool-counter time of that run. A spec without such a document, or whose gpu
preset has changed since its document was measured (its runs, sizes, axes or
GPU memory budget differ from the document's points), has no measured cost:
its "gpu_estimate_s" (seconds of the whole experiment over its backends,
with the basis in "gpu_time_note") counts instead, listed as an estimate
until a run of it is checked in; without one the check fails. A preset that
only drops what its document measured (runs, sizes or axis values: a sweep
moved to the full preset) costs what the document measured less the dropped
points' own wall time (those it measured, not reused from another experiment;
scaled down where its points' times overlapped), listed as "trimmed". The test in
scripts/tests/test_suite_budget.py fails when the sum passes the budget, so a
new experiment's gpu preset has to fit the suite.

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


def parse_size(text) -> int:
    """Bytes of a size label ("128MiB", "4.5GB", "256KiB", "1024")."""
    t = str(text).strip()
    units = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "KB": 10**3, "MB": 10**6,
             "GB": 10**9, "B": 1}
    for u, m in units.items():
        if t.endswith(u):
            return int(float(t[: -len(u)]) * m)
    return int(float(t))


def spec_plan(spec: dict, preset: str) -> dict:
    """What a spec runs at a preset, in the terms a results document records:
    (framework, variant, app) triples, each app's size labels, the axes'
    values (as strings) and the GPU memory budget in bytes (None: none)."""
    runs = {(r["framework"], v, a) for r in spec.get("runs") or []
            if preset in (r.get("presets") or [preset])
            for v in r.get("variants") or [] for a in r.get("apps") or []}
    default = sorted((spec.get("sizes") or {}).get(preset) or ["-"])
    per_app = {a: sorted((d.get("sizes") or {}).get(preset) or [])
               for a, d in (spec.get("app_datasets") or {}).items()}
    sizes = {a: per_app.get(a, default) for _, _, a in runs}
    axes = {name: [str(x) for x in by_preset[preset]]
            for name, by_preset in (spec.get("axes") or {}).items() if preset in by_preset}
    budget = (spec.get("gpu_memory_budget") or {}).get(preset)
    return {"runs": runs, "sizes": sizes, "axes": axes,
            "budget": None if budget is None else parse_size(budget)}


def doc_plan(doc: dict) -> dict:
    """spec_plan's terms for what a results document measured."""
    points = doc.get("points") or []
    runs = {(p.get("framework"), p.get("variant"), p.get("app")) for p in points}
    sizes: dict = {}
    for p in points:
        sizes.setdefault(p.get("app"), set()).add((p.get("dataset") or {}).get("label") or "-")
    exp = doc.get("experiment") or {}
    axes = {k: [str(x) for x in v] for k, v in (exp.get("axes") or {}).items()}
    return {"runs": runs, "sizes": {a: sorted(v) for a, v in sizes.items()}, "axes": axes,
            "budget": exp.get("gpu_memory_budget_bytes")}


def changes(spec: dict, doc: dict, preset: str) -> list[str]:
    """How the spec's preset differs from what the document measured ([]: no change)."""
    if "runs" not in spec:  # nothing to compare
        return []
    want, have = spec_plan(spec, preset), doc_plan(doc)
    out = []
    if want["runs"] != have["runs"]:
        new = sorted("/".join(t) for t in want["runs"] - have["runs"])
        gone = sorted("/".join(map(str, t)) for t in have["runs"] - want["runs"])
        out.append("runs" + (f" added {', '.join(new)}" if new else "") +
                   (f" removed {', '.join(gone)}" if gone else ""))
    moved = sorted(a for a, labels in want["sizes"].items()
                   if a in have["sizes"] and sorted(labels) != have["sizes"][a])
    if moved:
        out.append(f"sizes of {', '.join(moved)}")
    # Axes the document recorded and the spec lists literally for the preset
    # (a spec may also give an axis for all presets, or a rule such as "pow2",
    # which the document records expanded).
    axes = sorted(k for k, v in want["axes"].items()
                  if k in have["axes"] and "pow2" not in v and sorted(v) != sorted(have["axes"][k]))
    if axes:
        out.append(f"axes {', '.join(axes)}")
    if want["budget"] is not None and have["budget"] is not None and want["budget"] != have["budget"]:
        out.append("GPU memory budget")
    return out


def _point_seconds(p: dict) -> float | None:
    w = (p.get("wall_s") or {}).get("total") if isinstance(p.get("wall_s"), dict) else None
    return float(w) if isinstance(w, (int, float)) and not isinstance(w, bool) else None


def plan_keeps(plan: dict, p: dict) -> bool:
    """Whether a preset's plan (spec_plan) runs the document point `p`: its
    run, its size and its axis values (those the spec lists literally)."""
    if (p.get("framework"), p.get("variant"), p.get("app")) not in plan["runs"]:
        return False
    if ((p.get("dataset") or {}).get("label") or "-") not in plan["sizes"].get(p.get("app"), []):
        return False
    axes = p.get("axes") or {}
    return all(str(axes[k]) in values for k, values in plan["axes"].items()
               if k in axes and not {"pow2", "range"} & set(values))


def orphaned_seconds(i: str, doc: dict, plans: dict) -> float:
    """Wall time of the points experiment i's document reused from an earlier
    experiment whose preset no longer runs them: i measures them itself now
    (a reused point carries the wall time it cost where it was measured)."""
    out = 0.0
    for p in doc.get("points") or []:
        producer = p.get("reused_from")
        if producer in plans and plan_keeps(plans[i], p) and not plan_keeps(plans[producer], p):
            out += _point_seconds(p) or 0.0
    return out


def trimmed_seconds(spec: dict, doc: dict, preset: str) -> tuple[float, str] | None:
    """(seconds, why) when the spec's preset only drops runs, sizes or axis
    values that the document measured: the document's wall time less the
    time of the dropped points it measured itself (a point reused from an
    earlier experiment cost it nothing). Where the measured points' times sum
    past the document's wall time (program builds overlap), the dropped time
    is scaled by wall / sum. None when the preset adds anything, changes the
    GPU memory budget, or the document's points carry no wall times."""
    want, have = spec_plan(spec, preset), doc_plan(doc)
    if not want["runs"] or not want["runs"] <= have["runs"]:
        return None
    if any(not set(labels) <= set(have["sizes"].get(app, [])) for app, labels in want["sizes"].items()):
        return None
    literal = {k: set(v) for k, v in want["axes"].items() if k in have["axes"] and "pow2" not in v}
    if any(not values <= set(have["axes"][k]) for k, values in literal.items()):
        return None
    if want["budget"] is not None and have["budget"] is not None and want["budget"] != have["budget"]:
        return None
    wall = wall_seconds(doc)
    points = doc.get("points") or []
    if wall is None or any(_point_seconds(p) is None for p in points if p.get("status") != "skipped"):
        return None

    def kept(p: dict) -> bool:
        return plan_keeps(want, p)

    measured = [p for p in points if "reused_from" not in p and p.get("status") != "skipped"]
    spent = sum(_point_seconds(p) for p in measured)
    dropped = sum(_point_seconds(p) for p in measured if not kept(p))
    scale = min(1.0, wall / spent) if spent > 0 else 0.0
    gone = len([p for p in points if not kept(p)])
    return wall - dropped * scale, f"trimmed: {gone} of {len(points)} points dropped, {dropped * scale:.1f} s"


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
    """{experiment id: (seconds or None, source, backends)} for every spec
    (`specs`: load_specs' answer): the measured time of its reference
    document (the slowest, of those whose points each ran on one device)
    when the spec's preset is what that document measured; else the spec's
    gpu_estimate_s (source "estimate: <why>"), or None."""
    found = {i: (None, None, 1, None) for i in specs}
    for path in sorted(glob.glob(os.path.join(reference, "*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        exp = doc.get("experiment") or {}
        if exp.get("id") not in found or exp.get("preset") != preset or several_gpus(doc):
            continue
        s = wall_seconds(doc)
        if s is not None and (found[exp["id"]][0] is None or s > found[exp["id"]][0]):
            found[exp["id"]] = (s, os.path.relpath(path, ROOT), backends_run(doc), doc)
    times = {}
    plans = {i: spec_plan(spec, preset) for i, spec in specs.items() if "runs" in spec}
    for i, (s, path, n, doc) in found.items():
        changed = changes(specs[i], doc, preset) if doc is not None else ["no reference document"]
        trimmed = trimmed_seconds(specs[i], doc, preset) if changed and doc is not None else None
        if not changed or trimmed is not None:
            why = [] if trimmed is None else [trimmed[1]]
            s = s if trimmed is None else trimmed[0]
            orphaned = orphaned_seconds(i, doc, plans) if i in plans else 0.0
            if orphaned > 0:
                why.append(f"{orphaned:.1f} s of points no longer measured where they were reused from")
            times[i] = (s + orphaned, path + (f" ({'; '.join(why)})" if why else ""), n)
            continue
        estimate = specs[i].get(f"{preset}_estimate_s")
        why = "; ".join(changed)
        times[i] = (float(estimate), f"estimate ({why})", 2) if estimate is not None else \
            (None, f"not measured as specified ({why})", 1)
    return times


def estimated(times: dict) -> list[str]:
    return sorted(i for i, (s, source, _) in times.items()
                  if s is not None and str(source).startswith("estimate"))


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
    guessed = estimated(times)
    for i, (s, f, n) in sorted(times.items()):
        per = "" if s is None else f"{s / n:6.1f} s per backend"
        note = " (gpu_time_note)" if s is not None and s / n > PER_BACKEND_LIMIT_S and \
            spec[i].get("gpu_time_note") else ""
        print(f"{i:28s} {'-' if s is None else f'{s:7.1f}'} s {per}{note}  {f}")
    est = sum(times[i][0] for i in guessed)
    print(f"set-up, build and tool counters {BUILD_S:.0f} s; total {total:.0f} s ({total / 60:.1f} min) "
          f"of a {a.budget_min:.0f}-minute budget, {est:.0f} s of it estimated "
          f"({len(guessed)} experiments changed since their last gpu run)")
    if missing:
        print(f"no reference time and no {a.preset}_estimate_s for: {', '.join(missing)}", file=sys.stderr)
    unexplained = over_without_note(times, spec)
    if unexplained:
        print(f"past {PER_BACKEND_LIMIT_S:.0f} s per backend without a gpu_time_note: "
              f"{', '.join(unexplained)}", file=sys.stderr)
    ok = not missing and not unexplained and total <= a.budget_min * 60
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
