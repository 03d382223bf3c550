"""Combinators: rules made of rules (all_of, first_of), decided per device."""

from __future__ import annotations

from .registry import evaluate, rule
from .verdict import DOES_NOT_HOLD, HOLDS, NOT_RUN, Verdict, verdict_for, verdict_key


def _sub_verdicts(spec: dict, points: list[dict]) -> list[list[Verdict]]:
    rules = spec.get("rules")
    if not isinstance(rules, list) or not rules or not all(isinstance(r, dict) for r in rules):
        raise ValueError("'rules' must be a non-empty list of rule objects")
    return [evaluate("", r, points) for r in rules]


def _per_device(subs: list[list[Verdict]]) -> tuple[list, list[dict]]:
    """Device keys over every sub-rule's verdicts (in first-seen order) and,
    per sub-rule, key -> verdict; a verdict without a device applies to all."""
    keys: list = []
    for vs in subs:
        for v in vs:
            if v.backend is not None and verdict_key(v) not in keys:
                keys.append(verdict_key(v))
    tables = []
    for vs in subs:
        t = {verdict_key(v): v for v in vs if v.backend is not None}
        general = [v for v in vs if v.backend is None]
        tables.append((t, general[0] if general else None))
    return keys or [None], tables


def _sub_text(i: int, v: Verdict | None, kind: str) -> str:
    if v is None:
        return f"[{i + 1} {kind}] not run: no verdict for this device"
    return f"[{i + 1} {kind}] {v.verdict}" + (f": {v.detail}" if v.detail else "")


def _lookup(table, key):
    t, general = table
    return t.get(key, general) if key is not None else general


@rule("all_of")
def all_of(spec: dict, points: list[dict]) -> list[Verdict]:
    """Every sub-rule holds, per device.

    spec: {"rules": [rule, ...]}. Per device: does not hold if a sub-rule does
    not hold there; else not run if a sub-rule is not run (or not evaluated)
    there; else holds. The detail lists every sub-rule's verdict."""
    subs = _sub_verdicts(spec, points)
    kinds = [str(r.get("kind")) for r in spec["rules"]]
    keys, tables = _per_device(subs)
    out = []
    for key in keys:
        vs = [_lookup(t, key) for t in tables]
        texts = [_sub_text(i, v, kinds[i]) for i, v in enumerate(vs)]
        if any(v is not None and v.verdict == DOES_NOT_HOLD for v in vs):
            verdict = DOES_NOT_HOLD
        elif all(v is not None and v.verdict == HOLDS for v in vs):
            verdict = HOLDS
        else:
            verdict = NOT_RUN
        out.append(verdict_for(key, verdict, " | ".join(texts)))
    return out


@rule("first_of")
def first_of(spec: dict, points: list[dict]) -> list[Verdict]:
    """The first sub-rule that can be decided, per device: a rule with a
    fallback (e.g. a hit rate from profiler counters where they were merged,
    else a run-time proxy).

    spec: {"rules": [rule, ...]}. Per device: the verdict of the first
    sub-rule that holds or does not hold there, its detail prefixed with which
    rule decided; not run if none does."""
    subs = _sub_verdicts(spec, points)
    kinds = [str(r.get("kind")) for r in spec["rules"]]
    keys, tables = _per_device(subs)
    out = []
    for key in keys:
        vs = [_lookup(t, key) for t in tables]
        decided = next((i for i, v in enumerate(vs) if v is not None and v.verdict in (HOLDS, DOES_NOT_HOLD)),
                       None)
        if decided is None:
            out.append(verdict_for(key, NOT_RUN, " | ".join(_sub_text(i, v, kinds[i]) for i, v in enumerate(vs))))
        else:
            v = vs[decided]
            skipped = "".join(f" (rule {i + 1} not run)" for i in range(decided))
            out.append(verdict_for(key, v.verdict, f"by rule {decided + 1} ({kinds[decided]}){skipped}: {v.detail}"))
    return out
