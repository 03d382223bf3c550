"""A verdict (holds / does not hold / not run, with the numbers that decided
it) on one backend/device, and the helpers rules build their verdicts with."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from results_doc import group_by_device, skip_reason

HOLDS = "holds"
DOES_NOT_HOLD = "does not hold"
NOT_RUN = "not run"


@dataclass
class Verdict:
    """One experiment's verdict on one device (backend None: on all devices);
    `verdict` is HOLDS, DOES_NOT_HOLD, NOT_RUN or "not evaluated (...)"."""
    experiment: str
    backend: str | None
    device_index: int | None
    device: str | None
    verdict: str
    detail: str
    rule: str | None = None
    note: str = ""  # e.g. that the device is a CPU (PoCL), so a GPU claim is not tested there

    def to_dict(self) -> dict:
        return asdict(self)


def verdict_key(v: Verdict) -> tuple:
    """The device a verdict is on, as results_doc.device_key gives it."""
    return (v.backend, v.device_index, v.device)


def verdict_for(key: tuple | None, verdict: str, detail: str) -> Verdict:
    """A verdict on device `key` (None: on all devices); evaluate() fills in
    the experiment and the rule."""
    if key is None:
        return Verdict("", None, None, None, verdict, detail)
    return Verdict("", key[0], key[1], key[2], verdict, detail)


def skipped_verdicts(skipped: list[dict], covered: set) -> list[Verdict]:
    """"not run" for every device whose matching points were all skipped
    (devices in `covered` already have a verdict)."""
    out = []
    for key, pts in group_by_device(skipped).items():
        if key in covered:
            continue
        by_reason: dict[str, list[dict]] = {}
        for p in pts:
            by_reason.setdefault(skip_reason(p), []).append(p)
        if len(by_reason) == 1:  # one reason (a variant that runs nowhere here): say it once
            reasons = next(iter(by_reason))
        else:
            reasons = "; ".join(f"{p.get('key')}: {skip_reason(p)}" for p in pts[:3])
            reasons += f" and {len(pts) - 3} more" if len(pts) > 3 else ""
        out.append(verdict_for(key, NOT_RUN, f"all {len(pts)} point(s) skipped: {reasons}"))
    return out


def decide(key: tuple | None, *, invalid: list, measured: list, failing: list, notes: list,
           not_run: str, fail_prefix: str, hold_prefix: str = "", fail_shows: list | None = None) -> Verdict:
    """The end every rule shares, per device: a candidate that failed
    validation fails the claim; nothing measured is not run; a failing
    measurement fails it (showing `fail_shows`, by default the failing ones);
    else it holds. `notes` (points that could not be used) close the detail."""
    tail = ("; " + "; ".join(notes)) if notes else ""
    if invalid:
        return verdict_for(key, DOES_NOT_HOLD, "invalid result: " + "; ".join(invalid)
                           + ("; " + "; ".join(measured) if measured else "") + tail)
    if not measured:
        return verdict_for(key, NOT_RUN, not_run + tail)
    if failing:
        return verdict_for(key, DOES_NOT_HOLD, fail_prefix + "; ".join(failing if fail_shows is None else fail_shows)
                           + tail)
    return verdict_for(key, HOLDS, hold_prefix + "; ".join(measured) + tail)
