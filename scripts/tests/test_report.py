#!/usr/bin/env python3
"""report.py: report.md and verdicts.json from the example and crafted documents."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import _common as C

SCRIPT = os.path.join(C.SCRIPTS, "report.py")
MiB = 1 << 20


def run(out_dir, *files):
    return subprocess.run([sys.executable, SCRIPT, "--out-dir", out_dir, *files],
                          capture_output=True, text=True, check=False)


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.out = os.path.join(self.tmp.name, "out")

    def read(self, name):
        with open(os.path.join(self.out, name), encoding="utf-8") as f:
            return f.read()

    def test_example(self):
        r = run(self.out, C.EXAMPLE)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        md = self.read("report.md")
        self.assertIn("mars.wordcount-smoke", md)
        self.assertTrue("holds" in md or "does not hold" in md)
        self.assertIn("**holds**", md)
        self.assertIn("**not run**", md)
        for text in ("gpu-h100-07", "NVIDIA H100 80GB HBM3", "3f9c2e1a7b04", "d2d_copy",
                     "Mars on a GPU is faster", "median total ms", "CL_MEM_OBJECT_ALLOCATION_FAILURE",
                     "Per-phase medians", "copy_in"):
            self.assertIn(text, md)
        verdicts = json.loads(self.read("verdicts.json"))
        self.assertEqual({(v["backend"], v["verdict"]) for v in verdicts},
                         {("cuda", "holds"), ("opencl", "not run")})
        for v in verdicts:
            self.assertEqual(v["experiment"], "mars.wordcount-smoke")
            for field in ("device", "detail"):
                self.assertIn(field, v)

    def test_mars_reports_carry_table_5_counted_from_the_sources(self):
        run(self.out, C.EXAMPLE)  # a mars.* experiment
        md = self.read("report.md")
        self.assertIn("## mars.tab5: lines of user code per app", md)
        self.assertIn("| SM (stringmatch) |", md)
        self.assertIn("| 173 | 250 |", md)  # the paper's Mars and Phoenix counts for SM
        sys.path.insert(0, C.SCRIPTS)
        import mars_tab5
        path = os.path.join(self.tmp.name, "x.clh")
        with open(path, "w", encoding="utf-8") as f:
            f.write("/* a\n comment */\nint a; // note\n\n// only a comment\n  b();\n")
        self.assertEqual(mars_tab5.code_lines(path), 2)

    def test_table_5_shows_the_experiments_counts_when_present(self):
        sys.path.insert(0, C.SCRIPTS)
        import report
        pts = [C.make_v2_point("user-code", {}, framework="tables", app=a, backend="cpu", device_name="Host CPU")
               for a in ("mars-ii", "mars-sm")]
        pts[0]["counters"] = {"user_lines": 80.0, "paper_mars_lines": 375.0}
        pts[1]["counters"] = {"user_lines": 24.0, "paper_mars_lines": 173.0}
        md = "\n".join(report.tab5_section(pts))
        self.assertIn("ours, experiment (cpu:0", md)
        self.assertIn("| SM (stringmatch) | 24 |", md)
        self.assertIn("| 173 | 250 |", md)
        self.assertIn("(#exp-mars-tab5)", md)
        self.assertNotIn("ours, experiment", "\n".join(report.tab5_section(None)))

    def test_figure_link_when_png_exists(self):
        os.makedirs(self.out)
        with open(os.path.join(self.out, "mars.wordcount-smoke.png"), "wb") as f:
            f.write(b"\x89PNG\r\n")
        run(self.out, C.EXAMPLE)
        self.assertIn("![mars.wordcount-smoke](mars.wordcount-smoke.png)", self.read("report.md"))

    def test_does_not_hold_still_exit_0_and_merges_files(self):
        rule = {"kind": "faster", "candidate": {"framework": "mars"}, "baseline": {"framework": "cpu"}}
        a = C.write_json(os.path.join(self.tmp.name, "a.json"),
                         C.make_document([C.make_point("cpu", "cpu", "4MiB", 4 * MiB, 1.0)], rule, "x.slow"))
        b = C.write_json(os.path.join(self.tmp.name, "b.json"),
                         C.make_document([C.make_point("mars", "cuda", "4MiB", 4 * MiB, 3.0)], rule, "x.slow"))
        r = run(self.out, a, b)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        md = self.read("report.md")
        self.assertIn("**does not hold**", md)
        self.assertEqual(md.count("## x.slow"), 1)  # one section for the merged experiment

    def table_rows(self, md, heading):
        """Rows (lists of cells) of the first table after `heading`."""
        lines = md[md.index(heading):].splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("| "))
        rows = []
        for line in lines[start + 2:]:
            if not line.startswith("| "):
                break
            rows.append([c.strip() for c in line.strip().strip("|").split(" | ")])
        return rows

    def test_version_2_example(self):
        r = run(self.out, C.EXAMPLE_V2)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        md = self.read("report.md")
        # declared policies under the claim
        self.assertIn("**Axes.** `group_size` = 64, 256, 1024; `segment` = 1024, 1048576", md)
        self.assertIn("5 to 20 repetitions; stop once the relative spread is <= 2.0%", md)
        self.assertIn("**Validation.** tolerance (rel 0.0001, abs 0).", md)
        self.assertLess(md.index("**Claim (original).**"), md.index("**Axes.**"))
        # rates table: dram@reduce at group_size=256 segment=1024 is 74.1% of d2d_copy
        rates = self.table_rows(md, "### Rates and fractions of ceilings")
        self.assertEqual(len(rates), 6 * 4 - 4 + 2 * 2)  # 5 GPU points x 4 rates + 2 CPU points x 2 rates
        row = [r for r in rates if r[1] == "1GiB group_size=256 segment=1024" and r[2] == "dram@reduce"]
        self.assertEqual(len(row), 1)
        self.assertEqual(row[0][0], "reduction/tree @ cuda:H100 80GB HBM3")
        self.assertEqual(row[0][3], "2155.5 GB/s")
        self.assertEqual(row[0][4], "reduce")
        self.assertEqual(row[0][5], "d2d_copy 2908.0 GB/s")
        self.assertEqual(row[0][6], "74.1%")
        h2d = [r for r in rates if r[1] == "1GiB group_size=256 segment=1024" and r[2] == "h2d@copy_in"][0]
        self.assertEqual((h2d[4], h2d[5].split()[0]), ("copy_in", "h2d_pinned"))
        cpu = [r for r in rates if r[0].startswith("reduction/cpu")]
        self.assertTrue(cpu and all(r[5] == "none" and r[6] == "n/a" for r in cpu))
        # skipped point: its own list with the reason, not in the numbers table
        self.assertIn("Skipped points", md)
        self.assertIn("- `reduction/tree/segsum/cuda:0/uniform-f32/1GiB/group_size=1024/segment=1024`: "
                      "segment 1024 is shorter than one work-group tile", md)
        numbers = self.table_rows(md, "### Reproduced numbers")
        self.assertEqual(len(numbers), 7)
        self.assertNotIn("1GiB group_size=1024 segment=1024", [r[1] for r in numbers])
        gs64 = [r for r in numbers if r[1] == "1GiB group_size=64 segment=1024"][0]
        self.assertEqual(gs64[6], "5 (spread, 0.8%)")
        self.assertEqual(gs64[7], "passed (tolerance)")
        self.assertIn("| repetitions (stopped, rel spread) |", md)
        self.assertIn("**holds**", md)
        self.assertIn("| host memory |", md)

    def test_crafted_version_2_rates_skipped_and_devices(self):
        pts = [C.make_v2_point(axes={"group_size": "128", "segment": "1024"}, fraction=0.6543,
                               extra_devices=[("cuda", 1, "NVIDIA H100 80GB HBM3")]),
               C.make_v2_point(axes={"group_size": "64", "segment": "1024"}, status="skipped",
                               skip_reason="needs 2 GPUs, 1 present")]
        rule = {"kind": "fraction_of_ceiling", "candidate": {"framework": "reduction"}, "rate": "dram@reduce",
                "min_fraction": 0.7}
        path = C.write_json(os.path.join(self.tmp.name, "v2.json"), C.make_document_v2(pts, rule, "x.v2"))
        r = run(self.out, path, C.REFERENCE)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        md = self.read("report.md")
        rates = self.table_rows(md, "### Rates and fractions of ceilings")
        self.assertEqual(rates, [["reduction/tree @ cuda:H100 80GB HBM3", "1GiB group_size=128 segment=1024",
                                  "dram@reduce", "1308.6 GB/s", "reduce", "d2d_copy 2000.0 GB/s", "65.4%"]])
        self.assertIn("- `reduction/tree/segsum/cuda:0/uniform-f32/1GiB/group_size=64/segment=1024`: "
                      "needs 2 GPUs, 1 present", md)
        self.assertIn("Points that used more than one device", md)
        self.assertIn("- `reduction/tree/segsum/cuda:0/uniform-f32/1GiB/group_size=128/segment=1024`: "
                      "cuda:0 (NVIDIA H100 80GB HBM3), cuda:1 (NVIDIA H100 80GB HBM3)", md)
        self.assertIn("**does not hold** \u2014 needs >= 70.0% of the ceiling", md)
        # the version-1 reference in the same report keeps its sections, without rates
        ref = md[md.index("## mars.wordcount-smoke"):]
        self.assertIn("| mars/default @ cuda:H100 80GB HBM3 | 1GiB | 3035.0 |", ref)
        self.assertNotIn("Rates and fractions", ref)
        self.assertNotIn("Skipped points", ref)
        verdicts = {v["experiment"]: v for v in json.loads(self.read("verdicts.json"))}
        self.assertEqual(verdicts["x.v2"]["verdict"], "does not hold")
        self.assertEqual(verdicts["x.v2"]["rule"], "fraction_of_ceiling")

    def test_fastest_variant_per_app_with_its_fraction_of_the_ceiling(self):
        # Two apps, two variants each; the faster differs per app. A lone
        # variant's app (single) gets no row: there is nothing to compare.
        pts = [C.make_v2_point("tree", app="a", fraction=0.8), C.make_v2_point("flat", app="a", fraction=0.4),
               C.make_v2_point("tree", app="b", fraction=0.2), C.make_v2_point("flat", app="b", fraction=0.5),
               C.make_v2_point("tree", app="single", fraction=0.3)]
        rule = {"kind": "mean_speedup", "candidate": {"framework": "reduction", "variant": "tree"},
                "baseline": {"framework": "reduction", "variant": "flat"}, "metric": "reduce", "min_mean": 1.0}
        path = C.write_json(os.path.join(self.tmp.name, "apps.json"), C.make_document_v2(pts, rule, "x.apps"))
        r = run(self.out, path)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        rows = self.table_rows(self.read("report.md"), "### Fastest variant per app (by reduce)")
        self.assertEqual([row[1:3] for row in rows], [["a 1GiB group_size=256 segment=1024", "reduction/tree"],
                                                      ["b 1GiB group_size=256 segment=1024", "reduction/flat"]])
        self.assertEqual(rows[0][4], "2x reduction/flat")
        self.assertEqual(rows[1][4], "2.5x reduction/tree")
        self.assertIn("dram@reduce", rows[0][5])
        self.assertIn("= 80.0% of d2d_copy", rows[0][5])
        self.assertIn("= 50.0% of d2d_copy", rows[1][5])
        # A variant measured twice (in two files) is not its own runner-up.
        again = C.write_json(os.path.join(self.tmp.name, "again.json"),
                             C.make_document_v2([C.make_v2_point("tree", app="a", fraction=0.7)], rule, "x.apps"))
        self.assertEqual(run(self.out, path, again).returncode, 0)
        rows = self.table_rows(self.read("report.md"), "### Fastest variant per app (by reduce)")
        self.assertEqual(rows[0][4], "2x reduction/flat")
        # A metric that is not a time (a counter) ranks by total_ms instead.
        rule["metric"] = "counter:blocks"
        path = C.write_json(os.path.join(self.tmp.name, "counter.json"), C.make_document_v2(pts, rule, "x.c"))
        self.assertEqual(run(self.out, path).returncode, 0)
        md = self.read("report.md")
        self.assertNotIn("Fastest variant per app (by counter", md)
        rows = self.table_rows(md, "### Fastest variant per app (by total_ms)")
        self.assertEqual([row[2] for row in rows], ["reduction/tree", "reduction/flat"])
        self.assertEqual(rows[0][5], "none")  # the point's rate is over reduce, not total_ms

    def test_time_section_sums_each_files_wall_time(self):
        a = C.make_document_v2([C.make_v2_point()], experiment_id="x.a")
        a["wall_s"] = 12.5
        b = C.make_document_v2([C.make_v2_point(), C.make_v2_point(variant="flat")], experiment_id="x.b")
        b.pop("wall_s", None)  # an older file: updated_at - started_at
        b["started_at"], b["updated_at"] = "2026-11-26T01:00:00Z", "2026-11-26T01:01:30Z"
        paths = []
        for name, doc in (("a.json", a), ("b.json", b)):
            paths.append(os.path.join(self.tmp.name, name))
            with open(paths[-1], "w", encoding="utf-8") as f:
                json.dump(doc, f)
        r = run(self.out, *paths)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        md = self.read("report.md")
        section = md[md.index("## Time"):md.index("## Environments")]
        self.assertIn("| `a.json` | x.a |", section)
        self.assertIn("| 12.5 |", section)
        self.assertIn("| `b.json` | x.b |", section)
        self.assertIn("| 90.0 |", section)
        self.assertIn("**102.5** s (1.7 min)", section)

    def test_unreadable_input_exit_2(self):
        self.assertEqual(run(self.out, os.path.join(self.tmp.name, "missing.json")).returncode, 2)
        junk = os.path.join(self.tmp.name, "junk.json")
        with open(junk, "w") as f:
            f.write("[1, 2")
        self.assertEqual(run(self.out, junk).returncode, 2)


if __name__ == "__main__":
    unittest.main()
