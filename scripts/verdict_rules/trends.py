"""Trend rules: how a metric moves along a swept axis (monotone) and the shape
of that sweep (saturates, keeps_rising, scales, drops)."""

from __future__ import annotations

import json
import statistics

from results_doc import (dataset_label, device_key, fmt_num, group_by_device, line_key, matches, not_skipped, stat,
                         validation_status, value_text, x_value)

from .registry import rule
from .selection import is_invalid, same_axes
from .verdict import NOT_RUN, Verdict, decide, skipped_verdicts, verdict_for, verdict_key


@rule("monotone")
def monotone(spec: dict, points: list[dict]) -> list[Verdict]:
    """A metric moves one way along a swept axis, per device and per series.

    spec: {"candidate": matcher, "x": "<axis | param | size_bytes>", "metric":
    "total_ms" | phase | "throughput_gbps" | "rate:<name>" | "fraction:<name>",
    "direction": "increasing" | "decreasing", "tolerance": 0.05}. A series is
    one line of the sweep: framework/variant @ device, app, dataset (unless x
    is size_bytes) and the values of the other axes. Within a series the
    medians ordered by x are compared step by step: a step against the
    direction by more than tolerance x the earlier median breaks it. Holds if
    no step does; does not hold if one does or a candidate point failed
    validation; not run if no series has two validated points.
    """
    cand_m = spec.get("candidate") or {}
    x = spec.get("x")
    if not isinstance(x, str) or not x:
        raise ValueError("'x' (an axis, param or size_bytes) is required")
    metric = str(spec.get("metric", "total_ms"))
    direction = str(spec.get("direction", "increasing"))
    if direction not in ("increasing", "decreasing"):
        raise ValueError(f"'direction' must be 'increasing' or 'decreasing', not {direction!r}")
    tolerance = float(spec.get("tolerance", 0.05))
    sign = 1.0 if direction == "increasing" else -1.0

    all_cands = [p for p in points if matches(p, cand_m)]
    if not all_cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(cand_m)}")]
    out = []
    for key, group in group_by_device(not_skipped(all_cands)).items():
        multi_app = len({p.get("app") for p in group}) > 1
        multi_ds = len({dataset_label(p) for p in group}) > 1
        series: dict[str, list[dict]] = {}
        for p in group:
            series.setdefault(line_key(p, x, multi_app, multi_ds), []).append(p)
        checked, broken, invalid, missing = [], [], [], []
        for line, pts in sorted(series.items()):
            by_x: dict[float, list[float]] = {}
            for p in pts:
                xv = x_value(p, x)
                if is_invalid(p):
                    invalid.append(f"{line} {x}={value_text(xv)}: status {p.get('status')}, "
                                   f"validation {validation_status(p)}")
                    continue
                y = stat(p, metric) if p.get("status") == "ok" else None
                if xv is None or y is None:
                    missing.append(f"{line}: {p.get('key')} " + (f"has no numeric {x}" if xv is None else
                                   f"not run ({p.get('error') or p.get('status')})" if p.get("status") != "ok"
                                   else f"has no {metric}"))
                    continue
                by_x.setdefault(xv, []).append(y)
            steps = sorted((xv, statistics.median(ys)) for xv, ys in by_x.items())
            if len(steps) < 2:
                continue
            text = f"{line}: " + ", ".join(f"{x}={value_text(xv)} {fmt_num(y)}" for xv, y in steps)
            checked.append(text)
            against = []
            for (x0, y0), (x1, y1) in zip(steps, steps[1:]):
                move = sign * (y1 - y0)  # negative: against the direction
                if move < 0 and -move > tolerance * abs(y0):
                    against.append(f"{x}={value_text(x0)} -> {value_text(x1)}: {fmt_num(y0)} -> {fmt_num(y1)} "
                                   f"({100 * (y1 - y0) / y0 if y0 else float('inf'):+.1f}%)")
            if against:
                broken.append(text + " [against the direction: " + "; ".join(against) + "]")
        what = f"{metric} {direction} in {x} (tolerance {100 * tolerance:.1f}%)"
        out.append(decide(key, invalid=invalid, measured=checked, failing=broken, notes=missing,
                          not_run=f"no series with two validated points along {x}",
                          fail_prefix=f"{what} broken: ", hold_prefix=f"{what}: "))
    out += skipped_verdicts(all_cands, {verdict_key(v) for v in out})
    return out


# ----------------------------------------------------------------------------
# Sweep-shape rules (memory-hierarchy figures): how a metric grows along an axis


