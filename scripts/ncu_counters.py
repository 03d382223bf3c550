#!/usr/bin/env python3
"""Counters from Nsight Compute (hit rates, instruction counts), merged into a
results document.

    python3 scripts/ncu_counters.py [--into RESULTS.json] -- \\
        build/bin/harness run --experiment thesis.fig5_1 --preset gpu --backend cuda \\
                              --reps 1 --no-ceilings --out /tmp/fig5_1.ncu.json

Runs the harness command (it must write a results document with --out, on the
cuda backend) under

    ncu --clock-control none --kernel-name regex:<--kernels> \\
        --metrics <the --metrics set's> --csv

then maps the profiled kernel launches to the points of the profiled run's
document, in run order: each point that ran launched its kernel `kernel_launches`
times (a counter of the point; 1 when absent) per warm-up run and per
repetition (`measurement.warmup` + `measurement.repetitions`), with its
work-group size and count (params `group_size`, counter `groups`) as the
launch's block and grid, which is checked. Metric sets (--metrics):
`hit-rates` (default): the median over a point's launches becomes its
counters `l1_hit_rate` and `l2_hit_rate` (percent); `instructions`: a run's
launches summed, the median over its runs becomes `inst_executed` and
`inst_issued` (warp instructions executed and issued, figure 5.15); `bounds`:
the median over a point's launches of DRAM, L2, L1/shared, SM-pipe, issue,
integer-ALU-pipe and FMA-pipe throughput as percentages of their peaks
(`dram_pct`, `l2_pct`, `l1_pct`, `sm_pct`, `issue_pct`, `alu_pct`,
`fma_pct`), printed per point with the unit nearest its peak
(what bounds the kernel). They are
written into the --into document
(default: the profiled run's own document), matched by point key; points
without launches keep their counters. The document records what was merged
under its top-level "counters_from". Run the timed measurement without ncu
(its replays distort the run time) and merge into that document with --into;
`harness reproduce --report-only` then draws the hit rates.

--from-csv FILE --profiled RESULTS.json merges a saved ncu CSV (ncu ... --csv
--log-file FILE) instead of running anything.

Exit status: 0 merged; 1 the command failed, ncu is missing, or the launches do
not match the points; 2 usage.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

# Metric set -> ({ncu metric: counter name}, how a run's launches combine).
METRIC_SETS = {
    "hit-rates": ({"l1tex__t_sector_hit_rate.pct": "l1_hit_rate", "lts__t_sector_hit_rate.pct": "l2_hit_rate"},
                  "launch"),
    "instructions": ({"smsp__inst_executed.sum": "inst_executed", "smsp__inst_issued.sum": "inst_issued"}, "run"),
    # What bounds a kernel: each unit's throughput as a percentage of its
    # peak (Nsight Compute's speed-of-light numbers); the highest names the
    # bound (bound_of).
    "bounds": ({"dram__throughput.avg.pct_of_peak_sustained_elapsed": "dram_pct",
                "lts__throughput.avg.pct_of_peak_sustained_elapsed": "l2_pct",
                "l1tex__throughput.avg.pct_of_peak_sustained_active": "l1_pct",
                "sm__throughput.avg.pct_of_peak_sustained_elapsed": "sm_pct",
                "smsp__issue_active.avg.pct_of_peak_sustained_active": "issue_pct",
                # The integer and FMA pipes on their own: a byte scan whose
                # SWAR classes keep the integer ALU busy shows it by name
                # (S-L1's wc: ALU 73%, SM pipes 70%).
                "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active": "alu_pct",
                "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active": "fma_pct"}, "launch"),
}
BOUND_UNITS = {"dram_pct": "DRAM", "l2_pct": "L2", "l1_pct": "L1/shared", "sm_pct": "SM pipes",
               "issue_pct": "issue", "alu_pct": "integer ALU pipe", "fma_pct": "FMA pipe"}
METRICS = METRIC_SETS["hit-rates"][0]
DEFAULT_KERNELS = "memory_scan_(ca|cg|line)"


class MergeError(Exception):
    pass


def bound_of(counters: dict[str, float]) -> str | None:
    """"DRAM 87%" for the unit of the bounds set nearest its peak, or None."""
    units = [(counters[c], u) for c, u in BOUND_UNITS.items() if c in counters]
    if not units:
        return None
    pct, unit = max(units)
    return f"{unit} {pct:.0f}%"


def parse_csv(text: str) -> list[dict]:
    """Launches in profiling order: [{"id", "kernel", "block", "grid", "metrics": {name: value}}].
    Lines before the CSV header ("ID", ...) and ==PROF== lines are ignored."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        return []
    body = [l for l in lines[start:] if l.startswith('"')]
    launches: dict[str, dict] = {}
    order: list[str] = []
    for row in csv.DictReader(io.StringIO("\n".join(body))):
        lid = row.get("ID")
        if lid is None or row.get("Metric Name") is None:
            continue
        if lid not in launches:
            order.append(lid)
            launches[lid] = {"id": lid, "kernel": row.get("Kernel Name", ""), "block": row.get("Block Size", ""),
                             "grid": row.get("Grid Size", ""), "metrics": {}}
        value = (row.get("Metric Value") or "").replace(",", "")
        try:
            launches[lid]["metrics"][row["Metric Name"]] = float(value)
        except ValueError:
            pass
    return [launches[i] for i in order]


