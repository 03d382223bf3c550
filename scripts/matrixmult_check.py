#!/usr/bin/env python3
"""Checks a `harness run --app matrixmult --dump-output` TSV against A @ B
computed here with NumPy in float64. The input holds A (n x k) then B (k x m)
(numpy.save twice on one file) or one array of shape (2, n, n).

Dump lines are `row<TAB>column<TAB>value`, row-major; values must be within
1e-5 + 1e-4 * |expected| (float32 dot products in another order).

usage: matrixmult_check.py INPUT OUTPUT.tsv   (exit 0 when they agree)"""
import sys

import numpy as np

from npy_dump import close, dump_rows, load_arrays


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    arrays = load_arrays(sys.argv[1])
    a, b = (arrays[0][0], arrays[0][1]) if len(arrays) == 1 else arrays
    expected = a @ b
    rows = dump_rows(sys.argv[2])
    cells = [(int(r[0]), int(r[1])) for r in rows]
    if len(rows) != expected.size or cells != sorted(cells) or len(set(cells)) != len(cells):
        print(f"MISMATCH: {len(rows)} cells (expected {expected.size}, each once, row-major)")
        return 1
    got = np.array([float(r[2]) for r in rows]).reshape(expected.shape)
    ok = close(got, expected, 1e-4, 1e-5)
    if not ok.all():
        i, j = np.argwhere(~ok)[0]
        print(f"MISMATCH: {np.count_nonzero(~ok)} cells off; ({i}, {j}) = {got[i, j]}, "
              f"expected {expected[i, j]}")
        return 1
    print(f"identical within tolerance: {expected.shape[0]} x {expected.shape[1]} cells")
    return 0


if __name__ == "__main__":
    sys.exit(main())