def _pair_value(c: dict, bases: list[dict], metric: str) -> float | None:
    """The candidate's metric over its baseline's: the baseline point on the
    same device with the same app, dataset and values of every axis both have."""
    for b in bases:
        if (device_key(b) == device_key(c) and b.get("app") == c.get("app")
                and dataset_label(b) == dataset_label(c) and same_axes(b, c)):
            cm, bm = stat(c, metric), stat(b, metric)
            if cm is None or bm is None or bm == 0:
                return None
            return cm / bm
    return None


def _sweeps(spec: dict, points: list[dict]):
    """Per candidate device: the series along spec["x"] of spec["metric"] (or,
    with spec["baseline"], of the candidate's metric over the paired baseline
    point's), as (device key, {line: [(x, median)]}, invalid, missing, all
    candidates). Lines are series_name + app/dataset + the other axes' values,
    as in monotone; several points at one x count with their median."""
    cand_m = spec.get("candidate") or {}
    x = spec.get("x")
    if not isinstance(x, str) or not x:
        raise ValueError("'x' (an axis, param or size_bytes) is required")
    metric = str(spec.get("metric", "total_ms"))
    base_m = spec.get("baseline")
    if base_m is not None and not isinstance(base_m, dict):
        raise ValueError("'baseline' must be a matcher object")
    all_cands = [p for p in points if matches(p, cand_m)]
    bases = [] if base_m is None else not_skipped(
        p for p in points if matches(p, base_m) and not matches(p, cand_m))
    out = []
    for key, group in group_by_device(not_skipped(all_cands)).items():
        multi_app = len({p.get("app") for p in group}) > 1
        multi_ds = len({dataset_label(p) for p in group}) > 1
        series: dict[str, dict[float, list[float]]] = {}
        invalid, missing = [], []
        for p in group:
            line = line_key(p, x, multi_app, multi_ds)
            xv = x_value(p, x)
            if is_invalid(p) or (base_m is not None and any(
                    is_invalid(b) for b in bases if device_key(b) == key and same_axes(b, p))):
                invalid.append(f"{line} {x}={value_text(xv)}: status {p.get('status')}, "
                               f"validation {validation_status(p)}")
                continue
            if p.get("status") != "ok":
                missing.append(f"{p.get('key')} not run ({p.get('error') or p.get('status')})")
                continue
            y = stat(p, metric) if base_m is None else _pair_value(p, bases, metric)
            if xv is None or y is None:
                missing.append(f"{p.get('key')}: " + (f"has no numeric {x}" if xv is None else
                               f"no {metric}" + (" or no baseline point" if base_m is not None else "")))
                continue
            series.setdefault(line, {}).setdefault(xv, []).append(y)
        lines = {line: sorted((xv, statistics.median(ys)) for xv, ys in by_x.items())
                 for line, by_x in sorted(series.items())}
        out.append((key, {k: v for k, v in lines.items() if len(v) >= 2}, invalid, missing))
    return out, all_cands


def _sweep_rule(spec: dict, points: list[dict], judge, what: str) -> list[Verdict]:
    """Shared frame of the sweep-shape rules: `judge(steps)` returns (ok, text)
    for one line's [(x, y)] (at least two points). Holds if every line is ok;
    does not hold if one is not or a candidate point failed validation; not run
    if no line has two validated points."""
    x = spec.get("x")
    sweeps, all_cands = _sweeps(spec, points)
    if not all_cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(spec.get('candidate') or {})}")]
    out = []
    for key, lines, invalid, missing in sweeps:
        checked, broken = [], []
        for line, steps in lines.items():
            ok, text = judge(steps)
            entry = f"{line}: {text}"
            checked.append(entry)
            if not ok:
                broken.append(entry)
        notes = missing[:5] + ([f"and {len(missing) - 5} more"] if len(missing) > 5 else [])
        out.append(decide(key, invalid=invalid[:5], measured=checked, failing=broken, notes=notes,
                          not_run=f"no series with two validated points along {x}",
                          fail_prefix=f"{what} broken: ", hold_prefix=f"{what}: "))
    out += skipped_verdicts(all_cands, {verdict_key(v) for v in out})
    return out


def _steps_text(x: str, steps: list) -> str:
    return ", ".join(f"{x}={value_text(xv)} {fmt_num(y)}" for xv, y in steps)


def _gain(y0: float, y1: float) -> float:
    return (y1 - y0) / abs(y0) if y0 else float("inf")


