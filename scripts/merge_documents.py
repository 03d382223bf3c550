#!/usr/bin/env python3
"""Merge results documents of one experiment run per backend (`harness
reproduce --backend B` writes `<id>@<backend>.json`) into one document per
experiment, as one reproduction of every backend would have written it: the
points of all, the devices and ceilings of all, `wall_s` summed (the backends
ran one after the other), `complete` only if every part is. The reference
documents of results/reference/ are made this way when the backends were run
separately.

    python3 scripts/merge_documents.py IN_DIR OUT_DIR [--suffix .gpu.h100]

Writes OUT_DIR/<id><suffix>.json for every experiment id in IN_DIR; refuses
documents of one id that disagree on the preset. A point key in several
documents (a host baseline, such as cpu-mt, that each backend's run measured)
is kept once, from the first document (by file name).
"""

from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import sys


def merge(docs: list[dict]) -> dict:
    """One document from `docs`, all of the same experiment and preset; a
    point key already merged is not added again."""
    out = json.loads(json.dumps(docs[0]))  # a deep copy
    exp = out["experiment"]
    keys = {p.get("key") for p in out["points"]}
    for d in docs[1:]:
        if d["experiment"].get("id") != exp.get("id") or d["experiment"].get("preset") != exp.get("preset"):
            raise ValueError(f"{exp.get('id')}: documents of different experiments or presets")
        for p in d["points"]:
            if p.get("key") in keys:  # a host point both backends' runs measured: the first stays
                continue
            keys.add(p.get("key"))
            out["points"].append(p)
        out["wall_s"] = out.get("wall_s", 0) + d.get("wall_s", 0)
        out["complete"] = bool(out.get("complete")) and bool(d.get("complete"))
        devices = out["environment"].setdefault("devices", [])
        devices += [dv for dv in d["environment"].get("devices", []) if dv not in devices]
        ceilings = out.setdefault("ceilings", [])
        ceilings += [c for c in d.get("ceilings", []) if c not in ceilings]
        out["started_at"] = min(out["started_at"], d["started_at"])
        out["updated_at"] = max(out["updated_at"], d["updated_at"])
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("in_dir")
    ap.add_argument("out_dir")
    ap.add_argument("--suffix", default="")
    a = ap.parse_args(argv)
    groups: dict[str, list[str]] = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(a.in_dir, "*.json"))):
        groups[os.path.basename(path)[:-len(".json")].split("@")[0]].append(path)
    if not groups:
        print(f"no results documents in {a.in_dir}", file=sys.stderr)
        return 1
    os.makedirs(a.out_dir, exist_ok=True)
    for exp, paths in sorted(groups.items()):
        docs = []
        for path in paths:
            with open(path, encoding="utf-8") as f:
                docs.append(json.load(f))
        try:
            doc = merge(docs)
        except ValueError as e:
            print(e, file=sys.stderr)
            return 1
        target = os.path.join(a.out_dir, exp + a.suffix + ".json")
        with open(target, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
        print(f"{target}: {len(paths)} document(s), {len(doc['points'])} points, wall {doc.get('wall_s', 0):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
