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

Rules ignore skipped points (status "skipped", results format version 2): a
skipped point is neither a failure nor an error; a device where every matching
point was skipped is "not run".

Metrics (stat(), the rules' "metric", the plots' "y"): "total_ms", a phase
name, "throughput_gbps", "rate:<name>" (the value of the point's rate <name>)
and "fraction:<name>" (that rate's fraction of its measured ceiling); the last
three are higher-is-better. "counter:<name>" is a point counter (e.g. a hit
rate merged from Nsight Compute by scripts/ncu_counters.py).

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


SUPPORTED_VERSIONS = (1, 2)


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
    version = doc.get("schema_version")
    if isinstance(version, bool) or version not in SUPPORTED_VERSIONS:
        raise ResultsInputError(
            f"{path}: schema_version {version!r}; these tools read versions "
            + " and ".join(str(v) for v in SUPPORTED_VERSIONS))
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




def _device_ceilings(doc: dict, p: dict) -> dict:
    """{name: value} of the ceilings measured in `doc` on the point's device."""
    out = {}
    for c in doc.get("ceilings") or []:
        if (isinstance(c, dict) and c.get("backend") == p.get("backend")
                and c.get("device_index", 0) == p.get("device_index", 0)
                and isinstance(c.get("value"), (int, float)) and not isinstance(c.get("value"), bool)):
            out[str(c.get("name"))] = float(c["value"])
    return out


def merge_experiments(docs: list[dict]) -> list[Experiment]:
    """Group the points of all documents by experiment id, in first-seen order.
    Each point copy carries "_doc", the index of its document, and
    "_ceilings", {name: value} of the ceilings its document measured on its
    device (for rules such as ceiling_ratio)."""
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
                exp.points.append(dict(p, _doc=i, _ceilings=_device_ceilings(doc, p)))
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


def is_skipped(p: dict) -> bool:
    """A point a variant declined (format version 2): no repetitions, no summary."""
    return p.get("status") == "skipped"


def skip_reason(p: dict) -> str:
    return str(p.get("skip_reason") or "no reason given")


def not_skipped(points: Iterable[dict]) -> list[dict]:
    return [p for p in points if not is_skipped(p)]


def _plain(v) -> str:
    """An axis or param value as text: 128, 128.0 and "128" all give "128"."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def point_axes(p: dict) -> dict:
    """The swept axis values of a point (version 2 "axes"; {} otherwise)."""
    axes = p.get("axes")
    return dict(axes) if isinstance(axes, dict) else {}


def axes_text(p: dict, skip: Iterable[str] = ()) -> str:
    """'group_size=128 segment=1024' (in the point's axis order), without `skip`."""
    return " ".join(f"{k}={_plain(v)}" for k, v in point_axes(p).items() if k not in set(skip))


def axes_order(p: dict) -> tuple:
    """Sort key of a point's axis values: numerically where they are numbers."""
    out = []
    for k, v in point_axes(p).items():
        x = x_value(p, k)
        out.append((0, x, "") if x is not None else (1, 0.0, _plain(v)))
    return tuple(out)


def point_devices(p: dict) -> list[tuple]:
    """Every device a point used, as device keys; the primary first. Version 1
    points (and version 2 points without "devices") used only the primary."""
    primary = device_key(p)
    out = [primary]
    for d in p.get("devices") or []:
        if not isinstance(d, dict):
            continue
        key = (str(d.get("backend", "?")), int(d.get("index", 0) or 0), str(d.get("name", "")))
        if key not in out and (key[0], key[1]) != (primary[0], primary[1]):
            out.append(key)
    return out


def point_rates(p: dict) -> list[dict]:
    return [r for r in p.get("rates") or [] if isinstance(r, dict)]


def find_rate(p: dict, name: str) -> dict | None:
    for r in point_rates(p):
        if r.get("name") == name:
            return r
    return None


def _number(x) -> float | None:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def rate_fraction(r: dict) -> float | None:
    """A rate's fraction of its ceiling: the runner's "fraction", else value /
    ceiling_value when both are known."""
    f = _number(r.get("fraction"))
    if f is not None:
        return f
    value, ceiling = _number(r.get("value")), _number(r.get("ceiling_value"))
    if value is not None and ceiling:
        return value / ceiling
    return None


def x_value(p: dict, x: str) -> float | None:
    """Numeric value of `x` for a point: "size_bytes" (the dataset size), an
    axis, a param ("params.name" or "name"), or a top-level field; numbers
    written as strings ("128") count. None when missing or not a number."""
    if x in ("size_bytes", "dataset.size_bytes"):
        return dataset_size(p)
    name = x[len("params."):] if x.startswith("params.") else x
    axes = point_axes(p)
    params = p.get("params") if isinstance(p.get("params"), dict) else {}
    v = axes[name] if name in axes else params.get(name, p.get(name))
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            f = float(v)
        except ValueError:
            return None
        return f if math.isfinite(f) else None
    return None


def line_key(p: dict, x: str, multi_app: bool = True, multi_dataset: bool = True) -> str:
    """The line (series) a point belongs to when `x` is swept: series name,
    app, dataset (unless x is the dataset size) and the other axes' values."""
    name = series_name(p)
    if multi_app:
        name += f" {p.get('app')}"
    if multi_dataset and x not in ("size_bytes", "dataset.size_bytes"):
        name += f" {dataset_label(p)}"
    other = axes_text(p, skip=(x[len("params."):] if x.startswith("params.") else x,))
    return name + (f" {other}" if other else "")


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
RATE_PREFIX = "rate:"
FRACTION_PREFIX = "fraction:"
COUNTER_PREFIX = "counter:"


def higher_is_better(metric: str) -> bool:
    return metric in HIGHER_IS_BETTER or metric.startswith((RATE_PREFIX, FRACTION_PREFIX))


def metric_unit(metric: str, points: Iterable[dict] = ()) -> str:
    """Unit of a metric for labels: ms, GB/s, the rate's unit, or 'fraction'."""
    if metric == "throughput_gbps":
        return "GB/s"
    if metric.startswith(FRACTION_PREFIX):
        return "fraction of ceiling"
    if metric.startswith(RATE_PREFIX):
        for p in points:
            r = find_rate(p, metric[len(RATE_PREFIX):])
            if r and r.get("unit"):
                return str(r["unit"])
        return ""
    if metric.startswith(COUNTER_PREFIX):
        return "%" if metric.endswith("_rate") else ""
    return "ms"


PHASE_SUM = "+"


def stat(p: dict, metric: str = "total_ms", which: str = "median") -> float | None:
    """median/min/max of a metric: "total_ms", a phase name, phases joined
    by "+" (their sum), "throughput_gbps",
    "rate:<name>", "fraction:<name>" or "counter:<name>" (the point's counter,
    the median over its repetitions; e.g. hit rates merged by
    scripts/ncu_counters.py). Uses the runner's summary (and rates)
    when present, else the repetitions. Rates are computed by the runner from
    median times, so for them every `which` gives the median-based value."""
    if metric.startswith(RATE_PREFIX):
        r = find_rate(p, metric[len(RATE_PREFIX):])
        return _number(r.get("value")) if r else None
    if metric.startswith(FRACTION_PREFIX):
        r = find_rate(p, metric[len(FRACTION_PREFIX):])
        return rate_fraction(r) if r else None
    if metric.startswith(COUNTER_PREFIX):
        counters = p.get("counters") if isinstance(p.get("counters"), dict) else {}
        return _number(counters.get(metric[len(COUNTER_PREFIX):]))
    if PHASE_SUM in metric:
        # "map+sort+reduce": the sum of those phases' statistics; a phase the
        # point does not have (reduce of a map-only app) counts as 0.
        parts = [stat(p, name, which) for name in metric.split(PHASE_SUM)]
        found = [x for x in parts if x is not None]
        return sum(found) if found else None
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


def _same_value(have, want) -> bool:
    """Equal, or the same scalar written differently: axis and param values
    may be numbers or strings ("128"), so they also compare as text."""
    if have == want and type(have) is type(want):
        return True
    scalar = (str, int, float, bool)
    if isinstance(have, scalar) and isinstance(want, scalar):
        return _plain(have) == _plain(want)
    return have == want


def matches(p: dict, matcher: dict) -> bool:
    """Every field of `matcher` equals the point's: top-level fields
    (framework, variant, app, backend, device_index, device_name, status),
    "dataset.label" / "axes.segment" style dotted paths, or "params" (a dict,
    each entry must match). A list value matches any of its elements. Scalars
    also match when they read the same as text (128 matches "128")."""
    for k, want in (matcher or {}).items():
        if k == "params" and isinstance(want, dict):
            params = p.get("params") or {}
            if any(pk not in params or not _same_value(params.get(pk), pv) for pk, pv in want.items()):
                return False
            continue
        have = p
        for part in k.split("."):
            have = have.get(part) if isinstance(have, dict) else None
        if isinstance(want, list):
            if have is None or not any(_same_value(have, w) for w in want):
                return False
        elif have is None and want is not None:
            return False
        elif not _same_value(have, want):
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


def _skipped_verdicts(skipped: list[dict], covered: set) -> list[Verdict]:
    """"not run" for every device whose matching points were all skipped
    (devices in `covered` already have a verdict)."""
    out = []
    for key, pts in group_by_device(skipped).items():
        if key in covered:
            continue
        reasons = "; ".join(f"{p.get('key')}: {skip_reason(p)}" for p in pts[:3])
        more = f" and {len(pts) - 3} more" if len(pts) > 3 else ""
        out.append(_verdict(key, NOT_RUN, f"all {len(pts)} point(s) skipped: {reasons}{more}"))
    return out


def _skipped_note(pts: list[dict]) -> str:
    n = sum(1 for p in pts if is_skipped(p))
    return f" ({n} skipped point(s) ignored)" if n else ""


def _decide(key: tuple | None, *, invalid: list, measured: list, failing: list, notes: list,
            not_run: str, fail_prefix: str, hold_prefix: str = "", fail_shows: list | None = None) -> Verdict:
    """The end every rule shares, per device: a candidate that failed
    validation fails the claim; nothing measured is not run; a failing
    measurement fails it (showing `fail_shows`, by default the failing ones);
    else it holds. `notes` (points that could not be used) close the detail."""
    tail = ("; " + "; ".join(notes)) if notes else ""
    if invalid:
        return _verdict(key, DOES_NOT_HOLD, "invalid result: " + "; ".join(invalid)
                        + ("; " + "; ".join(measured) if measured else "") + tail)
    if not measured:
        return _verdict(key, NOT_RUN, not_run + tail)
    if failing:
        return _verdict(key, DOES_NOT_HOLD, fail_prefix + "; ".join(failing if fail_shows is None else fail_shows)
                        + tail)
    return _verdict(key, HOLDS, hold_prefix + "; ".join(measured) + tail)


@rule("all_valid")
def all_valid(spec: dict, points: list[dict]) -> list[Verdict]:
    """Holds for a backend/device if every point ran (status ok) and passed
    validation; not run if every point there is an error. Skipped points are
    ignored; a device where every point was skipped is not run."""
    out = []
    for key, all_pts in group_by_device(points).items():
        pts = not_skipped(all_pts)
        note = _skipped_note(all_pts)
        if not pts:
            out += _skipped_verdicts(all_pts, set())
            continue
        errors = [p for p in pts if p.get("status") == "error"]
        bad = [p for p in pts if not is_valid(p)]
        if len(errors) == len(pts):
            out.append(_verdict(key, NOT_RUN, f"all {len(pts)} point(s) could not run: "
                                + "; ".join(f"{p.get('key')}: {p.get('error')}" for p in errors[:3]) + note))
        elif bad:
            listed = "; ".join(f"{p.get('key')} (status {p.get('status')}, validation {validation_status(p)})"
                               for p in bad[:5])
            more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
            out.append(_verdict(key, DOES_NOT_HOLD,
                                f"{len(bad)} of {len(pts)} point(s) not valid: {listed}{more}{note}"))
        else:
            out.append(_verdict(key, HOLDS, f"all {len(pts)} point(s) ran and passed validation{note}"))
    return out


def _same_axes(a: dict, b: dict, vary: Iterable[str] = ()) -> bool:
    """Points agree on every axis both of them have (less the `vary` axes)."""
    ax, bx = point_axes(a), point_axes(b)
    return all(_plain(ax[k]) == _plain(bx[k]) for k in (set(ax) & set(bx)) - set(vary))


def _vary(spec: dict) -> list[str]:
    """Axes in which candidate and baseline differ by design (e.g. "gpus":
    2 GPUs over 1), left out of the pairing; optional "vary" of a rule."""
    vary = spec.get("vary") or []
    if isinstance(vary, str) or not all(isinstance(v, str) for v in vary):
        raise ValueError("'vary' must be a list of axis names")
    return list(vary)


def _choose_baseline(c: dict, bases: list[dict], metric: str, vary: Iterable[str] = (),
                     skipped: Iterable[dict] = ()) -> dict | None:
    """The baseline point for candidate c: same app and dataset label (and the
    same values of the axes both have, less `vary`, when such a baseline
    exists); prefer the same device, then the same results file (same host),
    then any; within a tier prefer a valid point, then the fastest (the
    conservative choice). None when the only baselines with c's axis values
    are among `skipped` (a sweep's baseline with no solution at that point
    pairs with nothing, not with another point of the sweep)."""
    def alike(b: dict) -> bool:
        return b.get("app") == c.get("app") and dataset_label(b) == dataset_label(c)
    same = [b for b in bases if alike(b)]
    exact = [b for b in same if _same_axes(b, c, vary)]
    if not exact and any(alike(b) and _same_axes(b, c, vary) for b in skipped):
        return None
    same = exact or same
    if not same:
        return None
    tiers = [[b for b in same if device_key(b) == device_key(c)],
             [b for b in same if b.get("_doc") == c.get("_doc")],
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


def _where(p: dict) -> str:
    """'app@dataset' plus the point's axis values."""
    ax = axes_text(p)
    return f"{p.get('app')}@{dataset_label(p)}" + (f" {ax}" if ax else "")


def _at_largest(points: list[dict]) -> list[dict]:
    """The points at the largest dataset of their app."""
    largest: dict[str, float] = {}
    for p in points:
        largest[p.get("app")] = max(largest.get(p.get("app"), -1.0), dataset_size(p))
    return [p for p in points if dataset_size(p) == largest[p.get("app")]]


def _at(spec: dict) -> str:
    at = str(spec.get("at", "largest"))
    if at not in ("largest", "all"):
        raise ValueError(f"'at' must be 'largest' or 'all', not {at!r}")
    return at


def _invalid(p: dict) -> bool:
    """Ran but is not a validated result: failed, or ok without a passed validation."""
    return p.get("status") == "failed" or (p.get("status") == "ok" and validation_status(p) != "passed")


@rule("faster")
def faster(spec: dict, points: list[dict]) -> list[Verdict]:
    """Candidate faster than baseline, per candidate backend/device.

    spec: {"candidate": matcher, "baseline": matcher, "metric": "total_ms" | phase
    | "throughput_gbps" | "rate:<name>" | "fraction:<name>", "at": "largest" |
    "all", "min_speedup": 1.0, "quorum": q (optional), "vary": [axes]
    (optional)}. Candidate and baseline points pair by (app, dataset.label,
    and the axis values both have when possible, less the `vary` axes); speedup = baseline median / candidate median (inverted for
    higher-is-better metrics). Holds if every speedup at the chosen sizes
    ("largest": the largest dataset per app) exceeds min_speedup (with a
    quorum: more than that fraction of them) and every involved point is ok
    and validated;
    does not hold if a speedup is too small or an involved point failed; not
    run if no pair has both points run. Skipped points are ignored.
    """
    cand_m = spec.get("candidate") or {}
    base_m = spec.get("baseline") or {}
    metric = str(spec.get("metric", "total_ms"))
    at = _at(spec)
    min_speedup = float(spec.get("min_speedup", 1.0))
    quorum = spec.get("quorum")
    higher = higher_is_better(metric)
    vary = _vary(spec)

    all_cands = [p for p in points if matches(p, cand_m)]
    cands = not_skipped(all_cands)
    all_bases = [p for p in points if matches(p, base_m) and not matches(p, cand_m)]
    bases = not_skipped(all_bases)
    skipped_bases = [p for p in all_bases if p.get("status") == "skipped"]
    if not all_cands:
        return [_verdict(None, NOT_RUN, f"no point matches the candidate {json.dumps(cand_m)}")]

    out = []
    for key, group in group_by_device(cands).items():
        pairs = [(c, _choose_baseline(c, bases, metric, vary, skipped_bases)) for c in group]
        unpaired = [c for c, b in pairs if b is None]
        pairs = [(c, b) for c, b in pairs if b is not None]
        if not pairs:
            out.append(_verdict(key, NOT_RUN, f"no baseline point {json.dumps(base_m)} with the same app and "
                                "dataset as the candidate"))
            continue
        if at == "largest":
            keep = {id(c) for c in _at_largest([c for c, _ in pairs])}
            pairs = [(c, b) for c, b in pairs if id(c) in keep]
        pairs.sort(key=lambda cb: (str(cb[0].get("app")), dataset_size(cb[0]), axes_order(cb[0])))

        measured, too_slow, invalid, missing = [], [], [], []
        missing += [f"{_where(c)}: no baseline (skipped there)" for c in unpaired]
        for c, b in pairs:
            where = _where(c)
            bad = [p for p in (c, b) if _invalid(p)]
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
            text = (f"{where}: speedup {fmt_num(speedup)}x ({series_name(b)} {fmt_num(bm)} {unit} vs "
                    f"{series_name(c)} {fmt_num(cm)} {unit})")
            measured.append(text)
            if not speedup > min_speedup:
                too_slow.append(text)

        hold_prefix, fail_prefix = "", f"needs speedup > {fmt_num(min_speedup)}x: "
        if quorum is not None and measured:
            share = (len(measured) - len(too_slow)) / len(measured)
            verdict_text = (f"{len(measured) - len(too_slow)} of {len(measured)} speedups > "
                            f"{fmt_num(min_speedup)}x (needs more than {fmt_num(100 * float(quorum))}%): ")
            too_slow = [] if share > float(quorum) else too_slow
            hold_prefix, fail_prefix = verdict_text, verdict_text
        out.append(_decide(key, invalid=invalid, measured=measured, failing=too_slow, notes=missing,
                           not_run="no pair with both points run", hold_prefix=hold_prefix,
                           fail_prefix=fail_prefix, fail_shows=measured))
    out += _skipped_verdicts(all_cands, {v_key(v) for v in out})
    return out


@rule("largest_phase")
def largest_phase(spec: dict, points: list[dict]) -> list[Verdict]:
    """A phase is the longest of a point's phases, per candidate backend/device.

    spec: {"candidate": matcher, "phase": name, "exclude": [phases not
    compared], "at": "largest" | "all", "need": "any" | "all"}. For each
    candidate point at the chosen sizes, the phase with the largest median
    among the point's phases (less `exclude`). Holds if it is `phase` for at
    least one point ("any") or for every point ("all"), every point valid.
    """
    cand_m = spec.get("candidate") or {}
    phase = str(spec["phase"])
    exclude = set(spec.get("exclude") or [])
    need = str(spec.get("need", "any"))
    if need not in ("any", "all"):
        raise ValueError(f"'need' must be 'any' or 'all', not {need!r}")
    at = _at(spec)
    all_cands = [p for p in points if matches(p, cand_m)]
    if not all_cands:
        return [_verdict(None, NOT_RUN, f"no point matches the candidate {json.dumps(cand_m)}")]
    out = []
    for key, group in group_by_device(not_skipped(all_cands)).items():
        chosen = _at_largest(group) if at == "largest" else list(group)
        chosen.sort(key=lambda p: (str(p.get("app")), dataset_size(p), axes_order(p)))
        measured, other, invalid, missing = [], [], [], []
        for p in chosen:
            if _invalid(p):
                invalid.append(f"{_where(p)}: status {p.get('status')}, validation {validation_status(p)}")
                continue
            times = {ph: stat(p, ph) for ph in merge_phase_orders([p]) if ph not in exclude}
            times = {ph: t for ph, t in times.items() if t is not None}
            if p.get("status") != "ok" or not times:
                missing.append(f"{_where(p)} not run ({p.get('error') or 'no phases'})")
                continue
            top = max(times, key=times.get)
            total = sum(times.values())
            text = (f"{_where(p)}: largest {top} {fmt_num(times[top])} ms "
                    f"({fmt_num(100 * times[top] / total)}% of the compared phases)"
                    + ("" if top == phase else f", {phase} {fmt_num(times.get(phase, 0.0))} ms"))
            measured.append(text)
            if top != phase:
                other.append(text)
        failing = other if need == "all" else (other if len(other) == len(measured) else [])
        out.append(_decide(key, invalid=invalid, measured=measured, failing=failing, notes=missing,
                           not_run="no candidate point ran",
                           fail_prefix=f"{phase} is not the largest phase ({need}): ", fail_shows=measured))
    out += _skipped_verdicts(all_cands, {v_key(v) for v in out})
    return out


def v_key(v: Verdict) -> tuple:
    return (v.backend, v.device_index, v.device)


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
    cand_m = spec.get("candidate") or {}
    name = spec.get("rate")
    if not isinstance(name, str) or not name:
        raise ValueError("'rate' (the name of a rate) is required")
    at = _at(spec)
    min_fraction = float(spec.get("min_fraction", 0.8))
    best_of = spec.get("best_of")
    if best_of is not None and (not isinstance(best_of, str) or not best_of):
        raise ValueError("'best_of' must be an axis name")

    all_cands = [p for p in points if matches(p, cand_m)]
    if not all_cands:
        return [_verdict(None, NOT_RUN, f"no point matches the candidate {json.dumps(cand_m)}")]
    out = []
    for key, group in group_by_device(not_skipped(all_cands)).items():
        chosen = _at_largest(group) if at == "largest" else group
        chosen.sort(key=lambda p: (series_name(p), str(p.get("app")), dataset_size(p), axes_order(p)))
        found, invalid, missing = [], [], []  # found: (point, rate, fraction)
        for p in chosen:
            where = f"{series_name(p)} {_where(p)}"
            if _invalid(p):
                invalid.append(f"{where}: status {p.get('status')}, validation {validation_status(p)}")
                continue
            if p.get("status") != "ok":
                missing.append(f"{where} not run ({p.get('error') or p.get('status')})")
                continue
            r = find_rate(p, name)
            frac = rate_fraction(r) if r else None
            if frac is None:
                missing.append(f"{where}: " + (f"no rate {name!r}" if r is None
                                               else f"rate {name!r} has no measured ceiling"))
                continue
            found.append((p, r, frac))
        if best_of:
            best: dict[str, tuple] = {}
            for item in found:
                line = line_key(item[0], best_of)
                if line not in best or item[2] > best[line][2]:
                    best[line] = item
            found = [item for item in found if best[line_key(item[0], best_of)] is item]
        measured, low = [], []
        for p, r, frac in found:
            unit = r.get("unit", "")
            cv = _number(r.get("ceiling_value"))
            text = (f"{series_name(p)} {_where(p)}: {name} {fmt_num(_number(r.get('value')))} {unit} = "
                    f"{100 * frac:.1f}% of {r.get('ceiling') or 'its ceiling'}"
                    + (f" ({fmt_num(cv)} {unit})" if cv is not None else ""))
            measured.append(text)
            if frac < min_fraction:
                low.append(text)
        best_note = f" (best over {best_of})" if best_of else ""
        out.append(_decide(key, invalid=invalid, measured=measured, failing=low, notes=missing,
                           not_run=f"no validated point with rate {name!r} and a ceiling",
                           fail_prefix=f"needs >= {100 * min_fraction:.1f}% of the ceiling{best_note}: ",
                           hold_prefix=f"every fraction >= {100 * min_fraction:.1f}%{best_note}: "))
    out += _skipped_verdicts(all_cands, {v_key(v) for v in out})
    return out


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
        return [_verdict(None, NOT_RUN, f"no point matches the candidate {json.dumps(cand_m)}")]
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
                if _invalid(p):
                    invalid.append(f"{line} {x}={_plain(xv)}: status {p.get('status')}, "
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
            text = f"{line}: " + ", ".join(f"{x}={_plain(xv)} {fmt_num(y)}" for xv, y in steps)
            checked.append(text)
            against = []
            for (x0, y0), (x1, y1) in zip(steps, steps[1:]):
                move = sign * (y1 - y0)  # negative: against the direction
                if move < 0 and -move > tolerance * abs(y0):
                    against.append(f"{x}={_plain(x0)} -> {_plain(x1)}: {fmt_num(y0)} -> {fmt_num(y1)} "
                                   f"({100 * (y1 - y0) / y0 if y0 else float('inf'):+.1f}%)")
            if against:
                broken.append(text + " [against the direction: " + "; ".join(against) + "]")
        what = f"{metric} {direction} in {x} (tolerance {100 * tolerance:.1f}%)"
        out.append(_decide(key, invalid=invalid, measured=checked, failing=broken, notes=missing,
                           not_run=f"no series with two validated points along {x}",
                           fail_prefix=f"{what} broken: ", hold_prefix=f"{what}: "))
    out += _skipped_verdicts(all_cands, {v_key(v) for v in out})
    return out


# ----------------------------------------------------------------------------
# Sweep-shape rules (memory-hierarchy figures): how a metric grows along an axis


def _pair_value(c: dict, bases: list[dict], metric: str) -> float | None:
    """The candidate's metric over its baseline's: the baseline point on the
    same device with the same app, dataset and values of every axis both have."""
    for b in bases:
        if (device_key(b) == device_key(c) and b.get("app") == c.get("app")
                and dataset_label(b) == dataset_label(c) and _same_axes(b, c)):
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
            if _invalid(p) or (base_m is not None and any(
                    _invalid(b) for b in bases if device_key(b) == key and _same_axes(b, p))):
                invalid.append(f"{line} {x}={_plain(xv)}: status {p.get('status')}, "
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
        return [_verdict(None, NOT_RUN, f"no point matches the candidate {json.dumps(spec.get('candidate') or {})}")]
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
        out.append(_decide(key, invalid=invalid[:5], measured=checked, failing=broken, notes=notes,
                           not_run=f"no series with two validated points along {x}",
                           fail_prefix=f"{what} broken: ", hold_prefix=f"{what}: "))
    out += _skipped_verdicts(all_cands, {v_key(v) for v in out})
    return out


def _steps_text(x: str, steps: list) -> str:
    return ", ".join(f"{x}={_plain(xv)} {fmt_num(y)}" for xv, y in steps)


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
            f"{_steps_text(x, steps)}; last step {x}={_plain(x0)} -> {_plain(x1)} {100 * g:+.1f}%")
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
        return y1 <= (1 - min_drop) * y0, f"{_steps_text(x, steps)}; {x}={_plain(x0)} -> {_plain(x1)} {100 * change:+.1f}%"
    return _sweep_rule(spec, points, judge, f"{what} drops by >= {100 * min_drop:.1f}% from the smallest to the largest {x}")


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
        return [_verdict(None, NOT_RUN, f"no point matches the candidate {json.dumps(spec.get('candidate') or {})}")]
    out = []
    for key, group in group_by_device(cands).items():
        seen: dict = {}
        for p in group:
            seen.setdefault(p.get("_doc"), p.get("_ceilings") or {})
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
            out.append(_verdict(key, NOT_RUN, f"{name} and {of} were not both measured on this device"))
        elif low:
            out.append(_verdict(key, DOES_NOT_HOLD, f"needs >= {100 * min_ratio:.1f}%: " + "; ".join(low)))
        else:
            out.append(_verdict(key, HOLDS, f">= {100 * min_ratio:.1f}%: " + "; ".join(found)))
    return out


# ----------------------------------------------------------------------------
# Speedup rules (atomics figures): how a candidate's speedup over a baseline
# behaves along an axis, on average, against a model, against a counter


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
            b = _choose_baseline(c, [q for q in bases if device_key(q) == key] or bases, metric, _vary(spec))
            where = f"{series_name(c)} {_where(c)}"
            if b is None:
                missing.append(f"{where}: no baseline point")
                continue
            bad = [q for q in (c, b) if _invalid(q)]
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
        return [_verdict(None, NOT_RUN, f"no point matches the candidate {json.dumps(spec.get('candidate') or {})}")]
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
            text = f"{line}: speedup " + ", ".join(f"{x}={_plain(xv)} {fmt_num(v)}x" for xv, v in steps)
            checked.append(text)
            reasons = []
            if not s1 > (1 + min_growth) * s0:
                reasons.append(f"{fmt_num(s1)}x at {x}={_plain(x1)} is not above {fmt_num((1 + min_growth) * s0)}x")
            if min_last is not None and not s1 > min_last:
                reasons.append(f"{fmt_num(s1)}x at {x}={_plain(x1)} is not above {fmt_num(min_last)}x")
            if reasons:
                broken.append(text + " [" + "; ".join(reasons) + "]")
        what = f"speedup grows along {x}" + (f" and ends above {fmt_num(min_last)}x" if min_last is not None else "")
        out.append(_decide(key, invalid=invalid[:5], measured=checked, failing=broken, notes=missing[:5],
                           not_run=f"no series with two paired points along {x}",
                           fail_prefix=f"{what} broken: ", hold_prefix=f"{what}: "))
    out += _skipped_verdicts(all_cands, {v_key(v) for v in out})
    return out


@rule("mean_speedup")
def mean_speedup(spec: dict, points: list[dict]) -> list[Verdict]:
    """The geometric mean of the candidate's speedups over the baseline (paired
    as in faster, every pair counted), per device, is below max_mean or above
    min_mean (give one).

    spec: {"candidate": matcher, "baseline": matcher, "metric": ..., "max_mean":
    1.0 | "min_mean": 1.0}. Does not hold if a point involved failed
    validation; not run without a pair."""
    if ("max_mean" in spec) == ("min_mean" in spec):
        raise ValueError("give exactly one of 'max_mean' and 'min_mean'")
    bound = float(spec.get("max_mean", spec.get("min_mean")))
    below = "max_mean" in spec
    all_cands, per_device = _speedup_pairs(spec, points)
    if not all_cands:
        return [_verdict(None, NOT_RUN, f"no point matches the candidate {json.dumps(spec.get('candidate') or {})}")]
    out = []
    for key, (pairs, invalid, missing) in per_device.items():
        measured, failing = [], []
        if pairs:
            mean = math.exp(statistics.fmean(math.log(sp) for _c, _b, sp in pairs))
            each = ", ".join(f"{_where(c)} {fmt_num(sp)}x" for c, _b, sp in pairs[:12])
            text = f"geometric mean speedup {fmt_num(mean)}x over {len(pairs)} pair(s) ({each})"
            measured.append(text)
            if not (mean < bound if below else mean > bound):
                failing.append(text)
        cmp = "<" if below else ">"
        out.append(_decide(key, invalid=invalid[:5], measured=measured, failing=failing, notes=missing[:5],
                           not_run="no pair with both points run",
                           fail_prefix=f"needs a mean {cmp} {fmt_num(bound)}x: ",
                           hold_prefix=f"mean {cmp} {fmt_num(bound)}x: "))
    out += _skipped_verdicts(all_cands, {v_key(v) for v in out})
    return out


@rule("model_error")
def model_error(spec: dict, points: list[dict]) -> list[Verdict]:
    """A model's prediction against measurement, both recorded on each
    candidate point (e.g. counter:speedup_predicted and
    counter:speedup_measured), per device.

    spec: {"candidate": matcher, "predicted": metric, "measured": metric, "x":
    axis, "max_median_error": 0.3}. Relative error |predicted - measured| /
    measured per point. Holds if the median relative error is below
    max_median_error and, in every series along x, the prediction moves the
    same way as the measurement from the smallest to the largest x (the
    predicted trend matches); does not hold otherwise or if a candidate failed
    validation; not run without a point that has both."""
    pred_m, meas_m = spec.get("predicted"), spec.get("measured")
    x = spec.get("x")
    if not isinstance(pred_m, str) or not isinstance(meas_m, str) or not isinstance(x, str):
        raise ValueError("'predicted', 'measured' (metrics) and 'x' (an axis) are required")
    max_err = float(spec.get("max_median_error", 0.3))
    all_cands = [p for p in points if matches(p, spec.get("candidate") or {})]
    if not all_cands:
        return [_verdict(None, NOT_RUN, f"no point matches the candidate {json.dumps(spec.get('candidate') or {})}")]
    out = []
    for key, group in group_by_device(not_skipped(all_cands)).items():
        invalid, missing, errors = [], [], []
        series: dict[str, dict[float, list[tuple]]] = {}
        for p in group:
            if _invalid(p):
                invalid.append(f"{_where(p)}: status {p.get('status')}, validation {validation_status(p)}")
                continue
            pv, mv, xv = stat(p, pred_m), stat(p, meas_m), x_value(p, x)
            if p.get("status") != "ok" or pv is None or mv is None or not mv > 0 or xv is None:
                missing.append(f"{_where(p)}: " + (str(p.get("error") or p.get("status")) if p.get("status") != "ok"
                                                   else f"no {pred_m} / {meas_m}"))
                continue
            errors.append(abs(pv - mv) / mv)
            series.setdefault(line_key(p, x), {}).setdefault(xv, []).append((pv, mv))
        measured, failing = [], []
        if errors:
            med = statistics.median(errors)
            text = f"median relative error {100 * med:.1f}% over {len(errors)} point(s)"
            measured.append(text)
            if not med < max_err:
                failing.append(text + f" (needs < {100 * max_err:.1f}%)")
            for line, by_x in sorted(series.items()):
                steps = sorted((xv, statistics.median(a for a, _ in v), statistics.median(b for _, b in v))
                               for xv, v in by_x.items())
                if len(steps) < 2:
                    continue
                (x0, p0, m0), (x1, p1, m1) = steps[0], steps[-1]
                trend = (f"{line}: {x}={_plain(x0)} -> {_plain(x1)} predicted {fmt_num(p0)} -> {fmt_num(p1)}, "
                         f"measured {fmt_num(m0)} -> {fmt_num(m1)}")
                measured.append(trend)
                if (p1 > p0) != (m1 > m0):
                    failing.append(trend + " (the trends differ)")
        out.append(_decide(key, invalid=invalid[:5], measured=measured, failing=failing, notes=missing[:5],
                           not_run=f"no validated point with {pred_m} and {meas_m}",
                           fail_prefix="model does not hold: ", fail_shows=failing,
                           hold_prefix=f"model holds (median error < {100 * max_err:.1f}%, trends match): "))
    out += _skipped_verdicts(all_cands, {v_key(v) for v in out})
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
        return [_verdict(None, NOT_RUN, f"no point matches the candidate {json.dumps(spec.get('candidate') or {})}")]
    out = []
    for key, (pairs, invalid, missing) in per_device.items():
        apps: dict[str, tuple[list, list]] = {}
        for c, b, sp in pairs:
            bv = stat(b, by)
            if bv is None:
                missing.append(f"{_where(b)}: no {by}")
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
        out.append(_decide(key, invalid=invalid[:5], measured=measured, failing=failing, notes=missing[:5],
                           not_run=f"fewer than two apps with a speedup and {by}",
                           fail_prefix=f"speedup does not rise as {by} falls: ",
                           hold_prefix=f"speedup rises as {by} falls: "))
    out += _skipped_verdicts(all_cands, {v_key(v) for v in out})
    return out


# ----------------------------------------------------------------------------
# Combinators


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
            if v.backend is not None and v_key(v) not in keys:
                keys.append(v_key(v))
    tables = []
    for vs in subs:
        t = {v_key(v): v for v in vs if v.backend is not None}
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
        out.append(_verdict(key, verdict, " | ".join(texts)))
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
            out.append(_verdict(key, NOT_RUN, " | ".join(_sub_text(i, v, kinds[i]) for i, v in enumerate(vs))))
        else:
            v = vs[decided]
            skipped = "".join(f" (rule {i + 1} not run)" for i in range(decided))
            out.append(_verdict(key, v.verdict, f"by rule {decided + 1} ({kinds[decided]}){skipped}: {v.detail}"))
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
