"""Shared paths and fixtures for the scripts/ tests (plain unittest, run by ctest)."""

import copy
import json
import os
import sys

TESTS = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(TESTS)
ROOT = os.path.dirname(SCRIPTS)
EXAMPLE = os.path.join(ROOT, "results", "examples", "example-results.json")
SCHEMA = os.path.join(ROOT, "results", "schema", "results.schema.json")

if SCRIPTS not in sys.path:
    sys.path.insert(0, SCRIPTS)


def load_example() -> dict:
    with open(EXAMPLE, encoding="utf-8") as f:
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
