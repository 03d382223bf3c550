"""The all_valid rule: every point ran and passed validation."""

from __future__ import annotations

import json

from results_doc import group_by_device, is_skipped, is_valid, matches, not_skipped, validation_status

from .registry import rule
from .verdict import DOES_NOT_HOLD, HOLDS, NOT_RUN, Verdict, skipped_verdicts, verdict_for


def _skipped_note(pts: list[dict]) -> str:
    n = sum(1 for p in pts if is_skipped(p))
    return f" ({n} skipped point(s) ignored)" if n else ""


@rule("all_valid")
def all_valid(spec: dict, points: list[dict]) -> list[Verdict]:
    """Holds for a backend/device if every point ran (status ok) and passed
    validation; not run if every point there is an error, or if no point
    matches. spec: {"candidate": matcher (optional: every point)}. Skipped
    points are ignored; a device where every point was skipped is not run."""
    cand_m = spec.get("candidate") or {}
    points = [p for p in points if matches(p, cand_m)]
    if not points:
        return [verdict_for(None, NOT_RUN, f"no point matches {json.dumps(cand_m)}")]
    out = []
    for key, all_pts in group_by_device(points).items():
        pts = not_skipped(all_pts)
        note = _skipped_note(all_pts)
        if not pts:
            out += skipped_verdicts(all_pts, set())
            continue
        errors = [p for p in pts if p.get("status") == "error"]
        bad = [p for p in pts if not is_valid(p)]
        if len(errors) == len(pts):
            out.append(verdict_for(key, NOT_RUN, f"all {len(pts)} point(s) could not run: "
                                   + "; ".join(f"{p.get('key')}: {p.get('error')}" for p in errors[:3]) + note))
        elif bad:
            listed = "; ".join(f"{p.get('key')} (status {p.get('status')}, validation {validation_status(p)})"
                               for p in bad[:5])
            more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
            out.append(verdict_for(key, DOES_NOT_HOLD,
                                   f"{len(bad)} of {len(pts)} point(s) not valid: {listed}{more}{note}"))
        else:
            out.append(verdict_for(key, HOLDS, f"all {len(pts)} point(s) ran and passed validation{note}"))
    return out
