#!/usr/bin/env python3
"""Checks a `harness run --app inverted-index --dump-output` dump against the
links indexed here from the input.

Input: HTML pages in one file, read by the MapReduce inverted index's rules
(invertedindex_check.py, whose parser this uses; frameworks/mapreduce/apps/
README.md): a page starts at byte 0 and at every line beginning '<!-- page:',
its id the byte offset of its start; each line is read on its own, the first
href value of each anchor being a link (`href=""`: the empty link). A link
holding a TAB is refused (the dump's keys cannot hold one).
Dump: one line per link URL, sorted by its bytes: `URL<TAB>LINKS<TAB>ID,ID,...`,
the ids of the pages of its LINKS occurrences, ascending (a page linking the
URL twice is listed twice). Exact.

usage: inverted_index_check.py INPUT DUMP   (exit 0 when identical, 1 when not)"""
import collections
import sys

from invertedindex_check import page_links
from map_group_check import main


def pages_by_link(path):
    with open(path, "rb") as f:
        data = f.read()
    groups = collections.defaultdict(list)
    for url, page, number, offset in page_links(data):
        if b"\t" in url:
            raise ValueError(f"line {number} at byte {offset}: the link {url!r} holds a tab")
        groups[url].append(page)
    return groups


if __name__ == "__main__":
    sys.exit(main(pages_by_link, __doc__))
