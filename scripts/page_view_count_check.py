#!/usr/bin/env python3
"""Checks a `harness run --app page-view-count --dump-output` dump against the
page views counted here from the input.

Input: any bytes, a web log. An entry is a line without its '\\n' and without
one '\\r' right before it (or before the end, for a last line without '\\n');
empty entries are skipped. An entry is a page view when it has a TAB at a
position > 0; its URL is the bytes before its first TAB. Every page view
counts: identical lines are counted each time (the MapReduce pageviewcount,
pageview_check.py, counts distinct entries).
Dump: one line per URL, sorted by its bytes: `URL<TAB>VIEWS`. Exact.

usage: page_view_count_check.py INPUT DUMP   (exit 0 when identical, 1 when not)"""
import collections
import sys

from map_group_check import main


def views_by_url(path):
    """{url: [line number of each of its page views]}."""
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # after the final '\n': no line
    views = collections.defaultdict(list)
    for number, line in enumerate(lines, start=1):
        if line.endswith(b"\r"):
            line = line[:-1]
        url, tab, _ = line.partition(b"\t")
        if tab and url:
            views[url].append(number)
    return views


if __name__ == "__main__":
    sys.exit(main(views_by_url, __doc__, lists=False))
