#!/usr/bin/env python3
"""ncu_counters.py: Nsight Compute's CSV parsed, its launches assigned to the
points of the profiled run in run order (warm-up runs, repetitions and
launches per run), and the counters merged into a results document."""

import json
import os
import tempfile
import unittest

import _common as C
import ncu_counters as N

HEADER = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size",'
          '"Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"')


def csv_text(launches):
    """ncu --csv output for launches [(kernel, block, grid, {metric: value})]."""
    lines = ["==PROF== Connected to process 1", HEADER]
    for i, (kernel, block, grid, metrics) in enumerate(launches):
        for name, value in metrics.items():
            lines.append(f'"{i}","1","harness","h","{kernel}","1","7","({block}, 1, 1)","({grid}, 1, 1)",'
                         f'"0","9.0","Command line profiler metrics","{name}","inst","{value:,}"')
    return "\n".join(lines) + "\n"


def point(key, group_size, groups, warmup=1, reps=2, launches_per_run=None, status="ok"):
    counters = {"groups": groups}
    if launches_per_run is not None:
        counters["kernel_launches"] = launches_per_run
    return {"key": key, "status": status, "params": {"group_size": str(group_size)}, "counters": counters,
            "measurement": {"warmup": warmup, "repetitions": reps}}


EXEC, ISSUED = "smsp__inst_executed.sum", "smsp__inst_issued.sum"
INSTRUCTIONS = N.METRIC_SETS["instructions"][0]


class NcuCountersTest(unittest.TestCase):
    def test_csv_values_with_thousands_separators_are_read(self):
        launches = N.parse_csv(csv_text([("sl1_wc", 256, 528, {EXEC: 1234567, ISSUED: 1300000})]))
        self.assertEqual(len(launches), 1)
        self.assertEqual(launches[0]["kernel"], "sl1_wc")
        self.assertEqual(launches[0]["metrics"], {EXEC: 1234567.0, ISSUED: 1300000.0})

    def test_instructions_sum_a_runs_launches_and_take_the_median_run(self):
        # Point a: 1 warm-up + 2 repetitions, one launch a run; point b: two
        # launches (passes) a run, 3 runs.
        pts = [point("a", 256, 528), point("b", 128, 1056, launches_per_run=2)]
        runs_a = [100, 300, 200]
        runs_b = [(10, 1), (20, 2), (30, 3)]
        launches = [("sl1_wc", 256, 528, {EXEC: v, ISSUED: v + 1}) for v in runs_a]
        for first, second in runs_b:
            launches += [("sl1_mc", 128, 1056, {EXEC: first, ISSUED: first}),
                         ("sl1_mc", 128, 1056, {EXEC: second, ISSUED: second})]
        got = N.assign(pts, N.parse_csv(csv_text(launches)), INSTRUCTIONS, "run")
        self.assertEqual(got["a"], {"inst_executed": 200.0, "inst_issued": 201.0})
        self.assertEqual(got["b"], {"inst_executed": 22.0, "inst_issued": 22.0})  # runs 11, 22, 33
        # Per launch (the hit rates' way), b's median is over its 6 launches.
        got = N.assign(pts, N.parse_csv(csv_text(launches)), INSTRUCTIONS, "launch")
        self.assertEqual(got["b"]["inst_executed"], 6.5)

    def test_bounds_take_the_median_launch_and_name_the_unit_nearest_its_peak(self):
        bounds = N.METRIC_SETS["bounds"][0]
        dram, sm = "dram__throughput.avg.pct_of_peak_sustained_elapsed", "sm__throughput.avg.pct_of_peak_sustained_elapsed"
        launches = [("sl1_wc", 256, 528, {dram: d, sm: s}) for d, s in ((80, 30), (90, 20), (85, 95))]
        got = N.assign([point("a", 256, 528)], N.parse_csv(csv_text(launches)), bounds, "launch")
        self.assertEqual(got["a"], {"dram_pct": 85.0, "sm_pct": 30.0})
        self.assertEqual(N.bound_of(got["a"]), "DRAM 85%")
        self.assertEqual(N.bound_of({"issue_pct": 61.0, "l1_pct": 60.4}), "issue 61%")
        # The integer ALU pipe by name when it is nearer its peak than the SM's
        # overall throughput (a SWAR byte scan).
        self.assertEqual(N.bound_of({"sm_pct": 70.2, "alu_pct": 73.2, "fma_pct": 8.2, "dram_pct": 54.8}),
                         "integer ALU pipe 73%")
        self.assertIn("alu_pct", bounds.values())
        self.assertIn("fma_pct", bounds.values())
        self.assertIsNone(N.bound_of({"inst_executed": 5.0}))

    def test_a_point_without_profiled_launches_and_a_skipped_point_take_none(self):
        pts = [point("skipped", 256, 528, status="skipped"), point("other", 64, 8),
               point("a", 256, 528, warmup=0, reps=1)]
        launches = N.parse_csv(csv_text([("sl1_wc", 256, 528, {EXEC: 5, ISSUED: 6})]))
        self.assertEqual(N.assign(pts, launches, INSTRUCTIONS, "run"),
                         {"a": {"inst_executed": 5.0, "inst_issued": 6.0}})

    def test_launches_that_do_not_fit_the_points_are_an_error(self):
        one = [point("a", 256, 528, warmup=0, reps=2)]
        short = N.parse_csv(csv_text([("k", 256, 528, {EXEC: 1})]))
        with self.assertRaisesRegex(N.MergeError, "expected 2 launches, only 1"):
            N.assign(one, short, INSTRUCTIONS, "run")
        other_shape = N.parse_csv(csv_text([("k", 256, 528, {EXEC: 1}), ("k", 256, 99, {EXEC: 1})]))
        with self.assertRaisesRegex(N.MergeError, "is not this point's"):
            N.assign(one, other_shape, INSTRUCTIONS, "run")
        extra = N.parse_csv(csv_text([("k", 256, 528, {EXEC: 1})] * 3))
        with self.assertRaisesRegex(N.MergeError, "1 profiled launch"):
            N.assign(one, extra, INSTRUCTIONS, "run")

    def test_from_csv_merges_into_the_document(self):
        with tempfile.TemporaryDirectory() as tmp:
            doc = {"points": [point("a", 256, 528, warmup=1, reps=1), point("b", 256, 264, warmup=0, reps=1)]}
            profiled = C.write_json(os.path.join(tmp, "profiled.json"), doc)
            into = C.write_json(os.path.join(tmp, "timed.json"), doc)
            log = os.path.join(tmp, "ncu.csv")
            with open(log, "w", encoding="utf-8") as f:
                f.write(csv_text([("k", 256, 528, {EXEC: 10, ISSUED: 12}), ("k", 256, 528, {EXEC: 30, ISSUED: 36}),
                                  ("k", 256, 264, {EXEC: 7, ISSUED: 8})]))
            rc = N.main(["--metrics", "instructions", "--from-csv", log, "--profiled", profiled, "--into", into])
            self.assertEqual(rc, 0)
            with open(into, encoding="utf-8") as f:
                merged = json.load(f)
            counters = {p["key"]: p["counters"] for p in merged["points"]}
            self.assertEqual(counters["a"]["inst_executed"], 20.0)  # median of the runs 10 and 30
            self.assertEqual(counters["a"]["inst_issued"], 24.0)
            self.assertEqual(counters["b"]["inst_executed"], 7.0)
            self.assertEqual(counters["a"]["groups"], 528)  # the point's own counters kept
            self.assertEqual(merged["counters_from"]["metrics"], [EXEC, ISSUED])


if __name__ == "__main__":
    unittest.main()
