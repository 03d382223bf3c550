#!/usr/bin/env python3
"""Checks a `harness run --app kv-pairs --dump-output` dump against the groups
computed here from the input.

Input (datasets/kv_pairs.h): a 16-byte header, b"kv-pairs" then the key bytes
K and value bytes V as little-endian u32, then records of K key bytes and V
value bytes (K and V multiples of 4 from 4 to 1024); an empty file has no
records. Dump: one line per key, sorted by its text, the key's bytes as
lower-case hex: `KEY<TAB>COUNT<TAB>SUM<TAB>WORD,WORD,...`, the words being the
first 32-bit little-endian word of each of the key's values, ascending, COUNT
their number and SUM their sum modulo 2^32; a run that combined the values
(hashtable/combining) dumps `KEY<TAB>COUNT<TAB>SUM`, checked on those. Exact.

usage: kv_pairs_check.py INPUT DUMP   (exit 0 when identical, 1 when not)"""
import collections
import struct
import sys

from map_group_check import main

HEADER = 16


def words_by_key(path):
    with open(path, "rb") as f:
        data = f.read()
    groups = collections.defaultdict(list)
    if not data:
        return groups
    if len(data) < HEADER or data[:8] != b"kv-pairs":
        raise ValueError("the input does not start with the 16-byte header b'kv-pairs', K, V")
    key_bytes, value_bytes = struct.unpack_from("<II", data, 8)
    for name, n in (("key", key_bytes), ("value", value_bytes)):
        if n < 4 or n > 1024 or n % 4:
            raise ValueError(f"the header's {name} size {n} is not a multiple of 4 from 4 to 1024")
    record = key_bytes + value_bytes
    if (len(data) - HEADER) % record:
        raise ValueError(f"{len(data) - HEADER} bytes after the header are not whole {record}-byte records")
    for at in range(HEADER, len(data), record):
        key = data[at:at + key_bytes].hex().encode()
        groups[key].append(struct.unpack_from("<I", data, at + key_bytes)[0])
    return groups


if __name__ == "__main__":
    sys.exit(main(words_by_key, __doc__, sums=True))
