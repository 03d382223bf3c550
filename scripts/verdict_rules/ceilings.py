"""Rate rules: a rate's fraction of its measured ceiling
(fraction_of_ceiling), a rate's absolute value (rate_at_least), and one
ceiling against another (ceiling_ratio)."""

from __future__ import annotations

import json

from results_doc import (as_number, axes_order, dataset_size, document_index, find_rate, fmt_num, group_by_device,
                         line_key, matches, not_skipped, point_ceilings, rate_fraction, series_name)

from .registry import rule
from .selection import at_largest, at_option, file_unusable, place
from .verdict import DOES_NOT_HOLD, HOLDS, NOT_RUN, Verdict, decide, skipped_verdicts, verdict_for, verdict_key


def _rate_rule(spec: dict, points: list[dict], value_of, describe, threshold: float, fail_prefix: str,
               hold_prefix: str, no_value: str) -> list[Verdict]:
    """What fraction_of_ceiling and rate_at_least share: the candidate points
    at the chosen sizes (best over an axis when asked), each measured by
    value_of(rate) (None: the point is listed as missing `no_value`), judged
    against `threshold`."""
    cand_m = spec.get("candidate") or {}
    name = spec.get("rate")
    if not isinstance(name, str) or not name:
        raise ValueError("'rate' (the name of a rate) is required")
    at = at_option(spec)
    best_of = spec.get("best_of")
    if best_of is not None and (not isinstance(best_of, str) or not best_of):
        raise ValueError("'best_of' must be an axis name")

    all_cands = [p for p in points if matches(p, cand_m)]
    if not all_cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(cand_m)}")]
    out = []
    for key, group in group_by_device(not_skipped(all_cands)).items():
        chosen = at_largest(group) if at == "largest" else group
        chosen.sort(key=lambda p: (series_name(p), str(p.get("app")), dataset_size(p), axes_order(p)))
        found, invalid, missing = [], [], []  # found: (point, rate, value)
        for p in chosen:
            where = f"{series_name(p)} {place(p)}"
            if file_unusable(p, where, invalid, missing):
                continue
            r = find_rate(p, name)
            value = value_of(r) if r else None
            if value is None:
                missing.append(f"{where}: " + (f"no rate {name!r}" if r is None else f"rate {name!r} {no_value}"))
                continue
            found.append((p, r, value))
        if best_of:
            best: dict[str, tuple] = {}
            for item in found:
                line = line_key(item[0], best_of)
                if line not in best or item[2] > best[line][2]:
                    best[line] = item
            found = [item for item in found if best[line_key(item[0], best_of)] is item]
        measured, low = [], []
        for p, r, value in found:
            text = f"{series_name(p)} {place(p)}: {describe(name, r, value)}"
            measured.append(text)
            if value < threshold:
                low.append(text)
        best_note = f" (best over {best_of})" if best_of else ""
        out.append(decide(key, invalid=invalid, measured=measured, failing=low, notes=missing,
                          not_run=f"no validated point with rate {name!r}" + (
                              " and a ceiling" if no_value == "has no measured ceiling" else ""),
                          fail_prefix=f"{fail_prefix}{best_note}: ", hold_prefix=f"{hold_prefix}{best_note}: "))
    out += skipped_verdicts(all_cands, {verdict_key(v) for v in out})
    return out


