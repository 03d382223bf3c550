#!/usr/bin/env python3
"""Checks a `harness run --dump-output` word-count TSV against counts computed
here by the README's rule: a word is a maximal run of ASCII letters [A-Za-z],
counted lower-cased; every other byte separates words.

usage: wordcount_check.py INPUT_TEXT OUTPUT.tsv   (exit 0 when identical)"""
import collections
import re
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        text = f.read()
    expected = collections.Counter(w.lower() for w in re.findall(rb"[A-Za-z]+", text))
    got = {}
    with open(sys.argv[2], "rb") as f:
        previous = None
        for line in f:
            key, value = line.rstrip(b"\n").split(b"\t")
            if previous is not None and key <= previous:
                print(f"not sorted by key bytes at {key!r}")
                return 1
            previous = key
            got[key] = int(value)
    if got != expected:
        missing = set(expected) - set(got)
        extra = set(got) - set(expected)
        wrong = [k for k in expected if k in got and got[k] != expected[k]]
        print(f"MISMATCH: {len(missing)} missing, {len(extra)} extra, {len(wrong)} wrong counts "
              f"(e.g. {sorted(missing)[:3]} {sorted(extra)[:3]} {wrong[:3]})")
        return 1
    print(f"identical: {len(got)} distinct words, {sum(got.values())} words")
    return 0


if __name__ == "__main__":
    sys.exit(main())
