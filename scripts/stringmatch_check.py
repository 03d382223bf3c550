#!/usr/bin/env python3
"""Checks a `harness run --app stringmatch --dump-output` TSV against the
matches found here, with Python only: every byte offset where PATTERN's bytes
start in the input, overlapping occurrences included ("aa" occurs twice in
"aaa"), byte-exact and case-sensitive.

Dump lines are `PATTERN<TAB>offset`, sorted by offset.

usage: stringmatch_check.py INPUT OUTPUT.tsv PATTERN   (exit 0 when identical)"""
import sys


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    pattern = sys.argv[3].encode()
    expected = []
    at = data.find(pattern)
    while at >= 0:
        expected.append(at)
        at = data.find(pattern, at + 1)
    got = []
    with open(sys.argv[2], "rb") as f:
        for line in f:
            key, value = line.rstrip(b"\n").rsplit(b"\t", 1)
            if key != pattern:
                print(f"unexpected key {key!r} (pattern {pattern!r})")
                return 1
            got.append(int(value))
    if got != sorted(got):
        print("offsets not in ascending order")
        return 1
    if got != expected:
        missing = sorted(set(expected) - set(got))
        extra = sorted(set(got) - set(expected))
        print(f"MISMATCH: {len(expected)} expected, {len(got)} got; missing {missing[:5]}, "
              f"unexpected {extra[:5]}")
        return 1
    print(f"identical: {len(got)} matches of {pattern!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
