"""The largest_phase and smallest_phase rules: which phase takes the longest
(or the shortest)."""

from __future__ import annotations

import json

from results_doc import (axes_order, dataset_size, fmt_num, group_by_device, matches, merge_phase_orders,
                         not_skipped, stat)

from .registry import rule
from .selection import at_largest, at_option, invalid_text, is_invalid, place
from .verdict import NOT_RUN, Verdict, decide, skipped_verdicts, verdict_for, verdict_key


@rule("largest_phase")
def largest_phase(spec: dict, points: list[dict]) -> list[Verdict]:
    """A phase is the longest of a point's phases, per candidate backend/device.

    spec: {"candidate": matcher, "phase": name, "exclude": [phases not
    compared], "at": "largest" | "all", "need": "any" | "all"}. For each
    candidate point at the chosen sizes, the phase with the largest median
    among the point's phases (less `exclude`). Holds if it is `phase` for at
    least one point ("any") or for every point ("all"), every point valid.
    """
    return _extreme_phase(spec, points, smallest=False)


@rule("smallest_phase")
def smallest_phase(spec: dict, points: list[dict]) -> list[Verdict]:
    """A phase is the shortest of a point's phases (BigKernel's address
    generation, figure 4.13): as largest_phase, with the smallest median."""
    return _extreme_phase(spec, points, smallest=True)


def _extreme_phase(spec: dict, points: list[dict], smallest: bool) -> list[Verdict]:
    which = "smallest" if smallest else "largest"
    cand_m = spec.get("candidate") or {}
    phase = str(spec["phase"])
    exclude = set(spec.get("exclude") or [])
    need = str(spec.get("need", "any"))
    if need not in ("any", "all"):
        raise ValueError(f"'need' must be 'any' or 'all', not {need!r}")
    at = at_option(spec)
    all_cands = [p for p in points if matches(p, cand_m)]
    if not all_cands:
        return [verdict_for(None, NOT_RUN, f"no point matches the candidate {json.dumps(cand_m)}")]
    out = []
    for key, group in group_by_device(not_skipped(all_cands)).items():
        chosen = at_largest(group) if at == "largest" else list(group)
        chosen.sort(key=lambda p: (str(p.get("app")), dataset_size(p), axes_order(p)))
        measured, other, invalid, missing = [], [], [], []
        for p in chosen:
            if is_invalid(p):
                invalid.append(f"{place(p)}: {invalid_text(p)}")
                continue
            times = {ph: stat(p, ph) for ph in merge_phase_orders([p]) if ph not in exclude}
            times = {ph: t for ph, t in times.items() if t is not None}
            if p.get("status") != "ok" or not times:
                missing.append(f"{place(p)} not run ({p.get('error') or 'no phases'})")
                continue
            top = (min if smallest else max)(times, key=times.get)
            total = sum(times.values())
            text = (f"{place(p)}: {which} {top} {fmt_num(times[top])} ms "
                    f"({fmt_num(100 * times[top] / total)}% of the compared phases)"
                    + ("" if top == phase else f", {phase} {fmt_num(times.get(phase, 0.0))} ms"))
            measured.append(text)
            if top != phase:
                other.append(text)
        failing = other if need == "all" else (other if len(other) == len(measured) else [])
        out.append(decide(key, invalid=invalid, measured=measured, failing=failing, notes=missing,
                          not_run="no candidate point ran",
                          fail_prefix=f"{phase} is not the {which} phase ({need}): ", fail_shows=measured))
    out += skipped_verdicts(all_cands, {verdict_key(v) for v in out})
    return out