@rule("fraction_of_ceiling")
def fraction_of_ceiling(spec: dict, points: list[dict]) -> list[Verdict]:
    """A rate reaches a fraction of its measured ceiling, per candidate device.

    spec: {"candidate": matcher, "rate": "<rate name>", "at": "largest" | "all",
    "min_fraction": 0.8, "best_of": "<axis>" (optional)}. Looks at the
    candidate points ("largest": those at the largest dataset of their app,
    every axis value included). With best_of, only the best fraction over that
    axis counts, per series and values of the other axes. Holds if every
    validated point counted has the rate with a ceiling and fraction >=
    min_fraction; does not hold if a fraction is lower or a candidate point
    there failed validation; not run if no validated point has the rate with a
    ceiling. Points that could not run, or lack the rate or its ceiling, are
    listed.
    """
    min_fraction = float(spec.get("min_fraction", 0.8))

    def describe(name: str, r: dict, frac: float) -> str:
        unit = r.get("unit", "")
        cv = as_number(r.get("ceiling_value"))
        return (f"{name} {fmt_num(as_number(r.get('value')))} {unit} = {100 * frac:.1f}% of "
                f"{r.get('ceiling') or 'its ceiling'}" + (f" ({fmt_num(cv)} {unit})" if cv is not None else ""))

    return _rate_rule(spec, points, rate_fraction, describe, min_fraction,
                      f"needs >= {100 * min_fraction:.1f}% of the ceiling",
                      f"every fraction >= {100 * min_fraction:.1f}%", "has no measured ceiling")


@rule("rate_at_least")
def rate_at_least(spec: dict, points: list[dict]) -> list[Verdict]:
    """A rate reaches an absolute value in its own unit (G/s, GB/s), per
    candidate device: a goal stated as a number rather than a share of a
    ceiling (e.g. keys inserted per second end to end).

    spec: {"candidate": matcher, "rate": "<rate name>", "min_value": 1.0,
    "at": "largest" | "all", "best_of": "<axis>" (optional)}, points chosen as
    in fraction_of_ceiling. Holds if every validated point counted has the
    rate and its value >= min_value; does not hold if one is lower or a
    candidate point failed validation; not run if no validated point has the
    rate."""
    if "min_value" not in spec:
        raise ValueError("'min_value' (the rate's least value, in its unit) is required")
    min_value = float(spec["min_value"])

    def describe(name: str, r: dict, value: float) -> str:
        return f"{name} {fmt_num(value)} {r.get('unit', '')}"

    return _rate_rule(spec, points, lambda r: as_number(r.get("value")), describe, min_value,
                      f"needs >= {fmt_num(min_value)}", f"every value >= {fmt_num(min_value)}",
                      "has no value")


@rule("ceiling_ratio")
def ceiling_ratio(spec: dict, points: list[dict]) -> list[Verdict]:
    """One measured ceiling is at least a fraction of another on the same
    device, in the same run (e.g. the DRAM read kernel reaches 93% of the
    device-to-device copy).

    spec: {"ceiling": "dram_read", "of": "d2d_copy", "min_ratio": 0.93,
    "candidate": matcher (optional: the devices of these points)}. Per device
    of the candidate points and per results document: holds if every document
    that measured both has ratio >= min_ratio; does not hold if one is lower;
    not run if no document measured both on that device."""
    name, of = spec.get("ceiling"), spec.get("of")
    if not isinstance(name, str) or not isinstance(of, str) or not name or not of:
        raise ValueError("'ceiling' and 'of' (ceiling names) are required")
    min_ratio = float(spec.get("min_ratio", 0.9))
    cands = [p for p in points if matches(p, spec.get("candidate") or {})]
    if not cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(spec.get('candidate') or {})}")]
    out = []
    for key, group in group_by_device(cands).items():
        seen: dict = {}
        for p in group:
            seen.setdefault(document_index(p), point_ceilings(p))
        found, low = [], []
        for doc, ceilings in sorted(seen.items(), key=lambda kv: str(kv[0])):
            a, b = ceilings.get(name), ceilings.get(of)
            if a is None or not b:
                continue
            text = f"{name} {fmt_num(a)} / {of} {fmt_num(b)} = {100 * a / b:.1f}%"
            found.append(text)
            if a / b < min_ratio:
                low.append(text)
        if not found:
            out.append(verdict_for(key, NOT_RUN, f"{name} and {of} were not both measured on this device"))
        elif low:
            out.append(verdict_for(key, DOES_NOT_HOLD, f"needs >= {100 * min_ratio:.1f}%: " + "; ".join(low)))
        else:
            out.append(verdict_for(key, HOLDS, f">= {100 * min_ratio:.1f}%: " + "; ".join(found)))
    return out
