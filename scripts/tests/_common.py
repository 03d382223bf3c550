"""Shared paths and fixtures for the scripts/ tests (plain unittest, run by ctest)."""

import copy
import json
import os
import sys

TESTS = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(TESTS)
ROOT = os.path.dirname(SCRIPTS)
EXAMPLE = os.path.join(ROOT, "results", "examples", "example-results.json")
EXAMPLE_V2 = os.path.join(ROOT, "results", "examples", "example-results-v2.json")
REFERENCE = os.path.join(ROOT, "results", "reference", "earlier", "mars.wordcount-smoke.h100.json")
SCHEMA = os.path.join(ROOT, "results", "schema", "results.schema.json")

if SCRIPTS not in sys.path:
    sys.path.insert(0, SCRIPTS)


def load_example() -> dict:
    with open(EXAMPLE, encoding="utf-8") as f:
        return json.load(f)


def load_example_v2() -> dict:
    with open(EXAMPLE_V2, encoding="utf-8") as f:
        return json.load(f)


def write_json(path: str, doc) -> str:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path


def make_point(framework, backend, label, size, total_ms, *, variant="default", app="wordcount",
               device_index=0, device_name=None, status="ok", validation="passed", error=None):
    """A minimal schema-valid point with three repetitions around total_ms."""
    device_name = device_name or {"cpu": "Host CPU", "cuda": "NVIDIA H100 80GB HBM3",
                                  "opencl": "pthread-Some CPU"}[backend]
    key = f"{framework}/{variant}/{app}/{backend}:{device_index}/gen/{label}"
    p = {"key": key, "framework": framework, "variant": variant, "app": app, "backend": backend,
         "device_index": device_index, "device_name": device_name,
         "dataset": {"label": label, "generator": "gen", "path": "/tmp/x", "size_bytes": size, "seed": 1,
                     "checksum": "xxh64:0123456789abcdef"},
         "params": {}, "work": {"input_bytes": size}, "warmup": 1, "phase_order": ["map", "reduce"],
         "validation": {"status": validation}, "status": status, "error": error}
    if status == "error":
        p["repetitions"] = []
        p["validation"] = {"status": "not_run"}
        p["error"] = error or "no device"
        return p
    reps = [total_ms * f for f in (0.98, 1.0, 1.02)]
    p["repetitions"] = [{"total_ms": t, "phases_ms": {"map": t * 0.6, "reduce": t * 0.4},
                         "validation": "passed" if validation == "passed" else validation} for t in reps]
    p["summary"] = {"total_ms": {"median": total_ms, "min": min(reps), "max": max(reps), "mean": total_ms,
                                 "stddev": 0.02 * total_ms, "n": 3}}
    return p


def make_document(points, verdict=None, experiment_id="test.exp") -> dict:
    doc = copy.deepcopy(load_example())
    doc["experiment"]["id"] = experiment_id
    if verdict is not None:
        doc["experiment"]["verdict"] = verdict
    doc["points"] = points
    return doc


D2D = 2000.0  # GB/s, the d2d_copy ceiling of the crafted version-2 points
MiB = 1 << 20
GiB = 1 << 30


def axes(gs, seg="1024"):
    """Axis values of a crafted version-2 point: group_size and segment."""
    return {"group_size": str(gs), "segment": str(seg)}


def make_v2_point(variant="tree", axes=None, fraction=0.8, *, framework="reduction", app="segsum",
                  backend="cuda", device_index=0, device_name="NVIDIA H100 80GB HBM3", label="1GiB",
                  size=GiB, status="ok", validation="passed", error=None, skip_reason=None,
                  rate_name="dram@reduce", ceiling="d2d_copy", extra_devices=()):
    """A schema-valid version-2 point of a segmented sum: phases copy_in and
    reduce; the rate `rate_name` (DRAM bytes over "reduce") reaches `fraction`
    of a d2d_copy ceiling of D2D GB/s (ceiling=None: no ceiling measured;
    fraction=None: no such rate)."""
    axes = dict(axes if axes is not None else {"group_size": "256", "segment": "1024"})
    key = (f"{framework}/{variant}/{app}/{backend}:{device_index}/uniform-f32/{label}"
           + "".join(f"/{k}={v}" for k, v in axes.items()))
    devices = [{"backend": backend, "index": device_index, "name": device_name}]
    devices += [{"backend": b, "index": i, "name": n} for b, i, n in extra_devices]
    p = {"key": key, "framework": framework, "variant": variant, "app": app, "backend": backend,
         "device_index": device_index, "device_name": device_name, "devices": devices,
         "dataset": {"label": label, "generator": "uniform-f32", "path": "/tmp/x", "size_bytes": size, "seed": 42,
                     "checksum": "xxh64:0123456789abcdef"},
         "params": dict(axes, items_per_thread="4"), "axes": axes, "warmup": 1, "repetitions": [],
         "status": status, "error": error}
    val = {"kind": "tolerance", "tolerance": {"rel": 1e-4, "abs": 0.0}, "reference": "segsum CPU reference"}
    if status == "skipped":
        p.update(skip_reason=skip_reason or "declined", phase_order=[])
        p["validation"] = dict(val, status="skipped", message="the point was skipped")
        return p
    if status == "error":
        p.update(error=error or "out of memory", phase_order=[])
        p["validation"] = dict(val, status="not_run", message="the point did not run")
        return p
    reduce_ms = size / 1e9 / ((fraction or 0.5) * D2D) * 1e3
    copy_ms = size / 1e9 / 50.0 * 1e3
    reps = []
    for f in (0.99, 1.0, 1.01):
        reps.append({"total_ms": (copy_ms + reduce_ms) * f, "phases_ms": {"copy_in": copy_ms * f, "reduce": reduce_ms * f},
                     "counters": {"blocks": 4096.0}, "validation": "passed" if validation == "passed" else validation})
    p["phase_order"] = ["copy_in", "reduce"]
    p["repetitions"] = reps
    p["work"] = {"input_bytes": size, "items": {"elements": size // 4},
                 "bytes": [{"level": "dram", "read": size, "written": 0, "phase": "reduce"}]}
    p["measurement"] = {"warmup": 1, "repetitions": 3, "stopped": "spread", "rel_spread": 0.01, "cold": False}
    totals = [r["total_ms"] for r in reps]

    def stat(xs):
        return {"median": xs[1], "min": min(xs), "max": max(xs), "mean": sum(xs) / 3, "stddev": 0.01 * xs[1], "n": 3}
    p["summary"] = {"total_ms": stat(totals),
                    "phases_ms": {ph: stat([r["phases_ms"][ph] for r in reps]) for ph in ("copy_in", "reduce")}}
    p["counters"] = {"blocks": 4096.0}
    p["rates"] = []
    if fraction is not None:
        value = size / 1e9 / (reduce_ms / 1e3)
        rate = {"name": rate_name, "kind": "bytes", "value": value, "unit": "GB/s", "over": "reduce",
                "ceiling": None, "ceiling_value": None, "fraction": None}
        if ceiling:
            rate.update(ceiling=ceiling, ceiling_value=D2D, fraction=value / D2D)
        p["rates"].append(rate)
    p["validation"] = dict(val, status=validation, message="compared")
    if validation == "failed":
        p["status"] = "failed"
    return p


def make_document_v2(points, verdict=None, experiment_id="test.v2") -> dict:
    doc = copy.deepcopy(load_example_v2())
    doc["experiment"]["id"] = experiment_id
    if verdict is not None:
        doc["experiment"]["verdict"] = verdict
    doc["points"] = points
    return doc