def _last_step_rule(spec: dict, points: list[dict], bound: float, at_most: bool) -> list[Verdict]:
    """saturates (at_most) and keeps_rising: every series' last step along x
    (the largest x over the one before it) gains at most / at least `bound`."""
    x, metric = str(spec.get("x")), str(spec.get("metric", "total_ms"))

    def judge(steps):
        (x0, y0), (x1, y1) = steps[-2], steps[-1]
        g = _gain(y0, y1)
        return (g <= bound if at_most else g >= bound), (
            f"{_steps_text(x, steps)}; last step {x}={value_text(x0)} -> {value_text(x1)} {100 * g:+.1f}%")
    what = f"{metric} gains {'<=' if at_most else '>='} {100 * bound:.1f}% over the last step in {x}"
    return _sweep_rule(spec, points, judge, what)


@rule("saturates")
def saturates(spec: dict, points: list[dict]) -> list[Verdict]:
    """A metric flattens along an axis: per device and series (as in monotone),
    the last step (the largest x over the one before it, e.g. 512 -> 1024
    threads) gains at most max_gain (default 0.1 = 10%).

    spec: {"candidate": matcher, "x": axis, "metric": metric, "max_gain": 0.1,
    "baseline": matcher (optional: the metric is the candidate's over the
    paired baseline point's)}. Holds if every series' last step gains at most
    max_gain; does not hold if one gains more or a candidate point failed
    validation; not run if no series has two validated points."""
    return _last_step_rule(spec, points, float(spec.get("max_gain", 0.1)), at_most=True)


@rule("keeps_rising")
def keeps_rising(spec: dict, points: list[dict]) -> list[Verdict]:
    """A metric does not flatten along an axis: per device and series, the
    last step (the largest x over the one before it) gains at least min_gain
    (default 0.1 = 10%).

    spec: {"candidate": matcher, "x": axis, "metric": metric, "min_gain": 0.1,
    "baseline": matcher (optional)}. Holds if every series' last step gains at
    least min_gain; does not hold if one gains less or a candidate point failed
    validation; not run if no series has two validated points."""
    return _last_step_rule(spec, points, float(spec.get("min_gain", 0.1)), at_most=False)


@rule("scales")
def scales(spec: dict, points: list[dict]) -> list[Verdict]:
    """A metric grows near-linearly along an axis: per device and series, the
    metric at the largest x over the one at the smallest is at least
    min_efficiency (default 0.7) times the ratio of the x values (e.g. 132
    blocks give at least 0.7 x 132 times the rate of one).

    spec: {"candidate": matcher, "x": axis, "metric": metric, "min_efficiency":
    0.7, "baseline": matcher (optional)}. Holds if every series scales that
    well; does not hold if one does not or a candidate point failed
    validation; not run if no series has two validated points (x values must
    be positive)."""
    x, metric = str(spec.get("x")), str(spec.get("metric", "total_ms"))
    min_eff = float(spec.get("min_efficiency", 0.7))

    def judge(steps):
        (x0, y0), (x1, y1) = steps[0], steps[-1]
        if x0 <= 0 or y0 <= 0:
            return False, f"{_steps_text(x, steps)}; the smallest {x} or its value is not positive"
        eff = (y1 / y0) / (x1 / x0)
        return eff >= min_eff, (f"{_steps_text(x, steps)}; {fmt_num(y1 / y0)}x over {fmt_num(x1 / x0)}x "
                                f"{x} = efficiency {fmt_num(eff)}")
    return _sweep_rule(spec, points, judge, f"{metric} scales with {x} at efficiency >= {fmt_num(min_eff)}")


@rule("drops")
def drops(spec: dict, points: list[dict]) -> list[Verdict]:
    """A metric falls along an axis: per device and series, the metric at the
    largest x is at most (1 - min_drop) times the one at the smallest
    (min_drop default 0.2 = a 20% drop).

    spec: {"candidate": matcher, "x": axis, "metric": metric, "min_drop": 0.2,
    "baseline": matcher (optional: the metric is the candidate's over the
    paired baseline point's, e.g. the speedup of L1-caching loads over
    L1-bypassing ones)}. Holds if every series drops that much; does not hold
    if one does not or a candidate point failed validation; not run if no
    series has two validated points."""
    x, metric = str(spec.get("x")), str(spec.get("metric", "total_ms"))
    min_drop = float(spec.get("min_drop", 0.2))
    what = metric + (" over the baseline's" if spec.get("baseline") is not None else "")

    def judge(steps):
        (x0, y0), (x1, y1) = steps[0], steps[-1]
        change = _gain(y0, y1)
        return y1 <= (1 - min_drop) * y0, (f"{_steps_text(x, steps)}; {x}={value_text(x0)} -> {value_text(x1)} "
                                           f"{100 * change:+.1f}%")
    return _sweep_rule(spec, points, judge,
                       f"{what} drops by >= {100 * min_drop:.1f}% from the smallest to the largest {x}")
