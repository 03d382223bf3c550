#!/usr/bin/env python3
"""Machine-readable verdict rules for harness results, and the document helpers
that report.py and plot.py share.

A rule is the object in a results document's "experiment.verdict"; its "kind"
selects a function in RULES. Each rule function receives the rule object and
the experiment's points (merged over every results file with that experiment
id) and returns one Verdict per candidate backend/device:

    holds / does not hold / not run

with a detail string holding the numbers that decided it. An unknown kind gives
"not evaluated (unknown rule kind X)". Adding a rule is one function:

    @rule("my_kind")
    def my_kind(spec: dict, points: list[dict]) -> list[Verdict]:
        ...

Used as a script it prints the verdicts of the given files as JSON:

    python3 scripts/verdicts.py RESULTS.json...
"""

from __future__ import annotations

import json
import math
import re
import statistics
import sys
from dataclasses import asdict, dataclass
from typing import Callable, Iterable

HOLDS = "holds"
DOES_NOT_HOLD = "does not hold"
NOT_RUN = "not run"


# ----------------------------------------------------------------------------
# Loading and merging documents


class ResultsInputError(Exception):
    """An input file that cannot be read, is not JSON, or is not a results document."""


def load_document(path: str) -> dict:
    try:
        with open(path, "r", encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, UnicodeDecodeError) as e:
        raise ResultsInputError(f"{path}: cannot read: {e}") from e
    except json.JSONDecodeError as e:
        raise ResultsInputError(f"{path}: not valid JSON: {e}") from e
    if not isinstance(doc, dict) or not isinstance(doc.get("points"), list):
        raise ResultsInputError(f"{path}: not a results document (no \"points\" array)")
    if doc.get("schema_version") != 1:
        raise ResultsInputError(
            f"{path}: schema_version {doc.get('schema_version')!r}; these tools read version 1")
    return doc


def load_documents(paths: Iterable[str]) -> list[dict]:
    return [load_document(p) for p in paths]


@dataclass
class Experiment:
    id: str
    spec: dict            # "experiment" object of the first document with this id
    documents: list       # indices into the document list
    points: list          # point dicts (copies) with "_doc" = document index
    duplicates: list = None  # keys measured in more than one document




def merge_experiments(docs: list[dict]) -> list[Experiment]:
    """Group the points of all documents by experiment id, in first-seen order.
    Each point copy carries "_doc", the index of its document."""
    by_id: dict[str, Experiment] = {}
    for i, doc in enumerate(docs):
        spec = doc.get("experiment") if isinstance(doc.get("experiment"), dict) else {}
        eid = str(spec.get("id") or "unnamed")
        exp = by_id.get(eid)
        if exp is None:
            exp = by_id[eid] = Experiment(eid, spec, [], [])
        exp.documents.append(i)
        for p in doc["points"]:
            if isinstance(p, dict):
                exp.points.append(dict(p, _doc=i))
    for exp in by_id.values():
        docs_of: dict[str, set] = {}
        for p in exp.points:
            docs_of.setdefault(str(p.get("key")), set()).add(p["_doc"])
        exp.duplicates = [k for k, d in docs_of.items() if len(d) > 1]
    return list(by_id.values())


# ----------------------------------------------------------------------------
# Point helpers


def dataset_label(p: dict) -> str:
    ds = p.get("dataset") or {}
    return str(ds.get("label", "?"))


def dataset_size(p: dict) -> float:
    ds = p.get("dataset") or {}
    size = ds.get("size_bytes")
    return float(size) if isinstance(size, (int, float)) else 0.0


def device_key(p: dict) -> tuple:
    """Identity of the device a point ran on: (backend, index, name)."""
    return (str(p.get("backend", "?")), int(p.get("device_index", 0) or 0), str(p.get("device_name", "")))


def device_label(key: tuple) -> str:
    backend, index, name = key
    return f"{backend}:{index}" + (f" ({name})" if name else "")


_VENDOR_PREFIXES = ("NVIDIA ", "AMD ", "Intel(R) ", "Intel ", "Apple ")


