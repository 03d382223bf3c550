#!/usr/bin/env python3
"""Checks a `harness run --app patent-citation --dump-output` dump against the
reverse citation directory computed here from the input.

Input: fixed 18-byte records `CITING,CITED\\n`, both 8-digit decimal patent
numbers. Dump: one line per cited patent, sorted by its 8 digits:
`CITED<TAB>COUNT<TAB>CITING,CITING,...`, the citing numbers ascending without
zero padding, one per record (a repeated record lists its citing patent
twice). Exact: no tolerance.

usage: patent_citation_check.py INPUT DUMP   (exit 0 when identical, 1 when not)"""
import collections
import sys

from map_group_check import main

RECORD = 18


def citing_by_cited(path):
    with open(path, "rb") as f:
        data = f.read()
    groups = collections.defaultdict(list)
    for at in range(0, len(data), RECORD):
        record = data[at:at + RECORD]
        citing, comma, cited, newline = record[0:8], record[8:9], record[9:17], record[17:18]
        if len(record) < RECORD or comma != b"," or newline != b"\n" \
                or not (citing.isdigit() and cited.isdigit()):
            raise ValueError(f"record {at // RECORD} at byte {at} is not CITING,CITED\\n "
                             f"with 8-digit numbers: {record!r}")
        groups[cited].append(int(citing))
    return groups


if __name__ == "__main__":
    sys.exit(main(citing_by_cited, __doc__))
