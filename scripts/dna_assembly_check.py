#!/usr/bin/env python3
"""Checks a `harness run --app dna-assembly --dump-output` against the parts
counted here, with Python only, from the definition in
frameworks/workloads/dna_assembly/README.md:

- the input is 100-byte records; bytes 11-46 of each are the fragment's 36
  bases (A, C, G or T): a left edge of 2 bases, the 32-base part, a right
  edge of 2 bases;
- for each distinct part: the number of fragments with it, and two 16-bit
  masks of the edges seen on its left and right (bit 4 * i + j for the edge
  of bases "ACGT"[i], "ACGT"[j]).

The dump is one line per part, `PART<TAB>count<TAB>left_mask<TAB>right_mask`,
sorted by PART. Exact comparison (integers only).

usage: dna_assembly_check.py INPUT DUMP   (exit 0 when the dump agrees, 1
       naming the first difference)"""
import pathlib
import sys

RECORD = 100
FRAGMENT_AT = 11
BASES = "ACGT"


def edge_bit(edge: str) -> int:
    return 4 * BASES.index(edge[0]) + BASES.index(edge[1])


def expected_parts(data: bytes) -> dict:
    parts = {}
    for record, at in enumerate(range(0, len(data), RECORD)):
        fragment = data[at + FRAGMENT_AT:at + FRAGMENT_AT + 36].decode("latin-1")
        bad = [i for i, base in enumerate(fragment) if base not in BASES]
        if bad:
            raise ValueError(f"record {record}: base {bad[0]} of the fragment is "
                             f"{fragment[bad[0]]!r}, not one of A C G T")
        row = parts.setdefault(fragment[2:34], [0, 0, 0])
        row[0] += 1
        row[1] |= 1 << edge_bit(fragment[0:2])
        row[2] |= 1 << edge_bit(fragment[34:36])
    return parts


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    data = pathlib.Path(sys.argv[1]).read_bytes()
    if len(data) % RECORD:
        print(f"input of {len(data)} bytes is not a whole number of {RECORD}-byte records")
        return 1
    try:
        expected = expected_parts(data)
    except ValueError as e:
        print(e)
        return 1
    got = {}
    previous = None
    for number, line in enumerate(pathlib.Path(sys.argv[2]).read_text().splitlines(), 1):
        fields = line.split("\t")
        if len(fields) != 4:
            print(f"dump line {number}: {line!r} is not PART, count, left_mask, right_mask")
            return 1
        part = fields[0]
        if previous is not None and part <= previous:
            print(f"dump line {number}: {part} is not after {previous} (sorted, no repeats)")
            return 1
        previous = part
        got[part] = [int(v) for v in fields[1:]]
    for part in sorted(set(expected) | set(got)):
        if part not in got:
            print(f"MISMATCH: part {part} missing (expected {expected[part]})")
            return 1
        if part not in expected:
            print(f"MISMATCH: part {part} unexpected ({got[part]})")
            return 1
        if got[part] != expected[part]:
            print(f"MISMATCH: part {part} has count, left, right {got[part]}, "
                  f"expected {expected[part]}")
            return 1
    kept = sum(1 for row in expected.values() if row[0] >= 2)
    print(f"identical: {len(expected)} parts of {len(data) // RECORD} fragments, "
          f"{kept} seen at least twice")
    return 0


if __name__ == "__main__":
    sys.exit(main())
