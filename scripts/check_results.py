#!/usr/bin/env python3
"""Validate harness results documents against results/schema/results.schema.json.

    python3 scripts/check_results.py FILE...  [--schema SCHEMA] [--quiet]

Reads results format versions 1 and 2. Besides the JSON Schema (draft
2020-12), a few rules a schema cannot express are checked (results/README.md,
"Validation"):
  * point keys are unique within a document;
  * summary.total_ms.n equals the number of repetitions;
  * every phase in a repetition's phases_ms is listed in the point's phase_order;
  * per-repetition counters are numbers;
  * version 2: every rate's "over" is "total_ms" or a phase of phase_order;
    a rate's fraction equals value / ceiling_value (1e-6 relative) when both
    are given, and is null without a ceiling_value; a skipped point has a
    skip_reason, no repetitions and no summary; every axis of a point is in its params
    with the same value (compared as text); devices[0] is the primary device.

Exit status: 0 all documents valid; 1 at least one is invalid (one line per
error: FILE: PATH: message); 2 a file could not be read or is not JSON (this
wins over 1); 3 the jsonschema package is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMA = os.path.join(os.path.dirname(HERE), "results", "schema", "results.schema.json")


class Unreadable(Exception):
    """A file that cannot be read or parsed as JSON."""


def load_json(path: str):
    try:
        with open(path, "r", encoding="utf-8") as f:
            return json.load(f)
    except (OSError, UnicodeDecodeError) as e:
        raise Unreadable(f"{path}: cannot read: {e}") from e
    except json.JSONDecodeError as e:
        raise Unreadable(f"{path}: not valid JSON: {e}") from e


def _json_path(parts) -> str:
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def _point_label(doc, path_parts) -> str:
    """'(key ...)' for errors inside a point, to make the line findable."""
    parts = list(path_parts)
    if len(parts) >= 2 and parts[0] == "points" and isinstance(parts[1], int):
        points = doc.get("points") if isinstance(doc, dict) else None
        if isinstance(points, list) and parts[1] < len(points):
            p = points[parts[1]]
            if isinstance(p, dict) and isinstance(p.get("key"), str):
                return f" (point {p['key']})"
    return ""


def make_validator(schema_path: str = DEFAULT_SCHEMA):
    """A Draft 2020-12 validator for the results schema (raises ImportError
    without jsonschema, Unreadable for a bad schema file)."""
    import jsonschema  # noqa: PLC0415 - optional dependency, reported by main()

    schema = load_json(schema_path)
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


FRACTION_REL_TOL = 1e-6


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _as_text(v) -> str:
    """Axis and param values compare as text: 128, 128.0 and "128" are equal."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _point_errors(i: int, p: dict) -> list[tuple[list, str]]:
    """Rules beyond the schema for one point."""
    errors: list[tuple[list, str]] = []
    reps = p.get("repetitions")
    summary = p.get("summary")
    if isinstance(reps, list) and isinstance(summary, dict):
        total = summary.get("total_ms")
        if isinstance(total, dict) and isinstance(total.get("n"), int) and total["n"] != len(reps):
            errors.append((["points", i, "summary", "total_ms", "n"],
                           f"n is {total['n']} but there are {len(reps)} repetitions"))
    order = p.get("phase_order")
    known = set(order) if isinstance(order, list) else None
    for r, rep in enumerate(reps if isinstance(reps, list) else []):
        if not isinstance(rep, dict):
            continue
        phases = rep.get("phases_ms")
        if known is not None and isinstance(phases, dict):
            extra = sorted(set(phases) - known)
            if extra:
                errors.append((["points", i, "repetitions", r, "phases_ms"],
                               f"phases not in phase_order: {', '.join(extra)}"))
        counters = rep.get("counters")
        if isinstance(counters, dict):
            for name, value in counters.items():
                if not _is_number(value):
                    errors.append((["points", i, "repetitions", r, "counters", name],
                                   f"counter {name!r} is {value!r}, not a number"))

    if p.get("status") == "skipped":
        if not isinstance(p.get("skip_reason"), str) or not p["skip_reason"].strip():
            errors.append((["points", i], "skipped point without a skip_reason"))
        if reps:
            errors.append((["points", i, "repetitions"],
                           f"skipped point has {len(reps) if isinstance(reps, list) else 'some'} repetition(s)"))
        if "summary" in p:
            errors.append((["points", i, "summary"], "skipped point has a summary"))

    rates = p.get("rates")
    for r, rate in enumerate(rates if isinstance(rates, list) else []):
        if not isinstance(rate, dict):
            continue
        over = rate.get("over")
        if isinstance(over, str) and over != "total_ms" and (known is None or over not in known):
            errors.append((["points", i, "rates", r, "over"],
                           f"rate {rate.get('name')!r} is over {over!r}, neither total_ms nor a phase "
                           "of phase_order"))
        value, ceiling, fraction = rate.get("value"), rate.get("ceiling_value"), rate.get("fraction")
        if _is_number(fraction) and _is_number(ceiling) and _is_number(value) and ceiling > 0:
            expected = value / ceiling
            if abs(fraction - expected) > FRACTION_REL_TOL * max(abs(expected), 1e-300):
                errors.append((["points", i, "rates", r, "fraction"],
                               f"rate {rate.get('name')!r}: fraction {fraction!r} is not value / ceiling_value "
                               f"= {value!r} / {ceiling!r} = {expected!r}"))
        elif _is_number(fraction) and not _is_number(ceiling):
            errors.append((["points", i, "rates", r, "fraction"],
                           f"rate {rate.get('name')!r}: fraction {fraction!r} without a ceiling_value"))

    # An axis is a parameter of the variant or app (params) or of the
    # dataset's generator (dataset.params, e.g. kv-pairs key_bytes).
    axes = p.get("axes")
    params = p.get("params") if isinstance(p.get("params"), dict) else {}
    dataset = p.get("dataset") if isinstance(p.get("dataset"), dict) else {}
    generator_params = dataset.get("params") if isinstance(dataset.get("params"), dict) else {}
    if isinstance(axes, dict):
        for name, value in axes.items():
            where, given = ("params", params) if name in params else ("dataset.params", generator_params)
            if name not in given:
                errors.append((["points", i, "axes", name], f"axis {name!r} is not in params or dataset.params"))
            elif _as_text(given[name]) != _as_text(value):
                errors.append((["points", i, "axes", name],
                               f"axis {name}={_as_text(value)} but {where} has {name}={_as_text(given[name])}"))

    devices = p.get("devices")
    if isinstance(devices, list) and devices and isinstance(devices[0], dict):
        first = devices[0]
        if (first.get("backend"), first.get("index")) != (p.get("backend"), p.get("device_index")):
            errors.append((["points", i, "devices", 0],
                           f"first device {first.get('backend')}:{first.get('index')} is not the point's "
                           f"{p.get('backend')}:{p.get('device_index')}"))
    return errors


