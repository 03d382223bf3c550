#!/usr/bin/env python3
"""The results-document model: reading the harness's JSON results documents and
what their points say. scripts/report.py, scripts/plot.py and the verdict rules
(scripts/verdict_rules/) read documents only through this module.

Documents: load_document, load_documents (results format versions 1 and 2,
else ResultsInputError), merge_experiments (points of every document grouped
by experiment id, as Experiment; document_index and point_ceilings of a
merged point).

Points: identity (device_key, device_label, short_device, series_name,
point_devices, dataset_label, dataset_size), status (validation_status,
is_valid, is_skipped, skip_reason, not_skipped), axes and params
(point_axes, axes_text, axes_order, x_value, line_key), rates (point_rates,
find_rate, rate_fraction), selection (matches, group_by_device,
merge_phase_orders), and text (value_text, fmt_num, as_number).

Metrics (stat(), the rules' "metric", the plots' "y"): "total_ms", a phase
name, phases joined by "+" (their sum), "throughput_gbps", "rate:<name>" (the
value of the point's rate <name>) and "fraction:<name>" (that rate's fraction
of its measured ceiling); the last three are higher-is-better
(higher_is_better, metric_unit; the prefixes are RATE_PREFIX, FRACTION_PREFIX
and COUNTER_PREFIX). "counter:<name>" is a point counter (e.g. a hit rate
merged from Nsight Compute by scripts/ncu_counters.py). samples() gives the
per-repetition values of a time.

Skipped points (status "skipped", format version 2) declined to run: no
repetitions, no summary.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
import statistics
from dataclasses import dataclass
from typing import Iterable


# ----------------------------------------------------------------------------
# Loading and merging documents


SUPPORTED_VERSIONS = (1, 2)


class ResultsInputError(Exception):
    """An input file that cannot be read, is not JSON, or is not a results document."""


def load_document(path: str) -> dict:
    """One results document (a dict with a "points" list), checked for a
    supported schema_version."""
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
    """load_document of each path, in order."""
    return [load_document(p) for p in paths]


def _parse_time(text) -> _dt.datetime | None:
    if not isinstance(text, str):
        return None
    try:
        return _dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def wall_seconds(doc: dict) -> float | None:
    """What the run of a document cost in wall time: its "wall_s", or for
    documents written before that was recorded updated_at - started_at
    (whole seconds); None when neither can be read."""
    w = doc.get("wall_s")
    if isinstance(w, (int, float)) and not isinstance(w, bool) and w >= 0:
        return float(w)
    start, end = _parse_time(doc.get("started_at")), _parse_time(doc.get("updated_at"))
    if start is None or end is None or end < start:
        return None
    return (end - start).total_seconds()


@dataclass
class Experiment:
    """The points of one experiment id over every document that has it."""
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


def _device_type(doc: dict, p: dict) -> str | None:
    """"gpu", "cpu", ... of the point's device as its document's environment
    lists it; None when it is not listed."""
    env = doc.get("environment") if isinstance(doc.get("environment"), dict) else {}
    for d in env.get("devices") or []:
        if (isinstance(d, dict) and d.get("backend") == p.get("backend")
                and d.get("index", 0) == p.get("device_index", 0)):
            return str(d.get("type")) if d.get("type") else None
    return None


def device_type(p: dict) -> str | None:
    """The type ("gpu", "cpu", ...) of a merged point's device, from its
    document's environment; for unlisted devices, "cpu" when the name is a
    PoCL CPU device's ("pthread-...", "cpu-..."), else None."""
    t = p.get("_device_type")
    if t:
        return str(t)
    if re.match(r"^(?:cpu|pthread|basic|tbb)-", str(p.get("device_name", ""))):
        return "cpu"
    return None


def merge_experiments(docs: list[dict]) -> list[Experiment]:
    """Group the points of all documents by experiment id, in first-seen order.
    Each point copy carries "_doc", the index of its document,
    "_ceilings", {name: value} of the ceilings its document measured on its
    device, and "_device_type", the device's type (read them with
    document_index, point_ceilings and device_type)."""
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
                exp.points.append(dict(p, _doc=i, _ceilings=_device_ceilings(doc, p),
                                       _device_type=_device_type(doc, p)))
    for exp in by_id.values():
        docs_of: dict[str, set] = {}
        for p in exp.points:
            docs_of.setdefault(str(p.get("key")), set()).add(p["_doc"])
        exp.duplicates = [k for k, d in docs_of.items() if len(d) > 1]
    return list(by_id.values())


def document_index(p: dict) -> int | None:
    """Index of the document a merged point came from (None if not merged)."""
    return p.get("_doc")


def point_ceilings(p: dict) -> dict:
    """{name: value} of the ceilings the merged point's document measured on its device."""
    return p.get("_ceilings") or {}


# ----------------------------------------------------------------------------
# Points


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


def value_text(v) -> str:
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
    return " ".join(f"{k}={value_text(v)}" for k, v in point_axes(p).items() if k not in set(skip))


def axes_order(p: dict) -> tuple:
    """Sort key of a point's axis values: numerically where they are numbers."""
    out = []
    for k, v in point_axes(p).items():
        x = x_value(p, k)
        out.append((0, x, "") if x is not None else (1, 0.0, value_text(v)))
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


def as_number(x) -> float | None:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def rate_fraction(r: dict) -> float | None:
    """A rate's fraction of its ceiling: the runner's "fraction", else value /
    ceiling_value when both are known."""
    f = as_number(r.get("fraction"))
    if f is not None:
        return f
    value, ceiling = as_number(r.get("value")), as_number(r.get("ceiling_value"))
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


# ----------------------------------------------------------------------------
# Metrics, selection and number text


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
        return as_number(r.get("value")) if r else None
    if metric.startswith(FRACTION_PREFIX):
        r = find_rate(p, metric[len(FRACTION_PREFIX):])
        return rate_fraction(r) if r else None
    if metric.startswith(COUNTER_PREFIX):
        counters = p.get("counters") if isinstance(p.get("counters"), dict) else {}
        return as_number(counters.get(metric[len(COUNTER_PREFIX):]))
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
        return value_text(have) == value_text(want)
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
