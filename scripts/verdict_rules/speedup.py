"""Speedup rules: a candidate against a baseline paired point by point (faster),
and how that speedup behaves along an axis (speedup_grows), on average
(mean_speedup) and across apps (speedup_order, largest_speedups).

faster and mean_speedup judge noise: a speedup counts only when its 95%
bootstrap interval (scripts/noise.py, the same interval `harness compare`
prints) lies beyond the threshold, not only its median. Metrics with
per-repetition samples (total_ms, throughput_gbps through total_ms, a phase,
phases joined by "+") have an interval; rates, fractions and counters have
none, nor does a point with a single repetition: there the median decides
and the verdict says so. speedup_grows, speedup_order and largest_speedups
compare medians."""

from __future__ import annotations

import json
import math
import statistics
from typing import Iterable

from results_doc import (COUNTER_PREFIX, FRACTION_PREFIX, PHASE_SUM, RATE_PREFIX, axes_order, dataset_label,
                         dataset_size, device_key, document_index, fmt_num, group_by_device, higher_is_better,
                         is_valid, line_key, matches, metric_unit, not_skipped, samples, series_name, skip_reason, stat,
                         validation_status, value_text, x_value)

from noise import CONFIDENCE, bootstrap_geomean, bootstrap_ratio_of_medians

from .registry import rule
from .selection import at_largest, at_option, is_invalid, place, same_axes, vary_axes
from .verdict import NOT_RUN, Verdict, decide, skipped_verdicts, verdict_for, verdict_key


def choose_baseline(c: dict, bases: list[dict], metric: str, vary: Iterable[str] = (),
                     skipped: Iterable[dict] = ()) -> dict | None:
    """The baseline point for candidate c: same app and dataset label (and the
    same values of the axes both have, less `vary`, when such a baseline
    exists); prefer the same device, then the same results file (same host),
    then any; within a tier prefer a valid point, then the fastest (the
    conservative choice). None when the only baselines with c's axis values
    are among `skipped` (a sweep's baseline with no solution at that point
    pairs with nothing, not with another point of the sweep), or when the
    baseline was skipped on c's own device and ran only elsewhere."""
    def alike(b: dict) -> bool:
        return b.get("app") == c.get("app") and dataset_label(b) == dataset_label(c)
    same = [b for b in bases if alike(b)]
    exact = [b for b in same if same_axes(b, c, vary)]
    if not exact and any(alike(b) and same_axes(b, c, vary) for b in skipped):
        return None
    # A baseline that declined c's own device (its skip reason says why: the
    # pinned heap where host memory cannot be mapped) is not replaced by the
    # same baseline measured on another device.
    here = device_key(c)
    if not any(device_key(b) == here for b in exact) and any(
            alike(b) and same_axes(b, c, vary) and device_key(b) == here for b in skipped):
        return None
    same = exact or same
    if not same:
        return None
    tiers = [[b for b in same if device_key(b) == device_key(c)],
             [b for b in same if document_index(b) == document_index(c)],
             same]
    higher = higher_is_better(metric)
    for tier in tiers:
        if not tier:
            continue
        valid = [b for b in tier if is_valid(b) and stat(b, metric) is not None]
        if valid:
            return (max if higher else min)(valid, key=lambda b: stat(b, metric))
        return tier[0]
    return None


def time_samples(p: dict, metric: str) -> list[float]:
    """Per-repetition values of a time metric, for the bootstrap: total_ms
    (also for throughput_gbps: the speedup is the same ratio), a phase, or
    phases joined by "+" (their sum per repetition, a missing phase as 0).
    [] for rates, fractions and counters (no per-repetition values)."""
    if metric.startswith((RATE_PREFIX, FRACTION_PREFIX, COUNTER_PREFIX)):
        return []
    if metric == "throughput_gbps":
        return samples(p, "total_ms")
    if PHASE_SUM not in metric:
        return samples(p, metric)
    names = metric.split(PHASE_SUM)
    out = []
    for rep in p.get("repetitions") or []:
        phases = rep.get("phases_ms") if isinstance(rep, dict) and isinstance(rep.get("phases_ms"), dict) else {}
        values = [phases.get(n) for n in names]
        found = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if found:
            out.append(sum(found))
    return out