def semantic_errors(doc) -> list[tuple[list, str]]:
    """Rules beyond the schema; returns (path parts, message) pairs."""
    errors: list[tuple[list, str]] = []
    if not isinstance(doc, dict) or not isinstance(doc.get("points"), list):
        return errors
    seen: dict[str, int] = {}
    for i, p in enumerate(doc["points"]):
        if not isinstance(p, dict):
            continue
        key = p.get("key")
        if isinstance(key, str):
            if key in seen:
                errors.append((["points", i, "key"], f"duplicate key {key!r} (also points[{seen[key]}])"))
            else:
                seen[key] = i
        errors += _point_errors(i, p)
    return errors


def check_document(doc, validator) -> list[str]:
    """All problems of one parsed document, as 'PATH: message' strings."""
    problems = []
    for err in sorted(validator.iter_errors(doc), key=lambda e: [str(x) for x in e.absolute_path]):
        parts = list(err.absolute_path)
        message = err.message
        if len(message) > 300:
            message = message[:297] + "..."
        problems.append(f"{_json_path(parts)}{_point_label(doc, parts)}: {message}")
    for parts, message in semantic_errors(doc):
        problems.append(f"{_json_path(parts)}{_point_label(doc, parts)}: {message}")
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Validate harness results documents against the schema.")
    ap.add_argument("files", nargs="+", metavar="FILE")
    ap.add_argument("--schema", default=DEFAULT_SCHEMA, help="schema file (default: %(default)s)")
    ap.add_argument("--quiet", "-q", action="store_true", help="print errors only")
    args = ap.parse_args(argv)

    try:
        validator = make_validator(args.schema)
    except ImportError:
        print("check_results.py: the jsonschema package is not installed (pip install jsonschema)",
              file=sys.stderr)
        return 3
    except Unreadable as e:
        print(f"check_results.py: schema {e}", file=sys.stderr)
        return 2

    unreadable = invalid = False
    for path in args.files:
        try:
            doc = load_json(path)
        except Unreadable as e:
            print(e)
            unreadable = True
            continue
        problems = check_document(doc, validator)
        for line in problems:
            print(f"{path}: {line}")
        if problems:
            invalid = True
        elif not args.quiet:
            print(f"{path}: ok")
    if unreadable:
        return 2
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
