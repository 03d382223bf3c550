#!/usr/bin/env python3
"""Checks a `harness run --app geo-location --dump-output` dump against the
articles grouped by location here from the input.

Input: lines `ARTICLE_ID<TAB>TITLE<TAB>LOCATION<TAB>TIMESTAMP[<TAB>...]`; a
'\\r' ending a line is stripped, empty lines are skipped, a last line without
'\\n' counts. The id is decimal digits below 2^32, the location non-empty.
Dump: one line per location, sorted by its bytes:
`LOCATION<TAB>COUNT<TAB>ID,ID,...`, the ids ascending, one per line (an id on
two lines of a location is listed twice). Exact: no tolerance.

usage: geo_location_check.py INPUT DUMP   (exit 0 when identical, 1 when not)"""
import collections
import sys

from map_group_check import main


def articles_by_location(path):
    with open(path, "rb") as f:
        data = f.read()
    groups = collections.defaultdict(list)
    offset = 0
    for number, line in enumerate(data.split(b"\n"), start=1):
        start, offset = offset, offset + len(line) + 1
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line:
            continue
        fields = line.split(b"\t")
        where = f"line {number} at byte {start}"
        if len(fields) < 4:
            raise ValueError(f"{where}: {len(fields)} fields, at least 4 expected")
        if not fields[0].isdigit() or int(fields[0]) >= 2 ** 32:
            raise ValueError(f"{where}: article id {fields[0]!r} is not a number below 2^32")
        if not fields[2]:
            raise ValueError(f"{where}: the location is empty")
        groups[fields[2]].append(int(fields[0]))
    return groups


if __name__ == "__main__":
    sys.exit(main(articles_by_location, __doc__))
