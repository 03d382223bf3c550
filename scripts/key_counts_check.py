#!/usr/bin/env python3
"""Checks a `harness run --app key-counts --dump-output` dump against the key
counts computed here with NumPy. Exact (integers only).

Input (datasets/keys_u64.h): a 16-byte header, b"keys-u64" then N as a
little-endian u64, then N little-endian u64 keys (any value, 2^64 - 1 too);
an empty file has no keys. The answer: for every distinct key, the number of
times it occurs. Dump: one line per key, ascending (as unsigned integers):
`KEY<TAB>COUNT`, the key as 16 lower-case hex digits.

usage: key_counts_check.py INPUT DUMP   (exit 0 when identical, 1 when not)"""
import struct
import sys

import numpy as np

from dump_compare import compare_dump

HEADER = 16


def read_keys(path):
    """The input's keys (a uint64 array); ValueError for a malformed file."""
    with open(path, "rb") as f:
        data = f.read()
    if not data:
        return np.zeros(0, dtype=np.uint64)
    if len(data) < HEADER or data[:8] != b"keys-u64":
        raise ValueError("the input does not start with the 16-byte header b'keys-u64', N")
    (n,) = struct.unpack_from("<Q", data, 8)
    if len(data) != HEADER + 8 * n:
        raise ValueError(f"the header's N is {n} keys, but the input has {len(data)} bytes")
    return np.frombuffer(data, dtype="<u8", offset=HEADER).astype(np.uint64)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        keys = read_keys(sys.argv[1])
    except ValueError as e:
        print(f"input: {e}")
        return 1
    distinct, counts = np.unique(keys, return_counts=True)  # sorted as unsigned
    expected = [f"{k:016x}\t{c}" for k, c in zip(distinct.tolist(), counts.tolist())]
    mismatch = compare_dump(expected, sys.argv[2], "keys")
    if mismatch:
        print(mismatch)
        return 1
    print(f"identical: {len(expected)} distinct keys from {len(keys)} keys")
    return 0


if __name__ == "__main__":
    sys.exit(main())