def confidence_of(spec: dict) -> float | None:
    """The rule's "confidence" (default 0.95); null or 0: judge medians only."""
    c = spec.get("confidence", CONFIDENCE)
    if c in (None, 0, False):
        return None
    c = float(c)
    if not 0.0 < c < 1.0:
        raise ValueError("'confidence' must be in (0, 1), or null for medians only")
    return c


def speedup_interval(c: dict, b: dict, metric: str, confidence: float | None) -> tuple[tuple | None, str]:
    """(low, high) of the candidate's speedup over the baseline (baseline
    median / candidate median of the per-repetition times), or None and why
    the median alone decides."""
    if confidence is None:
        return None, "medians only (the rule sets no confidence)"
    cs, bs = time_samples(c, metric), time_samples(b, metric)
    if not cs or not bs:
        return None, f"median only: no per-repetition {metric}"
    if len(cs) < 2 or len(bs) < 2:
        return None, "median only: 1 repetition, no noise estimate"
    return bootstrap_ratio_of_medians(cs, bs, confidence), ""


def interval_text(iv: tuple, confidence: float) -> str:
    return f"{fmt_num(100 * confidence)}% interval [{fmt_num(iv[0])}, {fmt_num(iv[1])}]"


@rule("faster")
def faster(spec: dict, points: list[dict]) -> list[Verdict]:
    """Candidate faster than baseline, per candidate backend/device.

    spec: {"candidate": matcher, "baseline": matcher, "metric": "total_ms" | phase
    | "throughput_gbps" | "rate:<name>" | "fraction:<name>", "at": "largest" |
    "all", "min_speedup": 1.0, "quorum": q (optional), "vary": [axes]
    (optional)}. Candidate and baseline points pair by (app, dataset.label,
    and the axis values both have when possible, less the `vary` axes);
    speedup = baseline median / candidate median (inverted for
    higher-is-better metrics). A speedup exceeds min_speedup when the low end
    of its 95% bootstrap interval ("confidence": 0.95; the interval of the
    ratio of medians of the two points' repetitions, as `harness compare`
    prints it) is above min_speedup: a median above it within noise does not
    count. Without per-repetition samples (rates, fractions, counters) or
    with one repetition, the median decides, and the detail says so
    ("confidence": null judges medians only). Holds if every speedup at the
    chosen sizes ("largest": the largest dataset per app) exceeds min_speedup
    (with a quorum: more than that fraction of them) and every involved point
    is ok and validated; does not hold if a speedup is too small or an
    involved point failed; not run if no pair has both points run. Skipped
    points are ignored; a candidate whose points were all skipped is not run,
    with their reasons.
    """
    cand_m = spec.get("candidate") or {}
    base_m = spec.get("baseline") or {}
    metric = str(spec.get("metric", "total_ms"))
    at = at_option(spec)
    min_speedup = float(spec.get("min_speedup", 1.0))
    quorum = spec.get("quorum")
    higher = higher_is_better(metric)
    vary = vary_axes(spec)
    confidence = confidence_of(spec)

    all_cands = [p for p in points if matches(p, cand_m)]
    cands = not_skipped(all_cands)
    all_bases = [p for p in points if matches(p, base_m) and not matches(p, cand_m)]
    bases = not_skipped(all_bases)
    skipped_bases = [p for p in all_bases if p.get("status") == "skipped"]
    if not all_cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(cand_m)}")]

    out = []
    for key, group in group_by_device(cands).items():
        pairs = [(c, choose_baseline(c, bases, metric, vary, skipped_bases)) for c in group]
        unpaired = [c for c, b in pairs if b is None]
        pairs = [(c, b) for c, b in pairs if b is not None]
        if not pairs:
            declined = sorted({skip_reason(b) for b in skipped_bases if device_key(b) == key})
            why = (f"the baseline {json.dumps(base_m)} was skipped on this device: {'; '.join(declined)}"
                   if declined else
                   f"no baseline point {json.dumps(base_m)} with the same app and dataset as the candidate")
            out.append(verdict_for(key, NOT_RUN, why))
            continue
        if at == "largest":
            keep = {id(c) for c in at_largest([c for c, _ in pairs])}
            pairs = [(c, b) for c, b in pairs if id(c) in keep]
        pairs.sort(key=lambda cb: (str(cb[0].get("app")), dataset_size(cb[0]), axes_order(cb[0])))

        measured, too_slow, invalid, missing = [], [], [], []
        missing += [f"{place(c)}: no baseline (skipped there)" for c in unpaired]
        for c, b in pairs:
            where = place(c)
            bad = [p for p in (c, b) if is_invalid(p)]
            if bad:
                invalid.append(f"{where}: " + ", ".join(
                    f"{series_name(p)} status {p.get('status')}, validation {validation_status(p)}" for p in bad))
                continue
            errs = [p for p in (c, b) if p.get("status") != "ok"]
            cm, bm = stat(c, metric), stat(b, metric)
            if errs or cm is None or bm is None or cm <= 0 or bm <= 0:
                why = "; ".join(f"{series_name(p)}: {p.get('error') or p.get('status')}" for p in errs) \
                    or f"no {metric} measurement"
                missing.append(f"{where} not run ({why})")
                continue
            speedup = cm / bm if higher else bm / cm
            unit = metric_unit(metric, (c, b)) if higher else ("ms" if metric == "total_ms" else f"ms {metric}")
            iv, why_median = speedup_interval(c, b, metric, confidence)
            noise = (interval_text(iv, confidence) if iv is not None else why_median)
            text = (f"{where}: speedup {fmt_num(speedup)}x, {noise} ({series_name(b)} {fmt_num(bm)} {unit} vs "
                    f"{series_name(c)} {fmt_num(cm)} {unit})")
            if iv is not None and speedup > min_speedup and not iv[0] > min_speedup:
                text += " [within noise]"
            measured.append(text)
            if not (iv[0] if iv is not None else speedup) > min_speedup:
                too_slow.append(text)

        needs = (f"the {fmt_num(100 * confidence)}% interval of the speedup above {fmt_num(min_speedup)}x"
                 if confidence is not None else f"speedup > {fmt_num(min_speedup)}x")
        hold_prefix, fail_prefix = "", f"needs {needs}: "
        if quorum is not None and measured:
            share = (len(measured) - len(too_slow)) / len(measured)
            verdict_text = (f"{len(measured) - len(too_slow)} of {len(measured)} speedups > "
                            f"{fmt_num(min_speedup)}x"
                            + (" beyond noise" if confidence is not None else "")
                            + f" (needs more than {fmt_num(100 * float(quorum))}%): ")
            too_slow = [] if share > float(quorum) else too_slow
            hold_prefix, fail_prefix = verdict_text, verdict_text
        out.append(decide(key, invalid=invalid, measured=measured, failing=too_slow, notes=missing,
                          not_run="no pair with both points run", hold_prefix=hold_prefix,
                          fail_prefix=fail_prefix, fail_shows=measured))
    out += skipped_verdicts(all_cands, {verdict_key(v) for v in out})
    return out


