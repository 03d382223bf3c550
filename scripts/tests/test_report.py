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

    def test_unreadable_input_exit_2(self):
        self.assertEqual(run(self.out, os.path.join(self.tmp.name, "missing.json")).returncode, 2)
        junk = os.path.join(self.tmp.name, "junk.json")
        with open(junk, "w") as f:
            f.write("[1, 2")
        self.assertEqual(run(self.out, junk).returncode, 2)


if __name__ == "__main__":
    unittest.main()
