#!/usr/bin/env python3
"""Checks a `harness run --app grep` dump: the byte offsets of the lines that
match PATTERN, one per line, ascending. Lines end at '\\n'; a last line without
one counts when not empty. Patterns (Kernighan and Pike): c matches itself,
'.' any byte, '^' at the pattern's start the line's start, '$' at its end the
line's end, x* zero or more of x; elsewhere '^' and '$' are bytes. The
pattern is translated to Python's `re` and searched in each line.

usage: grep_check.py INPUT DUMP [pattern=PATTERN]   (default in.*on; exit 0 when they agree)"""
import re
import sys


def to_regex(pattern: bytes) -> bytes:
    out = b""
    body = pattern
    start = body.startswith(b"^")
    if start:
        body = body[1:]
    end = body.endswith(b"$")
    if end:
        body = body[:-1]
    for i, c in enumerate(body):
        ch = bytes([c])
        if ch == b"*":
            if i == 0 or body[i - 1:i] == b"*":
                raise SystemExit(f"grep_check: '*' follows no atom in {pattern!r}")
            out += b"*"
        elif ch == b".":
            out += b"."
        else:
            out += re.escape(ch)
    return (b"^" if start else b"") + out + (b"\\Z" if end else b"")


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    pattern = b"in.*on"
    if len(argv) == 4:
        name, _, value = argv[3].partition("=")
        if name != "pattern":
            sys.exit(__doc__)
        pattern = value.encode()
    regex = re.compile(to_regex(pattern), re.DOTALL)
    data = open(argv[1], "rb").read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    expected, at = [], 0
    for line in lines:
        if regex.search(line):
            expected.append(at)
        at += len(line) + 1
    got = [int(x) for x in open(argv[2], "rb").read().split()]
    if got != expected:
        missing = sorted(set(expected) - set(got))[:3]
        unexpected = sorted(set(got) - set(expected))[:3]
        print(f"grep_check: {len(got)} offsets (expected {len(expected)}); missing {missing}, unexpected {unexpected}")
        return 1
    print(f"grep_check: {len(got)} matching lines agree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