# ----------------------------------------------------------------------------
# Speedup rules (atomics figures): how the speedup behaves along an axis, on
# average, across apps


def _speedup_pairs(spec: dict, points: list[dict]):
    """Per candidate device: [(candidate, baseline, speedup)] for every
    candidate paired with a baseline as in `faster` (same app, dataset and
    axes both have; the fastest valid baseline of a tier, so a baseline matcher
    over several variants means "the best of them"), with the invalid and
    missing pairs listed. Returns (all candidates, {device key: (pairs,
    invalid, missing)})."""
    cand_m = spec.get("candidate") or {}
    base_m = spec.get("baseline") or {}
    if not isinstance(base_m, dict) or not base_m:
        raise ValueError("'baseline' (a matcher) is required")
    metric = str(spec.get("metric", "total_ms"))
    higher = higher_is_better(metric)
    all_cands = [p for p in points if matches(p, cand_m)]
    bases = not_skipped(p for p in points if matches(p, base_m) and not matches(p, cand_m))
    out = {}
    for key, group in group_by_device(not_skipped(all_cands)).items():
        pairs, invalid, missing = [], [], []
        for c in sorted(group, key=lambda q: (str(q.get("app")), dataset_size(q), axes_order(q))):
            b = choose_baseline(c, [q for q in bases if device_key(q) == key] or bases, metric, vary_axes(spec))
            where = f"{series_name(c)} {place(c)}"
            if b is None:
                missing.append(f"{where}: no baseline point")
                continue
            bad = [q for q in (c, b) if is_invalid(q)]
            if bad:
                invalid.append(f"{where}: " + ", ".join(
                    f"{series_name(q)} status {q.get('status')}, validation {validation_status(q)}" for q in bad))
                continue
            cm, bm = (stat(c, metric) if c.get("status") == "ok" else None,
                      stat(b, metric) if b.get("status") == "ok" else None)
            if cm is None or bm is None or cm <= 0 or bm <= 0:
                missing.append(f"{where} not run ({c.get('error') or b.get('error') or 'no ' + metric})")
                continue
            pairs.append((c, b, cm / bm if higher else bm / cm))
        out[key] = (pairs, invalid, missing)
    return all_cands, out


