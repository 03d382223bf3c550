#!/usr/bin/env python3
"""bench_memory runs one tiny benchmark and its Google Benchmark JSON is sane:
the context names the device, its driver and the backend; the benchmark ran,
was timed by the device (manual time), and its rates agree with each other
(bytes_per_second is the delivered rate; 4-way coalescing uses exactly half of
what a 32-byte sector delivers).

    check_bench_json.py path/to/bench_memory

Exit status 0 when sane, 1 when not, 77 (CTest's skip) without a device."""

import json
import math
import subprocess
import sys

NAME = "memory/l2/coalescing:4/group_size:256"


def main() -> int:
    binary = sys.argv[1]
    r = subprocess.run([binary, f"--benchmark_filter=^{NAME}/", "--benchmark_format=json",
                        "--benchmark_min_time=0.01"], capture_output=True, text=True, timeout=240)
    if r.returncode != 0 and "no OpenCL or CUDA device" in r.stderr:
        print("skipped: " + r.stderr.strip())
        return 77
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr}"
    doc = json.loads(r.stdout)
    ctx = doc["context"]
    for field in ("device", "driver", "backend"):
        assert isinstance(ctx.get(field), str) and ctx[field], f"context.{field} missing: {ctx}"
    assert ctx["backend"] in ("opencl", "cuda"), ctx["backend"]
    benches = doc["benchmarks"]
    assert len(benches) == 1, [b["name"] for b in benches]
    b = benches[0]
    assert b["name"] == NAME + "/manual_time", b["name"]
    assert not b.get("error_occurred"), b.get("error_message")
    assert b["iterations"] >= 1, b
    for field in ("real_time", "bytes_per_second", "delivered_GBps", "used_GBps", "work_items"):
        v = b[field]
        assert isinstance(v, (int, float)) and math.isfinite(v) and v > 0, f"{field} = {v!r}"
    assert math.isclose(b["delivered_GBps"] * 1e9, b["bytes_per_second"], rel_tol=1e-6), b
    assert math.isclose(b["used_GBps"] * 2, b["delivered_GBps"], rel_tol=1e-9), b
    print(f"ok: {b['name']} on {ctx['backend']} {ctx['device']}: {b['delivered_GBps']:.3f} GB/s delivered, "
          f"{b['iterations']} iterations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
