#!/usr/bin/env python3
"""bench_atomics runs two tiny benchmarks and its Google Benchmark JSON is sane:
the context names the device, its driver and the backend; each benchmark ran,
was timed by the device (manual time) with positive, finite times and rates.

    check_bench_json.py path/to/bench_atomics

Exit status 0 when sane, 1 when not, 77 (CTest's skip) without a device."""

import json
import math
import subprocess
import sys

NAMES = ["atomics/system/atomic-add/groups:2", "atomics/software/atomic-add/groups:2"]


def main() -> int:
    binary = sys.argv[1]
    pattern = "^(" + "|".join(n.replace("/", "/") for n in NAMES) + ")/"
    r = subprocess.run([binary, f"--benchmark_filter={pattern}", "--benchmark_format=json",
                        "--benchmark_min_time=0.01"], capture_output=True, text=True, timeout=240)
    if r.returncode != 0 and "no OpenCL or CUDA device" in r.stderr:
        print("skipped: " + r.stderr.strip())
        return 77
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr}"
    doc = json.loads(r.stdout)
    ctx = doc["context"]
    for field in ("device", "driver", "backend"):
        assert isinstance(ctx.get(field), str) and ctx[field], f"context.{field} missing: {ctx}"
    benches = doc["benchmarks"]
    assert sorted(b["name"] for b in benches) == sorted(n + "/manual_time" for n in NAMES), \
        [b["name"] for b in benches]
    for b in benches:
        if b.get("error_occurred"):
            # the software atomic is refused where its work-groups cannot all run at once
            msg = b.get("error_message", "")
            assert "resident at once" in msg or "forward progress" in msg, msg
            print(f"refused: {b['name']}: {b['error_message']}")
            continue
        assert b["iterations"] >= 1, b
        for field in ("real_time", "items_per_second", "work_items"):
            v = b[field]
            assert isinstance(v, (int, float)) and math.isfinite(v) and v > 0, f"{field} = {v!r}"
        print(f"ok: {b['name']} on {ctx['backend']} {ctx['device']}: "
              f"{b['items_per_second'] / 1e6:.3f} M atomics/s, {b['iterations']} iterations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