@rule("speedup_grows")
def speedup_grows(spec: dict, points: list[dict]) -> list[Verdict]:
    """The candidate's speedup over the baseline grows along an axis, per
    device and series (the candidate's line along x, as in monotone).

    spec: {"candidate": matcher, "baseline": matcher (several variants: the
    fastest of them at each point), "x": axis, "metric": "total_ms" | phase |
    rate..., "min_growth": 0.0, "min_last": null}. Holds if in every series
    the speedup at the largest x exceeds (1 + min_growth) times the one at the
    smallest and, with min_last, exceeds min_last; does not hold otherwise or
    if a point involved failed validation; not run if no series has two
    paired points."""
    x = spec.get("x")
    if not isinstance(x, str) or not x:
        raise ValueError("'x' (an axis) is required")
    min_growth = float(spec.get("min_growth", 0.0))
    min_last = spec.get("min_last")
    min_last = None if min_last is None else float(min_last)
    all_cands, per_device = _speedup_pairs(spec, points)
    if not all_cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(spec.get('candidate') or {})}")]
    out = []
    for key, (pairs, invalid, missing) in per_device.items():
        series: dict[str, dict[float, list[float]]] = {}
        for c, _b, sp in pairs:
            xv = x_value(c, x)
            if xv is not None:
                series.setdefault(line_key(c, x), {}).setdefault(xv, []).append(sp)
        checked, broken = [], []
        for line, by_x in sorted(series.items()):
            steps = sorted((xv, statistics.median(v)) for xv, v in by_x.items())
            if len(steps) < 2:
                continue
            (x0, s0), (x1, s1) = steps[0], steps[-1]
            text = f"{line}: speedup " + ", ".join(f"{x}={value_text(xv)} {fmt_num(v)}x" for xv, v in steps)
            checked.append(text)
            reasons = []
            if not s1 > (1 + min_growth) * s0:
                reasons.append(f"{fmt_num(s1)}x at {x}={value_text(x1)} is not above {fmt_num((1 + min_growth) * s0)}x")
            if min_last is not None and not s1 > min_last:
                reasons.append(f"{fmt_num(s1)}x at {x}={value_text(x1)} is not above {fmt_num(min_last)}x")
            if reasons:
                broken.append(text + " [" + "; ".join(reasons) + "]")
        what = f"speedup grows along {x}" + (f" and ends above {fmt_num(min_last)}x" if min_last is not None else "")
        out.append(decide(key, invalid=invalid[:5], measured=checked, failing=broken, notes=missing[:5],
                          not_run=f"no series with two paired points along {x}",
                          fail_prefix=f"{what} broken: ", hold_prefix=f"{what}: "))
    out += skipped_verdicts(all_cands, {verdict_key(v) for v in out})
    return out


