#!/usr/bin/env python3
"""Checks a `harness run --app kmeans-particles --dump-output` dump against
the cluster ids computed here, with Python only.

The input is an array of 64-byte little-endian particle records (4 double
coordinates at bytes 0-31; the rest is not read). The centroids are the first
K particles' coordinates; a particle's cluster is the centroid at the smallest
squared Euclidean distance, summed in double in dimension order 0..3, ties to
the lower id. Dump lines are `index<TAB>cluster`, one per particle in input
order.

Tolerance: a dumped id other than the nearest one is accepted only at a near
tie, where the best and second-best distances d1 <= d2 satisfy
d2 - d1 <= 1e-9 * d1 (the C++ reference's rule, for implementations that
round differently, e.g. with fused multiply-adds), and only when the dumped
id's own distance d satisfies d - d1 <= 1e-9 * d1.

usage: kmeans_particles_check.py INPUT DUMP [k=16]   (exit 0 when they agree)"""
import math
import struct
import sys

NEAR_TIE = 1e-9


def main() -> int:
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    k = 16
    if len(sys.argv) == 4:
        name, _, value = sys.argv[3].rpartition("=")
        if name not in ("", "k") or not value.isdigit():
            print(__doc__, file=sys.stderr)
            return 2
        k = int(value)
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    if len(data) % 64:
        print(f"input: {len(data)} bytes is not a whole number of 64-byte records")
        return 1
    points = [p for p in struct.iter_unpack("<4d32x", data)]
    for i, p in enumerate(points):
        if not all(math.isfinite(x) for x in p):
            print(f"input: record {i} (byte offset {64 * i}) has a non-finite coordinate")
            return 1
    if not 1 <= k <= len(points):
        print(f"k={k} needs 1 to {len(points)} (the particles in the input)", file=sys.stderr)
        return 2
    centroids = points[:k]

    with open(sys.argv[2], "rb") as f:
        lines = f.read().decode().splitlines()
    if len(lines) != len(points):
        print(f"MISMATCH: {len(lines)} dump lines for {len(points)} particles")
        return 1
    near_ties_taken = 0
    for i, (p, line) in enumerate(zip(points, lines)):
        fields = line.split("\t")
        if len(fields) != 2 or fields[0] != str(i):
            print(f"MISMATCH: dump line {i + 1} is {line!r} (expected '{i}<TAB>cluster')")
            return 1
        got = int(fields[1])
        distances = []
        for c in centroids:
            d = 0.0
            for x, y in zip(p, c):
                d += (x - y) * (x - y)
            distances.append(d)
        best_id = min(range(k), key=lambda c: (distances[c], c))
        best = distances[best_id]
        second = min((d for c, d in enumerate(distances) if c != best_id), default=math.inf)
        if got == best_id:
            continue
        tie = second - best <= NEAR_TIE * best
        if tie and 0 <= got < k and distances[got] - best <= NEAR_TIE * best:
            near_ties_taken += 1
            continue
        print(f"MISMATCH: particle {i}: cluster {got} (expected {best_id}, distance {best!r}; "
              f"{'a near tie' if tie else 'not a near tie'})")
        return 1
    print(f"agree: {len(points)} particles, k={k}"
          + (f" ({near_ties_taken} near ties resolved the other way)" if near_ties_taken else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
