#!/usr/bin/env python3
"""scripts/ncu_counters.py without Nsight Compute: a saved ncu CSV is mapped
to the points of the profiled run in launch order (warm-up + repetitions per
point, block and grid checked), and the per-point medians are merged as
counters into another document by point key; launches that match no point are
an error; the verdict rules and plot.py read the merged counters."""

import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.environ.get("HARNESS_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "ncu_counters.py")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import ncu_counters as N  # noqa: E402
import results_doc as rd  # noqa: E402
import verdict_rules as VR  # noqa: E402

HEADER = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size",'
          '"Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"')


def launch_rows(lid, kernel, block, grid, l1, l2):
    base = f'"{lid}","1","harness","h","{kernel}","1","7","({block}, 1, 1)","({grid}, 1, 1)","0","9.0",' \
           '"Command line profiler metrics",'
    return [base + f'"l1tex__t_sector_hit_rate.pct","%","{l1}"',
            base + f'"lts__t_sector_hit_rate.pct","%","{l2}"']


def point(key, variant, group_size, groups, warmup=1, reps=2, status="ok"):
    p = {"key": key, "framework": "memory", "variant": variant, "app": "byte-scan", "backend": "cuda",
         "device_index": 0, "device_name": "NVIDIA H200", "status": status,
         "params": {"group_size": str(group_size), "groups": str(groups)},
         "axes": {"group_size": str(group_size)}, "counters": {"groups": float(groups), "threads": 1.0},
         "validation": {"status": "passed" if status == "ok" else "skipped"}}
    if status == "ok":
        p["measurement"] = {"warmup": warmup, "repetitions": reps, "stopped": "min_reps", "rel_spread": 0.0,
                            "cold": False}
    return p


class NcuCountersTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        d = self.tmp.name
        self.points = [point("scan-l1/gs=32", "scan-l1", 32, 132),
                       point("scan-l1/gs=64", "scan-l1", 64, 132, status="skipped"),
                       point("l2/gs=64", "l2", 64, 4),  # its kernel is not profiled
                       point("scan-l1/gs=1024", "scan-l1", 1024, 132)]
        self.profiled = os.path.join(d, "profiled.json")
        with open(self.profiled, "w") as f:
            json.dump({"schema_version": 2, "points": self.points}, f)
        timed = copy.deepcopy({"schema_version": 2, "points": self.points})
        for p in timed["points"]:
            p["counters"]["kept"] = 1.0
        self.timed = os.path.join(d, "timed.json")
        with open(self.timed, "w") as f:
            json.dump(timed, f)
        rows = ["==PROF== Connected to process 1", HEADER]
        rows += launch_rows(1, "memory_scan_ca", 32, 132, 90.0, 99.0)
        rows += launch_rows(2, "memory_scan_ca", 32, 132, 96.0, 98.0)
        rows += launch_rows(3, "memory_scan_ca", 32, 132, 97.0, 97.0)
        rows += launch_rows(4, "memory_scan_ca", 1024, 132, "10.5", "1,2.5")  # "12.5" with a separator
        rows += launch_rows(5, "memory_scan_ca", 1024, 132, 11.0, 13.0)
        rows += launch_rows(6, "memory_scan_ca", 1024, 132, 12.0, 14.0)
        self.csv = os.path.join(d, "ncu.csv")
        with open(self.csv, "w") as f:
            f.write("\n".join(rows) + "\n")

    def run_script(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)

    def test_parse_groups_metrics_by_launch(self):
        with open(self.csv) as f:
            launches = N.parse_csv(f.read())
        self.assertEqual([l["id"] for l in launches], ["1", "2", "3", "4", "5", "6"])
        self.assertEqual(launches[3]["metrics"], {"l1tex__t_sector_hit_rate.pct": 10.5,
                                                  "lts__t_sector_hit_rate.pct": 12.5})

    def test_merges_medians_by_key_into_another_document(self):
        r = self.run_script("--from-csv", self.csv, "--profiled", self.profiled, "--into", self.timed)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("6 profiled launch(es), counters of 2 point(s)", r.stdout)
        with open(self.timed) as f:
            doc = json.load(f)
        by_key = {p["key"]: p for p in doc["points"]}
        self.assertEqual(by_key["scan-l1/gs=32"]["counters"]["l1_hit_rate"], 96.0)   # median of 90, 96, 97
        self.assertEqual(by_key["scan-l1/gs=32"]["counters"]["l2_hit_rate"], 98.0)
        self.assertEqual(by_key["scan-l1/gs=1024"]["counters"]["l1_hit_rate"], 11.0)
        self.assertEqual(by_key["scan-l1/gs=1024"]["counters"]["kept"], 1.0)
        self.assertNotIn("l1_hit_rate", by_key["l2/gs=64"]["counters"])
        self.assertEqual(doc["counters_from"]["metrics"], list(N.METRICS))
        # The rules and plots read them as counter: metrics.
        self.assertEqual(rd.stat(by_key["scan-l1/gs=1024"], "counter:l2_hit_rate"), 13.0)
        rule = {"kind": "drops", "candidate": {"variant": "scan-l1"}, "x": "group_size",
                "metric": "counter:l1_hit_rate", "min_drop": 0.5}
        vs = VR.evaluate("t", rule, doc["points"])
        self.assertEqual([v.verdict for v in vs], [VR.HOLDS])
        self.assertIn("group_size=32 96, group_size=1024 11", vs[0].detail)

    def test_launches_that_match_no_point_are_an_error(self):
        with open(self.csv, "a") as f:
            f.write("\n".join(launch_rows(7, "memory_scan_ca", 256, 132, 50.0, 50.0)) + "\n")
        r = self.run_script("--from-csv", self.csv, "--profiled", self.profiled)
        self.assertEqual(r.returncode, 1)
        self.assertIn("1 profiled launch(es) matched no point", r.stderr)

    def test_a_launch_of_another_shape_inside_a_point_is_an_error(self):
        with open(self.csv) as f:
            text = f.read().replace('"2","1","harness","h","memory_scan_ca","1","7","(32, 1, 1)"',
                                    '"2","1","harness","h","memory_scan_ca","1","7","(64, 1, 1)"')
        with open(self.csv, "w") as f:
            f.write(text)
        r = self.run_script("--from-csv", self.csv, "--profiled", self.profiled)
        self.assertEqual(r.returncode, 1)
        self.assertIn("is not this point's", r.stderr)

    def test_without_ncu_it_says_so(self):
        r = self.run_script("--ncu", "/nonexistent/ncu", "--", "harness", "run", "--out", self.timed)
        self.assertEqual(r.returncode, 1)
        self.assertIn("not found (Nsight Compute)", r.stderr)


if __name__ == "__main__":
    unittest.main()
