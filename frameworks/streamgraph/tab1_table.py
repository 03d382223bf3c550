#!/usr/bin/env python3
"""Table 1 of the stream-graph paper from a streamit.tab1 results file.

The points of streamit.tab1 are validated uniprocessor runs (streamgraph/cpu-seq)
whose counters are the table's columns; this prints them as a Markdown table,
one row per benchmark and N:

    python3 frameworks/streamgraph/tab1_table.py out/reproduce/results/streamit.tab1.json
"""

import json
import sys

COLUMNS = [("filters", "filters"), ("operators", "operators"), ("channels", "channels"),
           ("stateful_filters", "stateful"), ("shared_memory_bytes", "shared memory (B)"),
           ("total_buffer_bytes", "all buffers (B)"), ("partitions_c2070", "partitions (C2070)"),
           ("single_fits_c2070", "single fits (C2070)")]


def rows(doc):
    out = []
    for p in doc.get("points", []):
        if p.get("status") != "ok":
            continue
        params = p.get("params") or {}
        n = params.get("n", (p.get("axes") or {}).get("n"))
        counters = p.get("counters") or {}
        out.append((p.get("app", "?"), int(n) if n is not None else -1,
                    [counters.get(k) for k, _ in COLUMNS]))
    return sorted(out)


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    print("| benchmark | N | " + " | ".join(t for _, t in COLUMNS) + " |")
    print("| --- | --- |" + " --- |" * len(COLUMNS))
    for app, n, values in rows(doc):
        cells = ["" if v is None else str(int(v)) if float(v).is_integer() else str(v) for v in values]
        print(f"| {app} | {n} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
