#!/usr/bin/env python3
"""Checks `harness run --app pageviewcount` or `--app pageviewrank` dumps
against page views counted here: an entry is a log line without its '\\n' (and
a '\\r' before it), empty lines are not entries, duplicates count once, and a
page view is an entry `URL<TAB>...` with a non-empty URL.

pageviewcount dump lines: `URL<TAB>views`, sorted by URL bytes.
pageviewrank dump lines: `rank<TAB>URL<TAB>views`, the TOP URLs by views
(descending, then URL bytes).

usage: pageview_check.py count INPUT OUTPUT.tsv
       pageview_check.py rank INPUT OUTPUT.tsv [TOP=10]   (exit 0 when identical)"""
import collections
import sys


def page_views(path):
    with open(path, "rb") as f:
        data = f.read()
    entries = set()
    for line in data.split(b"\n"):
        if line.endswith(b"\r"):
            line = line[:-1]
        if line:
            entries.add(line)
    views = collections.Counter()
    for e in entries:
        url, tab, _ = e.partition(b"\t")
        if tab and url:
            views[url] += 1
    return views


def main() -> int:
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in ("count", "rank"):
        print(__doc__, file=sys.stderr)
        return 2
    views = page_views(sys.argv[2])
    with open(sys.argv[3], "rb") as f:
        got = [line.rstrip(b"\n") for line in f]
    if sys.argv[1] == "count":
        expected = [url + b"\t" + str(n).encode() for url, n in sorted(views.items())]
    else:
        top = int(sys.argv[4]) if len(sys.argv) == 5 else 10
        ranked = sorted(views.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
        expected = [f"{r + 1}\t".encode() + url + b"\t" + str(n).encode()
                    for r, (url, n) in enumerate(ranked)]
    if got != expected:
        bad = next(i for i in range(max(len(got), len(expected)))
                   if i >= len(got) or i >= len(expected) or got[i] != expected[i])
        print(f"MISMATCH at line {bad + 1}: got {got[bad] if bad < len(got) else None!r}, "
              f"expected {expected[bad] if bad < len(expected) else None!r} "
              f"({len(got)} lines, {len(expected)} expected)")
        return 1
    print(f"identical: {len(expected)} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
