#!/usr/bin/env python3
"""Checks a `harness run --app invertedindex --dump-output` TSV against the
links found here, with Python only, by the rule of frameworks/mapreduce/apps/README.md:

  Each line is read on its own. An anchor is '<a' or '<A' followed by a space,
  tab, CR or FF; its attributes are read up to '>' or the end of the line:
  spaces and '/' separate them; a name is its first byte and the bytes up to
  a space, '/', '>' or '='; a value follows '=' (spaces around it allowed),
  double-quoted, single-quoted or unquoted (up to a space or '>'). The first
  attribute named href (any case) with a value is the link, its value taken
  as written. A quote left open drops the rest of the line. A page starts at
  byte 0 and at every line beginning '<!-- page:'; a link's value is the byte
  offset of its page's start.

Dump lines are `URL<TAB>page offset`, sorted by URL bytes then offset; a URL
may hold a tab, so a line splits at its last tab. Compared as multisets.

usage: invertedindex_check.py INPUT.html OUTPUT.tsv   (exit 0 when identical)"""
import collections
import re
import sys

ANCHOR = re.compile(rb"<[aA][ \t\r\f]")
SEPARATORS = re.compile(rb"[ \t\r\f/]*")
NAME = re.compile(rb".[^ \t\r\f/>=]*", re.S)
SPACES = re.compile(rb"[ \t\r\f]*")
UNQUOTED = re.compile(rb"[^ \t\r\f>]*")
MARKER = b"<!-- page:"


def links(line):
    pos = 0
    n = len(line)
    while True:
        m = ANCHOR.search(line, pos)
        if not m:
            return
        p = m.end()
        linked = False
        while p < n:
            p = SEPARATORS.match(line, p).end()
            if p >= n:
                break
            if line[p] == ord(">"):
                p += 1
                break
            name = NAME.match(line, p)
            p = SPACES.match(line, name.end()).end()
            if p >= n or line[p] != ord("="):
                continue
            p = SPACES.match(line, p + 1).end()
            if p < n and line[p] in b"\"'":
                close = line.find(line[p:p + 1], p + 1)
                if close < 0:
                    return  # an open quote drops the rest of the line
                value = line[p + 1:close]
                p = close + 1
            else:
                value = UNQUOTED.match(line, p).group()
                p += len(value)
            if not linked and name.group().lower() == b"href":
                linked = True
                yield value
        pos = p


def page_links(data):
    """Every link of `data`, in input order, as (url, page offset, line number
    from 1, line offset): the links of each line, the page rule above. (The
    inverted-index workload's check, inverted_index_check.py, reads them too.)"""
    page = offset = 0
    for number, line in enumerate(data.split(b"\n"), start=1):
        if line.startswith(MARKER):
            page = offset
        for url in links(line):
            yield url, page, number, offset
        offset += len(line) + 1


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    expected = collections.Counter()
    for url, page, _, _ in page_links(data):
        expected[(url, page)] += 1
    got = collections.Counter()
    previous = None
    with open(sys.argv[2], "rb") as f:
        for line in f:
            url, value = line.rstrip(b"\n").rsplit(b"\t", 1)
            item = (url, int(value))
            if previous is not None and item < previous:
                print(f"not in canonical order at {item!r}")
                return 1
            previous = item
            got[item] += 1
    if got != expected:
        missing = expected - got
        extra = got - expected
        print(f"MISMATCH: {sum(missing.values())} missing, {sum(extra.values())} unexpected "
              f"(e.g. {sorted(missing)[:3]} {sorted(extra)[:3]})")
        return 1
    pages = len({p for _, p in expected})
    print(f"identical: {sum(got.values())} links, {len({u for u, _ in got})} distinct URLs, "
          f"{pages} pages with links")
    return 0


if __name__ == "__main__":
    sys.exit(main())