@rule("mean_speedup")
def mean_speedup(spec: dict, points: list[dict]) -> list[Verdict]:
    """The geometric mean of the candidate's speedups over the baseline (paired
    as in faster, every pair counted), per device, is below max_mean or above
    min_mean (give one).

    spec: {"candidate": matcher, "baseline": matcher, "metric": ..., "max_mean":
    1.0 | "min_mean": 1.0, "confidence": 0.95}. With per-repetition samples
    on every pair, the whole 95% bootstrap interval of the geometric mean
    (every pair's repetitions resampled) must lie on the bound's side; else
    the mean of the medians decides (said in the detail). Does not hold if a
    point involved failed validation; not run without a pair."""
    if ("max_mean" in spec) == ("min_mean" in spec):
        raise ValueError("give exactly one of 'max_mean' and 'min_mean'")
    bound = float(spec.get("max_mean", spec.get("min_mean")))
    below = "max_mean" in spec
    confidence = confidence_of(spec)
    metric = str(spec.get("metric", "total_ms"))
    all_cands, per_device = _speedup_pairs(spec, points)
    if not all_cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(spec.get('candidate') or {})}")]
    out = []
    for key, (pairs, invalid, missing) in per_device.items():
        measured, failing = [], []
        if pairs:
            mean = math.exp(statistics.fmean(math.log(sp) for _c, _b, sp in pairs))
            each = ", ".join(f"{place(c)} {fmt_num(sp)}x" for c, _b, sp in pairs[:12])
            sampled = [(time_samples(c, metric), time_samples(b, metric)) for c, b, _sp in pairs]
            iv = None
            if confidence is not None and all(len(cs) >= 2 and len(bs) >= 2 for cs, bs in sampled):
                iv = bootstrap_geomean(sampled, confidence)
                if any(math.isnan(x) for x in iv):
                    iv = None
            noise = interval_text(iv, confidence) if iv is not None else "median only (no repetition samples)"
            text = f"geometric mean speedup {fmt_num(mean)}x, {noise}, over {len(pairs)} pair(s) ({each})"
            measured.append(text)
            edge = (iv[1] if below else iv[0]) if iv is not None else mean
            if not (edge < bound if below else edge > bound):
                failing.append(text)
        cmp = "<" if below else ">"
        out.append(decide(key, invalid=invalid[:5], measured=measured, failing=failing, notes=missing[:5],
                          not_run="no pair with both points run",
                          fail_prefix=f"needs a mean {cmp} {fmt_num(bound)}x: ",
                          hold_prefix=f"mean {cmp} {fmt_num(bound)}x: "))
    out += skipped_verdicts(all_cands, {verdict_key(v) for v in out})
    return out


