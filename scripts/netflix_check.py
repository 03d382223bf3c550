#!/usr/bin/env python3
"""Checks a `harness run --app netflix --dump-output` dump against the user
pair similarities computed here, with Python only. Exact (integers only).

The input is an array of 40-byte little-endian records; the fields read are
u32 user_a (bytes 4-7), u32 user_b (8-11), u16 rating_a (12-13) and u16
rating_b (14-15), with user_a < user_b and ratings 1..5. For every pair
(user_a, user_b) the answer is the sum over its records of
(rating_a - 3) * (rating_b - 3) and its number of records (common movies).
Dump lines are `AAAAAAAAAA:BBBBBBBBBB<TAB>similarity<TAB>movies`, the users
as zero-padded 10-digit decimals, sorted by the key.

usage: netflix_check.py INPUT DUMP   (exit 0 when identical)"""
import struct
import sys

from dump_compare import compare_dump


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    if len(data) % 40:
        print(f"input: {len(data)} bytes is not a whole number of 40-byte records")
        return 1
    pairs = {}
    for i, (a, b, ra, rb) in enumerate(struct.iter_unpack("<4xIIHH24x", data)):
        if not (a < b and 1 <= ra <= 5 and 1 <= rb <= 5):
            print(f"input: record {i} (byte offset {40 * i}) is malformed: users {a}, {b}, "
                  f"ratings {ra}, {rb}")
            return 1
        tally = pairs.setdefault((a, b), [0, 0])
        tally[0] += (ra - 3) * (rb - 3)
        tally[1] += 1
    expected = [f"{a:010}:{b:010}\t{s}\t{n}" for (a, b), (s, n) in sorted(pairs.items())]
    mismatch = compare_dump(expected, sys.argv[2], "pairs")
    if mismatch:
        print(mismatch)
        return 1
    print(f"identical: {len(expected)} user pairs from {len(data) // 40} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