def short_device(name: str, width: int = 22) -> str:
    """'NVIDIA H100 80GB HBM3' -> 'H100 80GB HBM3'; PoCL's 'cpu-haswell-AMD EPYC
    7J13 64-Core Processor' -> 'PoCL EPYC 7J13'."""
    if not name:
        return ""
    s = name
    # PoCL CPU devices: "pthread-Intel(R) ...", "cpu-haswell-AMD EPYC ...", "pthread-haswell-AMD EPYC"
    m = re.match(r"^(?:cpu|pthread|basic|tbb)-(?:[a-z0-9_]+(?:-[a-z0-9_]+)*-)?(.+)$", s)
    pocl = m is not None
    if m:
        s = m.group(1)
    for token in ("(R)", "(TM)", "(tm)", " CPU", " Processor", "GeForce "):
        s = s.replace(token, "")
    for prefix in _VENDOR_PREFIXES:
        if s.startswith(prefix):
            s = s[len(prefix):]
    s = " ".join(w for w in s.split()
                 if not w.endswith("-Core") and w != "@" and not re.fullmatch(r"[0-9.]+GHz", w))
    if pocl:
        s = "PoCL " + s
    if len(s) > width:
        s = s[: width - 1].rstrip() + "\u2026"
    return s


def series_name(p: dict) -> str:
    """'framework/variant @ backend:short device name'."""
    dev = short_device(str(p.get("device_name", "")))
    where = f"{p.get('backend', '?')}:{dev}" if dev else f"{p.get('backend', '?')}:{p.get('device_index', 0)}"
    return f"{p.get('framework', '?')}/{p.get('variant', '?')} @ {where}"


def validation_status(p: dict) -> str:
    v = p.get("validation")
    return str(v.get("status", "not_run")) if isinstance(v, dict) else "not_run"


def is_valid(p: dict) -> bool:
    return p.get("status") == "ok" and validation_status(p) == "passed"


def _median_of(values: list) -> float | None:
    xs = [float(x) for x in values if isinstance(x, (int, float)) and not isinstance(x, bool)]
    return statistics.median(xs) if xs else None


def samples(p: dict, metric: str = "total_ms") -> list[float]:
    """Per-repetition values of `metric` ("total_ms" or a phase name)."""
    out = []
    for rep in p.get("repetitions") or []:
        if not isinstance(rep, dict):
            continue
        v = rep.get("total_ms") if metric == "total_ms" else (rep.get("phases_ms") or {}).get(metric)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out.append(float(v))
    return out


HIGHER_IS_BETTER = {"throughput_gbps"}


def stat(p: dict, metric: str = "total_ms", which: str = "median") -> float | None:
    """median/min/max of a metric: "total_ms", a phase name, or "throughput_gbps".
    Uses the runner's summary when present, else the repetitions."""
    summary = p.get("summary") if isinstance(p.get("summary"), dict) else {}
    if metric == "throughput_gbps":
        tp = summary.get("throughput_gbps")
        if isinstance(tp, dict) and isinstance(tp.get(which), (int, float)):
            return float(tp[which])
        work_bytes = (p.get("work") or {}).get("input_bytes") or (p.get("dataset") or {}).get("size_bytes")
        # the fastest repetition gives the highest throughput
        inverse = {"median": "median", "min": "max", "max": "min"}[which]
        ms = stat(p, "total_ms", inverse)
        if work_bytes and ms:
            return float(work_bytes) / (ms * 1e6)
        return None
    if metric == "total_ms":
        s = summary.get("total_ms")
    else:
        s = (summary.get("phases_ms") or {}).get(metric)
    if isinstance(s, dict) and isinstance(s.get(which), (int, float)):
        return float(s[which])
    xs = samples(p, metric)
    if not xs:
        return None
    return {"median": statistics.median, "min": min, "max": max}[which](xs)


def matches(p: dict, matcher: dict) -> bool:
    """Every field of `matcher` equals the point's: top-level fields
    (framework, variant, app, backend, device_index, device_name, status),
    "dataset.label" style dotted paths, or "params" (a dict, each entry must
    match). A list value matches any of its elements."""
    for k, want in (matcher or {}).items():
        if k == "params" and isinstance(want, dict):
            params = p.get("params") or {}
            if any(params.get(pk) != pv for pk, pv in want.items()):
                return False
            continue
        have = p
        for part in k.split("."):
            have = have.get(part) if isinstance(have, dict) else None
        if isinstance(want, list):
            if have not in want:
                return False
        elif have != want:
            return False
    return True


