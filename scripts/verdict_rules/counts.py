"""Count rules: a counter of each point against another counter of the same
point (within_factor), e.g. our lines of user code beside a paper's count;
a counter of each point against a metric of its paired baseline point
(counter_exceeds), e.g. a modelled transfer time beside a measured run."""

from __future__ import annotations

import json

from results_doc import fmt_num, group_by_device, matches, not_skipped, series_name, stat

from .registry import rule
from .selection import at_largest, at_option, file_unusable, invalid_text, is_invalid, place
from .speedup import choose_baseline
from .verdict import decide, skipped_verdicts, verdict_for, verdict_key, NOT_RUN, Verdict


def _counter(name) -> str:
    if not isinstance(name, str) or not name.startswith("counter:") or name == "counter:":
        raise ValueError(f"expected a counter metric 'counter:<name>', not {name!r}")
    return name


@rule("within_factor")
def within_factor(spec: dict, points: list[dict]) -> list[Verdict]:
    """A counter of every candidate point lies within factors of another
    counter of the same point, per candidate device.

    spec: {"candidate": matcher, "metric": "counter:<name>", "of": "counter:<name>",
    "max_ratio": 1.5, "min_ratio": 0 (default 1 / max_ratio)}. Holds if every
    validated candidate point has both counters, the reference positive, and
    min_ratio <= metric / of <= max_ratio; does not hold if a ratio is outside
    or a candidate point failed validation; not run if no validated point has
    both counters. Points that did not run or lack a counter are listed."""
    cand_m = spec.get("candidate") or {}
    metric, of = _counter(spec.get("metric")), _counter(spec.get("of"))
    max_ratio = float(spec.get("max_ratio", 2.0))
    if max_ratio <= 0:
        raise ValueError("'max_ratio' must be positive")
    min_ratio = float(spec.get("min_ratio", 1.0 / max_ratio))
    if min_ratio < 0 or min_ratio > max_ratio:
        raise ValueError("'min_ratio' must lie in [0, max_ratio]")
    all_cands = [p for p in points if matches(p, cand_m)]
    if not all_cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(cand_m)}")]
    a, b = metric[len("counter:"):], of[len("counter:"):]
    out = []
    for key, group in group_by_device(not_skipped(all_cands)).items():
        group.sort(key=lambda p: (series_name(p), str(p.get("app"))))
        invalid, measured, outside, missing = [], [], [], []
        for p in group:
            where = f"{series_name(p)} {place(p)}"
            if file_unusable(p, where, invalid, missing):
                continue
            x, ref = stat(p, metric), stat(p, of)
            if x is None or ref is None or ref <= 0:
                missing.append(f"{where}: " + (f"no counter {a!r}" if x is None else
                                               f"no counter {b!r}" if ref is None else f"{b} is {fmt_num(ref)}"))
                continue
            text = f"{p.get('app')}: {a} {x:g} = {x / ref:.2f} x {b} {ref:g}"
            measured.append(text)
            if not min_ratio <= x / ref <= max_ratio:
                outside.append(text)
        bounds = f"{min_ratio:g} <= {a} / {b} <= {max_ratio:g}"
        out.append(decide(key, invalid=invalid, measured=measured, failing=outside, notes=missing,
                          not_run=f"no validated point with counters {a!r} and {b!r}",
                          fail_prefix=f"needs {bounds}: ", hold_prefix=f"every {bounds}: "))
    out += skipped_verdicts(all_cands, {verdict_key(v) for v in out})
    return out


@rule("counter_exceeds")
def counter_exceeds(spec: dict, points: list[dict]) -> list[Verdict]:
    """A counter of every candidate point exceeds a metric of its baseline
    point, per candidate device (e.g. a lower bound on the transfer time of
    demand paging, a counter of one variant, against the total time of
    another).

    spec: {"candidate": matcher, "metrics": ["counter:<name>", ...] (the
    largest of them counts: "for some ..."; or "metric": one), "baseline":
    matcher, "of": "total_ms" | a phase | "counter:<name>" (the baseline's
    median), "min_ratio": 1.0, "at": "largest" | "all"}. Candidate and baseline
    pair as in `faster` (app, dataset label, the axes both have). Holds if
    every validated candidate point at the chosen sizes has a counter and a
    valid baseline with largest counter / baseline metric > min_ratio; does
    not hold if one is not above, or a candidate or its baseline failed
    validation; not run if no candidate point pairs. Candidate points without
    the counters or a baseline are listed."""
    cand_m, base_m = spec.get("candidate") or {}, spec.get("baseline")
    if not isinstance(base_m, dict):
        raise ValueError("'baseline' (a point matcher) is required")
    names = spec.get("metrics", [spec.get("metric")] if "metric" in spec else None)
    if not isinstance(names, list) or not names:
        raise ValueError("'metrics' (a list of counters) or 'metric' is required")
    names = [_counter(n) for n in names]
    of = spec.get("of", "total_ms")
    if not isinstance(of, str) or not of:
        raise ValueError("'of' (the baseline's metric) must be a metric name")
    min_ratio = float(spec.get("min_ratio", 1.0))
    at = at_option(spec)
    all_cands = [p for p in points if matches(p, cand_m)]
    if not all_cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(cand_m)}")]
    all_bases = [p for p in points if matches(p, base_m)]
    bases = not_skipped(all_bases)
    skipped = [p for p in all_bases if p not in bases]
    out = []
    for key, group in group_by_device(not_skipped(all_cands)).items():
        chosen = at_largest(group) if at == "largest" else group
        chosen.sort(key=lambda p: (series_name(p), str(p.get("app"))))
        invalid, measured, below, missing = [], [], [], []
        for p in chosen:
            where = f"{series_name(p)} {place(p)}"
            if file_unusable(p, where, invalid, missing):
                continue
            values = [(stat(p, n), n[len("counter:"):]) for n in names]
            values = [(v, n) for v, n in values if v is not None]
            if not values:
                missing.append(f"{where}: none of the counters {', '.join(n[len('counter:'):] for n in names)}")
                continue
            b = choose_baseline(p, bases, of, skipped=skipped)
            if b is None:
                missing.append(f"{where}: no baseline point")
                continue
            bwhere = f"{series_name(b)} {place(b)}"
            if is_invalid(b):
                invalid.append(f"baseline {bwhere}: {invalid_text(b)}")
                continue
            ref = stat(b, of)
            if ref is None or ref <= 0:
                missing.append(f"{where}: baseline {bwhere} has no {of}")
                continue
            x, name = max(values)
            text = (f"{p.get('app')}: {name} {fmt_num(x)} = {x / ref:.2f} x {b.get('variant')} {of} "
                    f"{fmt_num(ref)}")
            measured.append(text)
            if not x / ref > min_ratio:
                below.append(text)
        what = "the largest of " + ", ".join(n[len("counter:"):] for n in names) if len(names) > 1 else names[0]
        out.append(decide(key, invalid=invalid, measured=measured, failing=below, notes=missing,
                          not_run="no validated candidate point with the counters and a baseline",
                          fail_prefix=f"needs {what} > {min_ratio:g} x the baseline's {of}: ",
                          hold_prefix=f"{what} > {min_ratio:g} x the baseline's {of}: "))
    out += skipped_verdicts(all_cands, {verdict_key(v) for v in out})
    return out