def _dim(text: str) -> int | None:
    """'(256, 1, 1)' -> 256 (x dimension)."""
    m = re.match(r"\s*\(?\s*(\d+)", text or "")
    return int(m.group(1)) if m else None


def _as_int(x) -> int | None:
    """128, 128.0 and "128" -> 128; None otherwise."""
    if isinstance(x, bool):
        return None
    try:
        return int(float(x))
    except (TypeError, ValueError):
        return None


def assign(points: list[dict], launches: list[dict], metrics: dict[str, str] | None = None,
           per: str = "launch") -> dict[str, dict[str, float]]:
    """Point key -> {counter: value}. A point that ran takes the next
    (warmup + repetitions) x kernel_launches launches when the first of them
    has its block and grid; otherwise it launched no profiled kernel. `per`
    "launch": the median over its launches; "run": each run's launches
    summed, the median over its runs."""
    metrics = METRICS if metrics is None else metrics
    out: dict[str, dict[str, float]] = {}
    i = 0
    for p in points:
        meas = p.get("measurement") if isinstance(p.get("measurement"), dict) else None
        if p.get("status") not in ("ok", "failed") or not meas:
            continue
        runs = int(meas.get("warmup", 0)) + int(meas.get("repetitions", 0))
        per_run = _as_int((p.get("counters") or {}).get("kernel_launches")) or 1
        n = runs * per_run
        block = _as_int((p.get("params") or {}).get("group_size"))
        grid = _as_int((p.get("counters") or {}).get("groups"))
        if n == 0 or i >= len(launches):
            continue
        first = launches[i]
        if _dim(first["block"]) != block or (grid is not None and _dim(first["grid"]) != grid):
            continue
        mine = launches[i:i + n]
        if len(mine) < n:
            raise MergeError(f"{p.get('key')}: expected {n} launches, only {len(mine)} left")
        for launch in mine:
            if _dim(launch["block"]) != _dim(first["block"]) or _dim(launch["grid"]) != _dim(first["grid"]):
                raise MergeError(f"{p.get('key')}: launch {launch['id']} ({launch['kernel']}, block "
                                 f"{launch['block']}, grid {launch['grid']}) is not this point's")
        counters = {}
        for metric, name in metrics.items():
            if per == "run":
                by_run = [mine[r * per_run:(r + 1) * per_run] for r in range(runs)]
                values = [sum(launch["metrics"][metric] for launch in run) for run in by_run
                          if all(metric in launch["metrics"] for launch in run)]
            else:
                values = [launch["metrics"][metric] for launch in mine if metric in launch["metrics"]]
            if values:
                counters[name] = statistics.median(values)
        out[str(p.get("key"))] = counters
        i += n
    if i != len(launches):
        raise MergeError(f"{len(launches) - i} profiled launch(es) matched no point "
                         f"(first: {launches[i]['kernel']}, block {launches[i]['block']}, grid {launches[i]['grid']})")
    return out