def merge_phase_orders(points: list[dict]) -> list[str]:
    """One phase order for points with different phase_order lists: longest
    list first, then each new phase is placed right after its predecessor in
    its own list (map, group, reduce merged into preprocess, copy_in, map,
    sort, reduce, copy_out gives ... map, group, sort, reduce ...)."""
    orders = sorted((list(p.get("phase_order") or []) for p in points), key=len, reverse=True)
    merged: list[str] = []
    for order in orders:
        for i, phase in enumerate(order):
            if phase in merged:
                continue
            if i == 0:
                merged.insert(0, phase)
            else:
                merged.insert(merged.index(order[i - 1]) + 1, phase)
    return merged


def group_by_device(points: list[dict]) -> dict[tuple, list[dict]]:
    groups: dict[tuple, list[dict]] = {}
    for p in points:
        groups.setdefault(device_key(p), []).append(p)
    return groups


def fmt_num(x: float | None, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if x == 0:
        return "0"
    if abs(x) >= 100:
        return f"{x:.1f}"
    return f"{x:.{digits}g}"


# ----------------------------------------------------------------------------
# Verdicts and the rule registry


@dataclass
class Verdict:
    experiment: str
    backend: str | None
    device_index: int | None
    device: str | None
    verdict: str
    detail: str
    rule: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)


RuleFn = Callable[[dict, list], list]
RULES: dict[str, RuleFn] = {}


def rule(kind: str):
    """Register a rule function under `kind`."""
    def register(fn: RuleFn) -> RuleFn:
        RULES[kind] = fn
        return fn
    return register


def _verdict(key: tuple | None, verdict: str, detail: str) -> Verdict:
    if key is None:
        return Verdict("", None, None, None, verdict, detail)
    return Verdict("", key[0], key[1], key[2], verdict, detail)


@rule("all_valid")
def all_valid(spec: dict, points: list[dict]) -> list[Verdict]:
    """Holds for a backend/device if every point ran (status ok) and passed
    validation; not run if every point there is an error."""
    out = []
    for key, pts in group_by_device(points).items():
        errors = [p for p in pts if p.get("status") == "error"]
        bad = [p for p in pts if not is_valid(p)]
        if len(errors) == len(pts):
            out.append(_verdict(key, NOT_RUN, f"all {len(pts)} point(s) could not run: "
                                + "; ".join(f"{p.get('key')}: {p.get('error')}" for p in errors[:3])))
        elif bad:
            listed = "; ".join(f"{p.get('key')} (status {p.get('status')}, validation {validation_status(p)})"
                               for p in bad[:5])
            more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
            out.append(_verdict(key, DOES_NOT_HOLD, f"{len(bad)} of {len(pts)} point(s) not valid: {listed}{more}"))
        else:
            out.append(_verdict(key, HOLDS, f"all {len(pts)} point(s) ran and passed validation"))
    return out


def _choose_baseline(c: dict, bases: list[dict], metric: str) -> dict | None:
    """The baseline point for candidate c: same app and dataset label; prefer
    the same device, then the same results file (same host), then any; within
    a tier prefer a valid point, then the fastest (the conservative choice)."""
    same = [b for b in bases if b.get("app") == c.get("app") and dataset_label(b) == dataset_label(c)]
    if not same:
        return None
    tiers = [[b for b in same if device_key(b) == device_key(c)],
             [b for b in same if b.get("_doc") == c.get("_doc")],
             same]
    higher = metric in HIGHER_IS_BETTER
    for tier in tiers:
        if not tier:
            continue
        valid = [b for b in tier if is_valid(b) and stat(b, metric) is not None]
        if valid:
            return (max if higher else min)(valid, key=lambda b: stat(b, metric))
        return tier[0]
    return None


