#!/usr/bin/env python3
"""Checks `harness run --app mastercard` or `--app mastercard-indexed` dumps
(the two workloads give the same answer) against MasterCard Affinity computed
here from the input.

Input: one purchase per line, fields separated by '|': a 16-digit card
number, a merchant id (1-32 visible ASCII bytes other than '|'), then at
least one more field (not interpreted). Empty lines are skipped; a last line
without '\\n' is a record. A malformed record is reported (exit 1).

Answer: S = the cards with a purchase at merchant X; for every merchant with a
purchase by a card of S (X included), its purchases by cards of S (visits)
and the distinct cards of S among them (customers). Dump lines:
`merchant<TAB>visits<TAB>customers`, sorted by merchant id bytes. Integers
only: compared exactly.

usage: mastercard_check.py INPUT DUMP [merchant=M0000001]
       (exit 0 when the dump agrees, 1 with the first difference, 2 on usage)"""
import collections
import sys

DEFAULT_MERCHANT = b"M0000001"


def valid_merchant(m):
    return 1 <= len(m) <= 32 and all(0x21 <= b <= 0x7E and b != 0x7C for b in m)


def records(data):
    """(line number, byte offset, card, merchant) of every record."""
    offset = 0
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # after the final '\n'
    for number, line in enumerate(lines, start=1):
        start = offset
        offset += len(line) + 1
        if not line:
            continue
        fields = line.split(b"|")
        where = f"line {number} (byte {start})"
        if len(fields) < 3:
            raise ValueError(f"{where}: fewer than 3 '|'-separated fields")
        card, merchant = fields[0], fields[1]
        if len(card) != 16 or not card.isdigit():
            raise ValueError(f"{where}: card number {card!r} is not 16 decimal digits")
        if not valid_merchant(merchant):
            raise ValueError(f"{where}: bad merchant id {merchant!r}")
        yield card, merchant


def affinity(data, x):
    rows = list(records(data))
    customers_of_x = {card for card, merchant in rows if merchant == x}
    visits = collections.Counter()
    customers = collections.defaultdict(set)
    for card, merchant in rows:
        if card in customers_of_x:
            visits[merchant] += 1
            customers[merchant].add(card)
    return [m + b"\t" + str(visits[m]).encode() + b"\t" + str(len(customers[m])).encode()
            for m in sorted(visits)]


def main() -> int:
    args = sys.argv[1:]
    if len(args) not in (2, 3) or (len(args) == 3 and not args[2].startswith("merchant=")):
        print(__doc__, file=sys.stderr)
        return 2
    x = args[2][len("merchant="):].encode() if len(args) == 3 else DEFAULT_MERCHANT
    if not valid_merchant(x):
        print(f"bad merchant id {x!r}", file=sys.stderr)
        return 2
    with open(args[0], "rb") as f:
        data = f.read()
    try:
        expected = affinity(data, x)
    except ValueError as e:
        print(f"malformed input: {e}")
        return 1
    with open(args[1], "rb") as f:
        got = f.read().split(b"\n")
    if got and got[-1] == b"":
        got.pop()
    if got != expected:
        bad = next(i for i in range(max(len(got), len(expected)))
                   if i >= len(got) or i >= len(expected) or got[i] != expected[i])
        print(f"MISMATCH at line {bad + 1}: got {got[bad] if bad < len(got) else None!r}, "
              f"expected {expected[bad] if bad < len(expected) else None!r} "
              f"({len(got)} lines, {len(expected)} expected)")
        return 1
    print(f"identical: {len(expected)} merchants")
    return 0


if __name__ == "__main__":
    sys.exit(main())
