#!/usr/bin/env python3
"""Checks a `harness run --app upper` dump: the input with every byte a-z
made A-Z and every other byte unchanged.

usage: upper_check.py INPUT DUMP   (exit 0 when they agree)"""
import sys


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    data = open(argv[1], "rb").read()
    table = bytes(c - 32 if ord("a") <= c <= ord("z") else c for c in range(256))
    expected = data.translate(table)
    got = open(argv[2], "rb").read()
    if got != expected:
        at = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
        print(f"upper_check: {len(got)} bytes (expected {len(expected)}), first difference at byte {at}")
        return 1
    print(f"upper_check: {len(got)} bytes agree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