@rule("speedup_order")
def speedup_order(spec: dict, points: list[dict]) -> list[Verdict]:
    """Across apps, the candidate's speedup over the baseline rises as a
    property of the baseline's points falls (figure 14: as the ALU:Fetch ratio
    falls, the kernel is more memory-bound and gains more), per device.

    spec: {"candidate": matcher, "baseline": matcher, "metric": ..., "by":
    metric of the baseline points (e.g. "counter:isa_alu_fetch")}. Per app: the
    median speedup over its pairs and the median `by` of its baselines. Holds
    if, ordered by `by` from highest to lowest, the speedups rise strictly;
    does not hold otherwise or if a point involved failed validation; not run
    with fewer than two apps that have `by`."""
    by = spec.get("by")
    if not isinstance(by, str) or not by:
        raise ValueError("'by' (a metric of the baseline points) is required")
    all_cands, per_device = _speedup_pairs(spec, points)
    if not all_cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(spec.get('candidate') or {})}")]
    out = []
    for key, (pairs, invalid, missing) in per_device.items():
        apps: dict[str, tuple[list, list]] = {}
        for c, b, sp in pairs:
            bv = stat(b, by)
            if bv is None:
                missing.append(f"{place(b)}: no {by}")
                continue
            entry = apps.setdefault(str(c.get("app")), ([], []))
            entry[0].append(sp)
            entry[1].append(bv)
        rows = sorted(((statistics.median(bs), statistics.median(sps), app) for app, (sps, bs) in apps.items()),
                      reverse=True)
        measured, failing = [], []
        if len(rows) >= 2:
            text = ", ".join(f"{app}: {by} {fmt_num(bv)} speedup {fmt_num(sp)}x" for bv, sp, app in rows)
            measured.append(text)
            if any(not b[1] > a[1] for a, b in zip(rows, rows[1:])):
                failing.append(text)
        out.append(decide(key, invalid=invalid[:5], measured=measured, failing=failing, notes=missing[:5],
                          not_run=f"fewer than two apps with a speedup and {by}",
                          fail_prefix=f"speedup does not rise as {by} falls: ",
                          hold_prefix=f"speedup rises as {by} falls: "))
    out += skipped_verdicts(all_cands, {verdict_key(v) for v in out})
    return out


@rule("largest_speedups")
def largest_speedups(spec: dict, points: list[dict]) -> list[Verdict]:
    """The named apps gain the most: at each app's largest size, their median
    speedups of the candidate over the baseline (paired as in faster) are the
    highest of all the apps paired, per device (table 4.2: pattern
    recognition's gains largest for WC and MCA).

    spec: {"candidate": matcher, "baseline": matcher, "metric": ..., "vary":
    [...], "apps": [app, ...]}. Holds if every app outside `apps` gains less
    than every app in it; does not hold otherwise or if a point involved
    failed validation; not run when a named app has no pair or no other app
    has one to compare with. Medians decide (no interval across apps)."""
    named = spec.get("apps")
    if not isinstance(named, list) or not named or not all(isinstance(a, str) for a in named):
        raise ValueError("'apps' (the apps that gain the most) must be a non-empty list of app names")
    all_cands, per_device = _speedup_pairs(spec, points)
    if not all_cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(spec.get('candidate') or {})}")]
    out = []
    for key, (pairs, invalid, missing) in per_device.items():
        largest: dict[str, float] = {}
        for c, _b, _sp in pairs:
            app = str(c.get("app"))
            largest[app] = max(largest.get(app, 0.0), dataset_size(c))
        gains: dict[str, list[float]] = {}
        for c, _b, sp in pairs:
            if dataset_size(c) == largest[str(c.get("app"))]:
                gains.setdefault(str(c.get("app")), []).append(sp)
        median = {app: statistics.median(v) for app, v in gains.items()}
        measured, failing = [], []
        absent = [a for a in named if a not in median]
        others = {a: v for a, v in median.items() if a not in named}
        if absent:
            missing.append("no pair for " + ", ".join(absent))
        elif others:
            text = ", ".join(f"{app} {fmt_num(v)}x" for app, v in sorted(median.items(), key=lambda kv: -kv[1]))
            measured.append(text)
            if min(median[a] for a in named) <= max(others.values()):
                failing.append(text)
        out.append(decide(key, invalid=invalid[:5], measured=measured, failing=failing, notes=missing[:5],
                          not_run=f"no speedup of {', '.join(named)} to compare with other apps'",
                          fail_prefix=f"{', '.join(named)} do not gain the most: ",
                          hold_prefix=f"{', '.join(named)} gain the most: "))
    out += skipped_verdicts(all_cands, {verdict_key(v) for v in out})
    return out
