#!/usr/bin/env python3
"""Checks a `harness run --app word-count --dump-output` dump against the words
counted here, with Python only. Exact (integers only).

Input: any text. A word is a maximal run of ASCII letters [A-Za-z], counted
lower-cased; every other byte separates words. A word longer than 64 letters
is refused by the harness (the SePo hash table's keys hold 64 bytes).
Dump: one line per word, sorted by its bytes: `WORD<TAB>COUNT`.

usage: word_count_check.py INPUT DUMP   (exit 0 when identical, 1 when not)"""
import collections
import re
import sys

from dump_lines import first_difference, read_dump


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    counts = collections.Counter(w.lower() for w in re.findall(rb"[A-Za-z]+", data))
    expected = [w.decode() + "\t" + str(n) for w, n in sorted(counts.items())]
    difference = first_difference(expected, read_dump(sys.argv[2]))
    if difference:
        print(difference)
        return 1
    print(f"ok: {len(expected)} words, {sum(counts.values())} occurrences")
    return 0


if __name__ == "__main__":
    sys.exit(main())
