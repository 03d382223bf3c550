#!/usr/bin/env python3
"""Splits a preset's experiments into N shards of about equal time, for
running one shard per GPU of a host with several (scripts/run_gpus.sh).

Each experiment costs what suite_budget.py prices it at (its reference
document's wall time, or its spec's estimate). Experiments that reuse each
other's points (a reference point's `reused_from`) stay in one shard, since
`harness reproduce` reuses points only within one run; such a group is
placed whole, largest first, on the shard with the least time so far
(longest processing time first). Within a shard the ids keep reproduce's
own order (by id), so a producer still runs before the experiments that
reuse its points.

    python3 scripts/plan_shards.py --shards 4 [--preset gpu]

prints one line per shard: the predicted seconds, then the comma-separated
ids (`harness reproduce --experiments`).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys

import suite_budget


def reuse_edges(preset: str, reference: str = suite_budget.REFERENCE) -> set[tuple[str, str]]:
    """(reuser, producer) pairs from the preset's one-GPU reference documents."""
    edges = set()
    for path in sorted(glob.glob(os.path.join(reference, "*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        exp = doc.get("experiment") or {}
        if exp.get("preset") != preset or suite_budget.several_gpus(doc):
            continue
        for p in doc.get("points") or []:
            producer = p.get("reused_from")
            if producer and producer != exp.get("id"):
                edges.add((exp["id"], producer))
    return edges


def groups(ids: list[str], edges: set[tuple[str, str]]) -> list[list[str]]:
    """The experiments of `ids` joined where one reuses another's points
    (connected components; an edge to an id not in `ids` is ignored)."""
    parent = {i: i for i in ids}

    def root(i: str) -> str:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in edges:
        if a in parent and b in parent:
            parent[root(a)] = root(b)
    out: dict[str, list[str]] = {}
    for i in sorted(ids):
        out.setdefault(root(i), []).append(i)
    return list(out.values())


def plan(seconds: dict[str, float], edges: set[tuple[str, str]], shards: int) -> list[tuple[float, list[str]]]:
    """[(predicted seconds, sorted ids)] for each of `shards` shards."""
    if shards < 1:
        raise ValueError("shards must be at least 1")
    units = sorted(((sum(seconds[i] for i in g), g) for g in groups(list(seconds), edges)),
                   key=lambda u: (-u[0], u[1]))
    bins: list[tuple[float, list[str]]] = [(0.0, []) for _ in range(shards)]
    for cost, g in units:
        k = min(range(shards), key=lambda j: (bins[j][0], j))
        bins[k] = (bins[k][0] + cost, bins[k][1] + g)
    return [(s, sorted(ids)) for s, ids in bins]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shards", type=int, required=True)
    ap.add_argument("--preset", default="gpu")
    ap.add_argument("--specs", default=suite_budget.SPECS, help=argparse.SUPPRESS)
    ap.add_argument("--reference", default=suite_budget.REFERENCE, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.shards < 1:
        ap.error("--shards must be at least 1")
    specs = suite_budget.load_specs(a.specs)
    times = suite_budget.experiment_times(a.preset, specs, a.reference)
    unpriced = sorted(i for i, (s, _, _) in times.items() if s is None)
    if unpriced:
        # Unknown cost: still run them, each priced at the per-backend rule.
        print(f"plan_shards: no time known for {', '.join(unpriced)}; counted as "
              f"{2 * suite_budget.PER_BACKEND_S:.0f} s each", file=sys.stderr)
    seconds = {i: (s if s is not None else 2 * suite_budget.PER_BACKEND_S)
               for i, (s, _, _) in times.items()}
    for s, ids in plan(seconds, reuse_edges(a.preset, a.reference), a.shards):
        print(f"{s:.0f} {','.join(ids)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
