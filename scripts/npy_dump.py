"""Shared by the numeric apps' checks: reading their inputs (.npy arrays, several
may follow one another in one file) and `--dump-output` files."""
import numpy as np


def load_arrays(path):
    """Every float32 array of a .npy file, in order (numpy.save called repeatedly)."""
    arrays = []
    with open(path, "rb") as f:
        size = f.seek(0, 2)
        f.seek(0)
        while f.tell() < size:
            arrays.append(np.load(f).astype(np.float64))
    return arrays


def dump_rows(path):
    """The tab-separated fields of each dump line."""
    with open(path, "rb") as f:
        return [line.rstrip(b"\n").split(b"\t") for line in f]


def close(got, expected, rel, abs_):
    """|got - expected| <= abs + rel * |expected|, elementwise."""
    return np.abs(np.asarray(got) - np.asarray(expected)) <= abs_ + rel * np.abs(np.asarray(expected))
