#!/usr/bin/env python3
"""Noise of repeated timings for the verdict rules: the same deterministic
percentile-bootstrap interval of a ratio of medians as `harness compare`
(harness/core/stats.cpp: SplitMix64 with unbiased bounded draws, 2000
resamples, seed 1, quantiles by linear interpolation), so a rule's interval
and compare's interval of the same samples are the same numbers.

    bootstrap_ratio_of_medians(a, b) -> (low, high) of median(b) / median(a)
    bootstrap_geomean(pairs)         -> (low, high) of the geometric mean of
                                        median(b) / median(a) over pairs
"""

from __future__ import annotations

import math

_MASK = (1 << 64) - 1
CONFIDENCE = 0.95
RESAMPLES = 2000
SEED = 1


class SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014), as harness/core/stats.cpp."""

    def __init__(self, seed: int):
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in [0, n) without modulo bias."""
        threshold = ((1 << 64) - n) % n
        while True:
            r = self.next()
            if r >= threshold:
                return r % n


def _drawer(seed: int):
    """draw(xs): len(xs) values of xs drawn with replacement, in the order
    SplitMix64(seed).below(len(xs)) picks them (a fast inline of the class)."""
    state = seed & _MASK
    mask = _MASK

    def draw(xs: list[float]) -> list[float]:
        nonlocal state
        n = len(xs)
        threshold = ((1 << 64) - n) % n
        out = []
        for _ in range(n):
            while True:
                state = (state + 0x9E3779B97F4A7C15) & mask
                z = state
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
                z ^= z >> 31
                if z >= threshold:
                    out.append(xs[z % n])
                    break
        return out
    return draw


def median(xs: list[float]) -> float:
    """The median as the C++ code computes it (lower + (upper - lower) / 2 for an even count)."""
    if not xs:
        return 0.0
    s = sorted(xs)
    mid = len(s) // 2
    upper = s[mid]
    if len(s) % 2 == 1:
        return upper
    lower = s[mid - 1]
    return lower + (upper - lower) / 2.0


def _quantile_sorted(s: list[float], p: float) -> float:
    h = (len(s) - 1) * p
    lo = math.floor(h)
    frac = h - lo
    if lo + 1 >= len(s) or frac == 0.0:
        return s[lo]
    x0, x1 = s[lo], s[lo + 1]
    if x0 == x1:
        return x0
    if math.isinf(x0) or math.isinf(x1):
        return x0 if frac < 0.5 else x1
    return x0 + frac * (x1 - x0)


def _safe_ratio(num: float, den: float) -> float:
    if den == 0.0:
        return 1.0 if num == 0.0 else math.inf
    return num / den


def bootstrap_ratio_of_medians(a: list[float], b: list[float], confidence: float = CONFIDENCE,
                               resamples: int = RESAMPLES, seed: int = SEED) -> tuple[float, float]:
    """Percentile-bootstrap interval of median(b) / median(a); (nan, nan) when
    either sample is empty. Identical to stats::bootstrap_ratio_of_medians."""
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must be in (0, 1)")
    if not a or not b:
        return (math.nan, math.nan)
    draw = _drawer(seed)
    ratios = []
    for _ in range(resamples):
        ra = draw(a)
        rb = draw(b)
        ratios.append(_safe_ratio(median(rb), median(ra)))
    ratios.sort()
    tail = (1.0 - confidence) / 2.0
    return (_quantile_sorted(ratios, tail), _quantile_sorted(ratios, 1.0 - tail))


def bootstrap_geomean(pairs: list[tuple[list[float], list[float]]], confidence: float = CONFIDENCE,
                      resamples: int = RESAMPLES, seed: int = SEED) -> tuple[float, float]:
    """Percentile-bootstrap interval of the geometric mean over `pairs` of
    median(b) / median(a): each resample redraws every pair's two samples.
    (nan, nan) when a pair has an empty sample or a ratio is not positive."""
    if not pairs or any(not a or not b for a, b in pairs):
        return (math.nan, math.nan)
    draw = _drawer(seed)
    means = []
    for _ in range(resamples):
        logs = 0.0
        for a, b in pairs:
            ra = draw(a)
            rb = draw(b)
            r = _safe_ratio(median(rb), median(ra))
            if not r > 0 or math.isinf(r):
                return (math.nan, math.nan)
            logs += math.log(r)
        means.append(math.exp(logs / len(pairs)))
    means.sort()
    tail = (1.0 - confidence) / 2.0
    return (_quantile_sorted(means, tail), _quantile_sorted(means, 1.0 - tail))