@rule("faster")
def faster(spec: dict, points: list[dict]) -> list[Verdict]:
    """Candidate faster than baseline, per candidate backend/device.

    spec: {"candidate": matcher, "baseline": matcher, "metric": "total_ms" | phase
    | "throughput_gbps", "at": "largest" | "all", "min_speedup": 1.0}. Candidate
    and baseline points pair by (app, dataset.label); speedup = baseline median /
    candidate median (inverted for throughput). Holds if every speedup at the
    chosen sizes ("largest": the largest dataset per app) exceeds min_speedup and
    every involved point is ok and validated; does not hold if a speedup is too
    small or an involved point failed; not run if no pair has both points run.
    """
    cand_m = spec.get("candidate") or {}
    base_m = spec.get("baseline") or {}
    metric = str(spec.get("metric", "total_ms"))
    at = str(spec.get("at", "largest"))
    if at not in ("largest", "all"):
        raise ValueError(f"'at' must be 'largest' or 'all', not {at!r}")
    min_speedup = float(spec.get("min_speedup", 1.0))
    higher = metric in HIGHER_IS_BETTER

    cands = [p for p in points if matches(p, cand_m)]
    bases = [p for p in points if matches(p, base_m) and not matches(p, cand_m)]
    if not cands:
        return [_verdict(None, NOT_RUN, f"no point matches the candidate {json.dumps(cand_m)}")]

    out = []
    for key, group in group_by_device(cands).items():
        pairs = [(c, _choose_baseline(c, bases, metric)) for c in group]
        pairs = [(c, b) for c, b in pairs if b is not None]
        if not pairs:
            out.append(_verdict(key, NOT_RUN, f"no baseline point {json.dumps(base_m)} with the same app and "
                                "dataset as the candidate"))
            continue
        if at == "largest":
            largest: dict[str, float] = {}
            for c, _ in pairs:
                largest[c.get("app")] = max(largest.get(c.get("app"), -1.0), dataset_size(c))
            pairs = [(c, b) for c, b in pairs if dataset_size(c) == largest[c.get("app")]]
        pairs.sort(key=lambda cb: (str(cb[0].get("app")), dataset_size(cb[0])))

        measured, too_slow, invalid, missing = [], [], [], []
        for c, b in pairs:
            where = f"{c.get('app')}@{dataset_label(c)}"
            bad = [p for p in (c, b) if p.get("status") == "failed"
                   or (p.get("status") == "ok" and validation_status(p) != "passed")]
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
            unit = "GB/s" if higher else ("ms" if metric == "total_ms" else f"ms {metric}")
            text = (f"{where}: speedup {fmt_num(speedup)}x ({series_name(b)} {fmt_num(bm)} {unit} vs "
                    f"{series_name(c)} {fmt_num(cm)} {unit})")
            measured.append(text)
            if not speedup > min_speedup:
                too_slow.append(text)

        notes = "; ".join(missing)
        if invalid:
            detail = "invalid result: " + "; ".join(invalid)
            if measured:
                detail += "; " + "; ".join(measured)
            out.append(_verdict(key, DOES_NOT_HOLD, detail + (f"; {notes}" if notes else "")))
        elif not measured:
            out.append(_verdict(key, NOT_RUN, notes or "no pair with both points run"))
        elif too_slow:
            out.append(_verdict(key, DOES_NOT_HOLD, f"needs speedup > {fmt_num(min_speedup)}x: "
                                + "; ".join(measured) + (f"; {notes}" if notes else "")))
        else:
            out.append(_verdict(key, HOLDS, "; ".join(measured) + (f"; {notes}" if notes else "")))
    return out


def evaluate(experiment_id: str, spec: dict | None, points: list[dict]) -> list[Verdict]:
    """Verdicts of one experiment (its machine-readable rule `spec`)."""
    kind = spec.get("kind") if isinstance(spec, dict) else None
    if kind is None:
        text = "not evaluated (no machine-readable rule)"
        fn = None
    elif kind not in RULES:
        text = f"not evaluated (unknown rule kind {kind})"
        fn = None
    else:
        fn = RULES[kind]
        text = ""
    if fn is None:
        keys = list(group_by_device(points)) or [None]
        verdicts = [_verdict(k, text, "") for k in keys]
    else:
        try:
            verdicts = fn(spec, points)
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            keys = list(group_by_device(points)) or [None]
            verdicts = [_verdict(k, f"not evaluated (bad {kind} rule: {e})", "") for k in keys]
    for v in verdicts:
        v.experiment = experiment_id
        v.rule = kind
    return verdicts


def evaluate_experiment(exp: Experiment) -> list[Verdict]:
    return evaluate(exp.id, exp.spec.get("verdict"), exp.points)


def evaluate_documents(docs: list[dict]) -> list[Verdict]:
    out = []
    for exp in merge_experiments(docs):
        out.extend(evaluate_experiment(exp))
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    try:
        docs = load_documents(args)
    except ResultsInputError as e:
        print(f"verdicts.py: {e}", file=sys.stderr)
        return 2
    json.dump([v.to_dict() for v in evaluate_documents(docs)], sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
