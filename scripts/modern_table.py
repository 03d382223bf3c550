#!/usr/bin/env python3
"""The side-by-side table of the modern.* experiments (README, issue 8).

For each results document of a modern.<app> experiment, at its largest size:
per variant the median total (end to end from host memory, input GB/s and
its fraction of the pinned host-to-device ceiling measured in the same run)
and the device work with the input already on the device (the sum of the
device phases after the copy in: map_count, map, sort, group, reduce,
copy_out; the verdicts' metric). Usage:

    gunzip -k results/reference/earlier/modern.*.cuda.h100.json.gz
    python3 scripts/modern_table.py results/reference/earlier/modern.*.cuda.h100.json
"""
import json
import sys

DEVICE_PHASES = ("map_count", "map", "sort", "group", "reduce", "copy_out")
ORDER = ("hashagg/pipelined", "hashagg/resident", "thrust/default", "mars/radix", "cpu/default")


def largest(points):
    size = max(p["dataset"]["size_bytes"] for p in points)
    return size, [p for p in points if p["dataset"]["size_bytes"] == size]


def ceiling(doc, backend, name):
    for c in doc.get("ceilings", []):
        if c.get("name") == name and c.get("backend") == backend:
            return c.get("value")
    return None


def rows(doc):
    points = [p for p in doc["points"] if p.get("status") == "ok"]
    if not points:
        return []
    size, points = largest(points)
    out = []
    backends = ("cuda", "opencl", "cpu")

    def order(p):
        variant = f"{p['framework']}/{p['variant']}"
        return (ORDER.index(variant) if variant in ORDER else 99,
                backends.index(p["backend"]) if p["backend"] in backends else 9)

    for p in sorted(points, key=order):
        s = p["summary"]
        total = s["total_ms"]["median"]
        phases = {k: v["median"] for k, v in s["phases_ms"].items()}
        device = sum(phases.get(k, 0.0) for k in DEVICE_PHASES)
        gbps = size / total / 1e6
        pinned = ceiling(doc, p["backend"], "h2d_pinned")
        frac = f" = {100 * gbps / pinned:.0f}%" if pinned and p["backend"] != "cpu" else ""
        variant = f"{p['framework']}/{p['variant']}"
        dev = "" if variant == "hashagg/pipelined" or p["backend"] == "cpu" else f"{device:.2f}"
        out.append((p["app"], p["dataset"]["label"], f"{variant} ({p['backend']})", f"{total:.2f}",
                    f"{gbps:.1f}{frac}",
                    dev, p["validation"]["status"]))
    return out


def main(argv):
    print("| app | size | variant | total ms | input GB/s end to end (of h2d_pinned) "
          "| device work ms | validation |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for path in argv:
        with open(path) as f:
            doc = json.load(f)
        for r in rows(doc):
            print("| " + " | ".join(r) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
