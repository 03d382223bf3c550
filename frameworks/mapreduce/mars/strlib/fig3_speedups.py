#!/usr/bin/env python3
"""mars.fig3 as the paper draws it: speedup of each GPU variant of the string
library over the C library on all CPU cores (marsstr/cpu-libc), per operation.

speedup = median <metric> of cpu-libc / median <metric> of the GPU variant, on
the same dataset (the largest of each app); metric "ops" (default: the
kernel alone, data already on the device, the paper's measure) or
"total_ms" (with the copies). The CPU point is taken from the same results
file when there is one (the same host). Prints a Markdown table; with
--out FILE.png also draws grouped bars (one group per operation, one bar per
GPU variant and device, a line at 1x). Points that failed validation are
left out and named.

usage: fig3_speedups.py [--metric ops|total_ms] [--out fig3.png] RESULTS.json...
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "scripts"))
import results_doc as rd  # noqa: E402

OPS = ["strcpy", "strcat", "memset", "strcmp", "strchr", "strstr"]


def speedups(points: list[dict], metric: str) -> tuple[dict, list[str]]:
    """{series: {app: speedup}} for the GPU variants, and the points left out."""
    pts = [p for p in rd.not_skipped(points) if p.get("framework") == "marsstr"]
    largest = {}
    for p in pts:
        largest[p.get("app")] = max(largest.get(p.get("app"), -1.0), rd.dataset_size(p))
    pts = [p for p in pts if rd.dataset_size(p) == largest[p.get("app")]]
    cpus = [p for p in pts if p.get("variant") == "cpu-libc" and rd.is_valid(p)]
    out: dict[str, dict[str, float]] = {}
    left_out = [f"{rd.series_name(p)} {p.get('app')}: status {p.get('status')}, validation "
                f"{rd.validation_status(p)}" for p in pts if not rd.is_valid(p)]
    for p in pts:
        if p.get("variant") not in ("gpu-char", "gpu-char4") or not rd.is_valid(p):
            continue
        same = [c for c in cpus if c.get("app") == p.get("app")]
        base = ([c for c in same if rd.document_index(c) == rd.document_index(p)] or same or [None])[0]
        g, c = rd.stat(p, metric), rd.stat(base, metric) if base else None
        if g and c:
            out.setdefault(rd.series_name(p), {})[str(p.get("app"))] = c / g
    return out, left_out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--metric", default="ops", choices=["ops", "total_ms"])
    ap.add_argument("--out", help="PNG (or PDF) file for the bars")
    args = ap.parse_args()
    try:
        docs = rd.load_documents(args.results)
    except rd.ResultsInputError as e:
        print(f"fig3_speedups.py: {e}", file=sys.stderr)
        return 2
    points = [p for e in rd.merge_experiments(docs) for p in e.points]
    table, left_out = speedups(points, args.metric)
    if not table:
        print("fig3_speedups.py: no valid marsstr GPU point with a cpu-libc point of the same app",
              file=sys.stderr)
        return 1
    print(f"Speedup over marsstr/cpu-libc ({args.metric}):\n")
    print("| series | " + " | ".join(OPS) + " |")
    print("| --- |" + " --- |" * len(OPS))
    for s, row in table.items():
        print(f"| {s} | " + " | ".join(rd.fmt_num(row.get(op)) if op in row else "-" for op in OPS) + " |")
    for line in left_out:
        print(f"left out: {line}")
    if args.out:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("fig3_speedups.py: matplotlib is not installed", file=sys.stderr)
            return 3
        fig, ax = plt.subplots(figsize=(9, 4.5))
        width = 0.8 / len(table)
        for i, (s, row) in enumerate(table.items()):
            xs = [k - 0.4 + width * (i + 0.5) for k, op in enumerate(OPS) if op in row]
            ax.bar(xs, [row[op] for op in OPS if op in row], width * 0.95, label=s, edgecolor="black",
                   linewidth=0.4)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(OPS)))
        ax.set_xticklabels(OPS)
        ax.set_ylabel(f"speedup over cpu-libc ({args.metric})")
        ax.set_title("mars.fig3: GPU string library vs the C library on all CPU cores")
        ax.legend(fontsize=8)
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        fig.savefig(args.out, dpi=150)
        print(f"fig3_speedups.py: wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
