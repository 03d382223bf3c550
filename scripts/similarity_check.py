#!/usr/bin/env python3
"""Checks a `harness run --app similarity --dump-output` TSV against cosine
similarities computed here with NumPy in float64 (0 for a zero vector).

Dump lines are `score<TAB>i<TAB>j` (i < j), one per document pair, sorted by
score; scores must be within 1e-6 + 1e-4 * |expected|.

usage: similarity_check.py INPUT OUTPUT.tsv   (exit 0 when they agree)"""
import sys

import numpy as np

from npy_dump import close, dump_rows, load_arrays


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    x = load_arrays(sys.argv[1])[0]
    norm = np.linalg.norm(x, axis=1)
    safe = np.where(norm > 0, norm, 1)
    scores = (x @ x.T) / np.outer(safe, safe)
    scores[(norm == 0)[:, None] | (norm == 0)[None, :]] = 0
    rows = dump_rows(sys.argv[2])
    got = [float(r[0]) for r in rows]
    pairs = [(int(r[1]), int(r[2])) for r in rows]
    docs = x.shape[0]
    if sorted(pairs) != [(i, j) for i in range(docs) for j in range(i + 1, docs)]:
        print(f"MISMATCH: {len(pairs)} pairs, expected each of the {docs * (docs - 1) // 2} once")
        return 1
    if any(b < a for a, b in zip(got, got[1:])):
        print("scores not in ascending order")
        return 1
    expected = np.array([scores[i, j] for i, j in pairs])
    ok = close(got, expected, 1e-4, 1e-6)
    if not ok.all():
        k = int(np.argmin(ok))
        print(f"MISMATCH: {np.count_nonzero(~ok)} scores off; {pairs[k]}: {got[k]}, expected "
              f"{expected[k]}")
        return 1
    print(f"identical within tolerance: {len(pairs)} pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
