#!/usr/bin/env python3
"""Checks a `harness run --app kmeans --dump-output` TSV against one KMeans
iteration computed here with NumPy: the first K points are the centroids, each
point joins the nearest one (squared Euclidean distance in float64, ties to
the lower id), and a cluster's new centroid is the mean of its points.

Dump lines are `cluster<TAB>count<TAB>x0<TAB>x1...` for clusters with points;
counts must be equal, coordinates within 1e-6 + 1e-5 * |expected|.

usage: kmeans_check.py INPUT OUTPUT.tsv [K=16]   (exit 0 when they agree)"""
import sys

import numpy as np

from npy_dump import close, dump_rows, load_arrays


def main() -> int:
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    points = load_arrays(sys.argv[1])[0]
    k = int(sys.argv[3]) if len(sys.argv) == 4 else 16
    centroids = points[:k]
    nearest = np.empty(len(points), dtype=np.int64)
    for start in range(0, len(points), 65536):  # bounded memory
        block = points[start:start + 65536]
        d = ((block[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
        nearest[start:start + len(block)] = np.argmin(d, axis=1)  # first minimum: lowest id
    expected = {}
    for c in range(len(centroids)):
        members = points[nearest == c]
        if len(members):
            expected[c] = (len(members), members.mean(axis=0))
    got = {int(r[0]): (int(r[1]), np.array([float(v) for v in r[2:]])) for r in dump_rows(sys.argv[2])}
    if sorted(got) != sorted(expected):
        print(f"MISMATCH: clusters {sorted(got)[:10]}..., expected {sorted(expected)[:10]}...")
        return 1
    for c, (count, mean) in expected.items():
        if got[c][0] != count or len(got[c][1]) != len(mean) or not close(got[c][1], mean, 1e-5, 1e-6).all():
            print(f"MISMATCH: cluster {c}: {got[c][0]} points at {got[c][1]}, expected {count} at {mean}")
            return 1
    print(f"identical within tolerance: {len(expected)} clusters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
