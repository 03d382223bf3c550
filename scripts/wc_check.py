#!/usr/bin/env python3
"""Checks a `harness run --app wc` dump against Unix wc's rule, counted here:
lines = newline bytes, words = maximal runs of bytes that are not ASCII
whitespace (space, \\t \\n \\v \\f \\r: the C locale's isspace), bytes = size.

Dump lines: `lines<TAB>N`, `words<TAB>N`, `bytes<TAB>N`.

usage: wc_check.py INPUT DUMP   (exit 0 when they agree)"""
import sys


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    data = open(argv[1], "rb").read()
    expected = {"lines": data.count(b"\n"), "words": len(data.split()), "bytes": len(data)}
    got = {}
    for line in open(argv[2], "rb").read().decode().splitlines():
        name, _, value = line.partition("\t")
        got[name] = int(value)
    if got != expected:
        print(f"wc_check: dump {got}, expected {expected}")
        return 1
    print(f"wc_check: {expected['lines']} lines, {expected['words']} words, {expected['bytes']} bytes agree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
