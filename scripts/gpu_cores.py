#!/usr/bin/env python3
"""Host cores for each GPU of a machine with several, for one shard per GPU
(scripts/run_gpus.sh): every GPU gets an equal, disjoint share of the cores
this process may use, taken from the cores local to that GPU (its PCI
device's `local_cpulist`, the NUMA node it hangs off) where the machine says,
and whole physical cores (hyper-thread siblings stay together), so a shard's
host threads neither cross sockets to reach its GPU nor share a core with
another shard's.

    python3 scripts/gpu_cores.py [--gpus N]

prints one cpu list per GPU (taskset -c form), in the order of nvidia-smi.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys


def parse_cpulist(text: str) -> set[int]:
    """{0, 1, 2, 8} from "0-2,8" (sysfs and taskset form)."""
    out: set[int] = set()
    for part in text.strip().split(","):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def format_cpulist(cpus) -> str:
    """"0-2,8" from {0, 1, 2, 8}."""
    runs: list[list[int]] = []
    for c in sorted(cpus):
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)


def split(local: list[set[int] | None], usable: set[int], siblings: dict[int, frozenset]) -> list[set[int]]:
    """Each GPU's cores. `local[g]`: the cpus near GPU g (None: unknown);
    `siblings[c]`: the hardware threads of cpu c's physical core. GPUs whose
    usable local cpus are the same set share it out in equal slices of whole
    cores, in cpu order; a GPU with no known usable local cpu draws from all
    usable ones. Raises ValueError when a GPU would get no core."""
    pools: dict[frozenset, list[int]] = {}
    for g, near in enumerate(local):
        pool = frozenset((near or set()) & usable) or frozenset(usable)
        pools.setdefault(pool, []).append(g)
    out: list[set[int]] = [set() for _ in local]
    for pool, gpus in pools.items():
        cores = sorted({frozenset(siblings.get(c, frozenset([c])) & pool) for c in pool}, key=min)
        share = len(cores) // len(gpus)
        if share == 0:
            raise ValueError(f"{len(gpus)} GPUs share {len(cores)} cores: fewer than one each")
        for k, g in enumerate(gpus):
            out[g] = set().union(*cores[k * share:(k + 1) * share])
    return out


def sysfs_siblings() -> dict[int, frozenset]:
    out = {}
    for c in os.sched_getaffinity(0):
        try:
            with open(f"/sys/devices/system/cpu/cpu{c}/topology/thread_siblings_list") as f:
                out[c] = frozenset(parse_cpulist(f.read()))
        except OSError:
            out[c] = frozenset([c])
    return out


def gpu_local_cpus(gpus: int | None) -> list[set[int] | None]:
    """The local cpus of each GPU nvidia-smi lists (None where sysfs does not say)."""
    ids = subprocess.run(["nvidia-smi", "--query-gpu=pci.bus_id", "--format=csv,noheader"],
                         check=True, capture_output=True, text=True).stdout.split()
    if gpus is not None:
        ids = ids[:gpus]
    out: list[set[int] | None] = []
    for bus in ids:
        dom, _, rest = bus.lower().partition(":")  # 00000000:18:00.0 -> 0000:18:00.0
        try:
            with open(f"/sys/bus/pci/devices/{dom[-4:]}:{rest}/local_cpulist") as f:
                out.append(parse_cpulist(f.read()))
        except OSError:
            out.append(None)
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpus", type=int, help="the first N GPUs (default: all)")
    a = ap.parse_args(argv)
    local = gpu_local_cpus(a.gpus)
    if not local:
        print("gpu_cores: nvidia-smi lists no GPU", file=sys.stderr)
        return 1
    for cpus in split(local, set(os.sched_getaffinity(0)), sysfs_siblings()):
        print(format_cpulist(cpus))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
