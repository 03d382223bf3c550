#!/usr/bin/env python3
"""mars.tab5: lines of user code per app, ours beside the Mars paper's table 5.

Counts the non-blank, non-comment lines of each app's user code in the
portable dialect: `<app>_types.clh` (types, key normalization, combine) and
`<app>.clh` (map, reduce), summed over the jobs of the chained apps (page view
count: pvc_dedup + pvc_count; page view rank: those and pvr_rank). The host
side of an app (record splitting, side data, the CPU reference) is not user
code of a Mars program and is not counted. Prints a Markdown table.

usage: mars_tab5.py [REPO]   (default: this script's repository)"""
import os
import re
import sys

# Mars paper, table 5: (Mars, Phoenix) lines of user-defined code.
PAPER = {"invertedindex": (375, 365), "stringmatch": (173, 250), "similarity": (258, 196),
         "matrixmult": (235, 317), "pageviewcount": (276, 292), "pageviewrank": (152, 166)}
JOBS = {"pageviewcount": ["pvc_dedup", "pvc_count"],
        "pageviewrank": ["pvc_dedup", "pvc_count", "pvr_rank"]}
LABELS = {"invertedindex": "II", "stringmatch": "SM", "similarity": "SS", "matrixmult": "MM",
          "pageviewcount": "PVC", "pageviewrank": "PVR"}


def code_lines(path: str) -> int:
    """Non-blank lines outside /* */ and // comments."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return sum(1 for line in text.splitlines() if line.strip())


def app_lines(repo: str, app: str) -> int:
    total = 0
    for job in JOBS.get(app, [app]):
        folder = os.path.join(repo, "frameworks", "mapreduce", "apps", job)
        total += code_lines(os.path.join(folder, f"{job}_types.clh"))
        total += code_lines(os.path.join(folder, f"{job}.clh"))
    return total


HEADER = ["app", "ours (dialect user code)", "Mars paper", "Phoenix paper"]


def rows(repo: str) -> list[list]:
    """One row per app of table 5: label, our count, the paper's Mars and Phoenix counts."""
    return [[f"{LABELS[app]} ({app})", app_lines(repo, app), mars, phoenix]
            for app, (mars, phoenix) in PAPER.items()]


def main() -> int:
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    print("| " + " | ".join(HEADER) + " |")
    print("|" + " --- |" * len(HEADER))
    for row in rows(repo):
        print("| " + " | ".join(str(c) for c in row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
