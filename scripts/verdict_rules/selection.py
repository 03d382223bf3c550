"""How rules pick, pair and name points: the options "at" and "vary", axis
agreement, points that ran but are not validated results, and the text that
names a point in a verdict's detail."""

from __future__ import annotations

from typing import Iterable

from results_doc import axes_text, dataset_label, dataset_size, point_axes, validation_status, value_text


def same_axes(a: dict, b: dict, vary: Iterable[str] = ()) -> bool:
    """Points agree on every axis both of them have (less the `vary` axes)."""
    ax, bx = point_axes(a), point_axes(b)
    return all(value_text(ax[k]) == value_text(bx[k]) for k in (set(ax) & set(bx)) - set(vary))


def vary_axes(spec: dict) -> list[str]:
    """Axes in which candidate and baseline differ by design (e.g. "gpus":
    2 GPUs over 1), left out of the pairing; optional "vary" of a rule."""
    vary = spec.get("vary") or []
    if isinstance(vary, str) or not all(isinstance(v, str) for v in vary):
        raise ValueError("'vary' must be a list of axis names")
    return list(vary)


def place(p: dict) -> str:
    """'app@dataset' plus the point's axis values."""
    ax = axes_text(p)
    return f"{p.get('app')}@{dataset_label(p)}" + (f" {ax}" if ax else "")


def at_largest(points: list[dict]) -> list[dict]:
    """The points at the largest dataset of their app."""
    largest: dict[str, float] = {}
    for p in points:
        largest[p.get("app")] = max(largest.get(p.get("app"), -1.0), dataset_size(p))
    return [p for p in points if dataset_size(p) == largest[p.get("app")]]


def at_option(spec: dict) -> str:
    """A rule's "at": "largest" (default: the largest dataset of each app) or "all"."""
    at = str(spec.get("at", "largest"))
    if at not in ("largest", "all"):
        raise ValueError(f"'at' must be 'largest' or 'all', not {at!r}")
    return at


def is_invalid(p: dict) -> bool:
    """Ran but is not a validated result: failed, or ok without a passed validation."""
    return p.get("status") == "failed" or (p.get("status") == "ok" and validation_status(p) != "passed")


def invalid_text(p: dict) -> str:
    """Why an is_invalid point is: its status and validation."""
    return f"status {p.get('status')}, validation {validation_status(p)}"


def file_unusable(p: dict, where: str, invalid: list, missing: list) -> bool:
    """Files a point that gives no measurement, as `where` says: in `invalid`
    when it ran without a validated result, in `missing` when it did not run.
    True when it did (the caller skips it)."""
    if is_invalid(p):
        invalid.append(f"{where}: {invalid_text(p)}")
        return True
    if p.get("status") != "ok":
        missing.append(f"{where} not run ({p.get('error') or p.get('status')})")
        return True
    return False
