"""Rules on each variant's best configuration of a sweep (the thesis' "best of
512 thread configurations"): which point of a variant's sweep is fastest, and
how a quantity of that best point compares between two variants."""

from __future__ import annotations

import json

from results_doc import (axes_text, dataset_label, device_key, fmt_num, group_by_device, higher_is_better, matches,
                         metric_unit, not_skipped, stat, validation_status)

from .registry import rule
from .selection import is_invalid
from .verdict import NOT_RUN, Verdict, decide, skipped_verdicts, verdict_for


def best_point(points: list[dict], metric: str) -> dict | None:
    """The point with the best median of `metric` (lowest time, highest rate);
    None when none has the metric."""
    scored = [p for p in points if stat(p, metric) is not None]
    if not scored:
        return None
    pick = max if higher_is_better(metric) else min
    return pick(scored, key=lambda p: stat(p, metric))


@rule("best_grows")
def best_grows(spec: dict, points: list[dict]) -> list[Verdict]:
    """At each variant's best configuration, the candidate's `by` is at least
    the baseline's, per device and app (thesis figure 5.12: applications run
    best with more online threads with S-L1 than without).

    spec: {"candidate": matcher, "baseline": matcher, "metric": "total_ms" |
    phase | ... (what "best" optimizes), "by": "counter:<name>" or another
    metric (the quantity compared at the two best points, e.g.
    "counter:threads")}. Per device and (app, dataset): the candidate's best
    point over all its configurations (its axes) and the baseline's best on
    the same device. Holds if on every app the candidate's `by` at its best is
    at least the baseline's, and larger on at least one; does not hold if it
    is smaller on some app, or equal everywhere, or a point involved failed
    validation; not run if no app has both. The detail names each best
    configuration, its metric and its `by`.
    """
    cand_m = spec.get("candidate") or {}
    base_m = spec.get("baseline") or {}
    metric = str(spec.get("metric", "total_ms"))
    by = spec.get("by")
    if not isinstance(by, str) or not by:
        raise ValueError("'by' (a counter:<name> or metric compared at the best points) is required")
    all_cands = [p for p in points if matches(p, cand_m)]
    if not all_cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(cand_m)}")]
    bases = not_skipped([p for p in points if matches(p, base_m) and not matches(p, cand_m)])
    unit = metric_unit(metric, all_cands)

    def text(p: dict) -> str:
        return (f"{axes_text(p)} ({by.split(':', 1)[-1]} {fmt_num(stat(p, by))}, "
                f"{fmt_num(stat(p, metric))} {unit})")

    out = []
    cands = not_skipped(all_cands)
    for key, group in group_by_device(cands).items():
        apps: dict[tuple, list[dict]] = {}
        for p in group:
            apps.setdefault((p.get("app"), dataset_label(p)), []).append(p)
        measured, smaller, invalid, notes = [], [], [], []
        grows = False
        for (app, label), pts in sorted(apps.items(), key=lambda kv: (str(kv[0][0]), kv[0][1])):
            mine = [b for b in bases if device_key(b) == key and b.get("app") == app and dataset_label(b) == label]
            bad = [p for p in pts + mine if is_invalid(p)]
            if bad:
                invalid += [f"{app}: {p.get('key')}: validation {validation_status(p)}" for p in bad]
                continue
            c, b = best_point(pts, metric), best_point(mine, metric)
            if c is None or b is None or stat(c, by) is None or stat(b, by) is None:
                notes.append(f"{app}: no {'baseline' if c is not None else 'candidate'} point with {metric} and {by}")
                continue
            line = f"{app}: best {text(c)} vs baseline's best {text(b)}"
            measured.append(line)
            if stat(c, by) < stat(b, by):
                smaller.append(line)
            grows = grows or stat(c, by) > stat(b, by)
        failing = smaller or ([] if grows or not measured else ["equal everywhere: " + "; ".join(measured)])
        out.append(decide(key, invalid=invalid, measured=measured, failing=failing, notes=notes,
                          not_run=f"no app has both candidate and baseline points with {metric} and {by}",
                          fail_prefix=f"the candidate's best {by} is not above the baseline's: ",
                          fail_shows=failing))
    out += skipped_verdicts([p for p in all_cands if p.get("status") == "skipped"],
                            {(v.backend, v.device_index, v.device) for v in out})
    return out