def merge(into_path: str, by_key: dict[str, dict[str, float]], source: dict) -> int:
    with open(into_path, encoding="utf-8") as f:
        doc = json.load(f)
    merged = 0
    for p in doc.get("points") or []:
        values = by_key.get(str(p.get("key")))
        if not values:
            continue
        counters = p.get("counters") if isinstance(p.get("counters"), dict) else {}
        counters.update(values)
        p["counters"] = counters
        merged += 1
    doc["counters_from"] = source
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(into_path)), suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, into_path)
    return merged


def out_path_of(command: list[str]) -> str | None:
    for i, a in enumerate(command):
        if a == "--out" and i + 1 < len(command):
            return command[i + 1]
        if a.startswith("--out="):
            return a[len("--out="):]
    return None


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    command: list[str] = []
    if "--" in args_in:
        k = args_in.index("--")
        args_in, command = args_in[:k], args_in[k + 1:]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--into", help="results document to merge into (default: the profiled run's --out)")
    ap.add_argument("--ncu", default=os.environ.get("NCU", "ncu"), help="the ncu binary (default: ncu, or $NCU)")
    ap.add_argument("--metrics", default="hit-rates", choices=sorted(METRIC_SETS),
                    help="the counters to take (default: %(default)s)")
    ap.add_argument("--kernels", default=DEFAULT_KERNELS,
                    help="regex of the kernel names to profile (default: %(default)s)")
    ap.add_argument("--from-csv", help="merge this saved ncu CSV instead of running a command")
    ap.add_argument("--profiled", help="with --from-csv: the results document of the profiled run")
    ap.add_argument("--keep-csv", help="also write the ncu CSV here")
    args = ap.parse_args(args_in)
    metrics, per = METRIC_SETS[args.metrics]

    if args.from_csv:
        if not args.profiled or command:
            ap.error("--from-csv needs --profiled RESULTS.json and no command")
        with open(args.from_csv, encoding="utf-8") as f:
            text = f.read()
        profiled = args.profiled
        source = {"tool": "ncu", "metrics": list(metrics), "csv": os.path.abspath(args.from_csv)}
    else:
        if not command:
            ap.error("give the harness command after --")
        profiled = out_path_of(command)
        if not profiled:
            ap.error("the harness command must write a results document (--out FILE)")
        ncu = shutil.which(args.ncu) or (args.ncu if os.path.exists(args.ncu) else None)
        if not ncu:
            print(f"ncu_counters.py: {args.ncu} not found (Nsight Compute); {args.metrics} not measured",
                  file=sys.stderr)
            return 1
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "ncu.csv")
            full = [ncu, "--clock-control", "none", "--kernel-name", f"regex:{args.kernels}",
                    "--metrics", ",".join(metrics), "--csv", "--log-file", log] + command
            print("ncu_counters.py: " + " ".join(full), file=sys.stderr)
            r = subprocess.run(full)
            if r.returncode != 0:
                print(f"ncu_counters.py: the profiled command exited with {r.returncode}", file=sys.stderr)
                return 1
            with open(log, encoding="utf-8", errors="replace") as f:
                text = f.read()
        if args.keep_csv:
            with open(args.keep_csv, "w", encoding="utf-8") as f:
                f.write(text)
        source = {"tool": "ncu --clock-control none", "metrics": list(metrics), "command": command}

    launches = parse_csv(text)
    with open(profiled, encoding="utf-8") as f:
        points = json.load(f).get("points") or []
    try:
        by_key = assign(points, launches, metrics, per)
    except MergeError as e:
        print(f"ncu_counters.py: {e}", file=sys.stderr)
        return 1
    into = args.into or profiled
    merged = merge(into, by_key, source)
    if args.metrics == "bounds":
        for key, counters in by_key.items():
            print(f"{key}: bound by {bound_of(counters)} ("
                  + ", ".join(f"{BOUND_UNITS[c]} {v:.0f}%" for c, v in counters.items()) + ")")
    print(f"ncu_counters.py: {len(launches)} profiled launch(es), counters of {merged} point(s) merged into {into}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
