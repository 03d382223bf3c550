#!/usr/bin/env python3
"""plot.py: a non-empty PNG (and PDF) per experiment, headless."""

import os
import subprocess
import sys
import tempfile
import unittest

import _common as C

try:
    import matplotlib  # noqa: F401
    HAVE_MPL = True
except ImportError:
    HAVE_MPL = False

SCRIPT = os.path.join(C.SCRIPTS, "plot.py")
MiB = 1 << 20


def run(out_dir, *files):
    env = dict(os.environ, MPLBACKEND="Agg")
    env.pop("DISPLAY", None)
    return subprocess.run([sys.executable, SCRIPT, "--out-dir", out_dir, *files],
                          capture_output=True, text=True, check=False, env=env)


class PlotTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.out = os.path.join(self.tmp.name, "figs")

    def assert_png(self, name):
        path = os.path.join(self.out, name)
        self.assertTrue(os.path.isfile(path), path)
        with open(path, "rb") as f:
            head = f.read(8)
        self.assertEqual(head, b"\x89PNG\r\n\x1a\n")
        self.assertGreater(os.path.getsize(path), 1000)

    @unittest.skipUnless(HAVE_MPL, "matplotlib is not installed")
    def test_example_bars(self):
        r = run(self.out, C.EXAMPLE)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assert_png("mars.wordcount-smoke.png")
        self.assertGreater(os.path.getsize(os.path.join(self.out, "mars.wordcount-smoke.pdf")), 1000)

    @unittest.skipUnless(HAVE_MPL, "matplotlib is not installed")
    def test_merged_files_lines_and_failures(self):
        pts = [C.make_point("mars", "cuda", f"{s}MiB", s * MiB, float(s)) for s in (1, 2, 4, 8)]
        pts[1] = C.make_point("mars", "cuda", "2MiB", 2 * MiB, 2.0, status="failed", validation="failed")
        pts[2] = C.make_point("mars", "cuda", "4MiB", 4 * MiB, 0, status="error", error="oom")
        doc = C.make_document(pts, experiment_id="x.sweep")
        doc["experiment"]["plot"] = {"kind": "lines"}
        a = C.write_json(os.path.join(self.tmp.name, "a.json"), doc)
        other = C.make_document([C.make_point("cpu", "cpu", "1MiB", MiB, 3.0)], experiment_id="x.sweep")
        other["experiment"]["plot"] = {"kind": "lines"}
        b = C.write_json(os.path.join(self.tmp.name, "b.json"), other)
        bars = C.make_document(pts, experiment_id="x.bars")
        bars["experiment"]["plot"] = {"kind": "no-such-kind"}  # falls back to bars
        c = C.write_json(os.path.join(self.tmp.name, "c.json"), bars)
        r = run(self.out, a, b, c)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assert_png("x.sweep.png")
        self.assert_png("x.bars.png")
        self.assertIn("unknown plot kind", r.stderr)

    def test_without_matplotlib_exit_3(self):
        code = ("import runpy, sys; sys.modules['matplotlib'] = None; "
                f"sys.argv = ['plot.py', '--out-dir', {self.out!r}, {C.EXAMPLE!r}]; "
                f"runpy.run_path({SCRIPT!r}, run_name='__main__')")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
        self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
        self.assertIn("matplotlib", r.stdout)
        self.assertEqual(len(r.stdout.strip().splitlines()), 1)

    def test_unreadable_input_exit_2(self):
        if not HAVE_MPL:
            self.skipTest("matplotlib is not installed")
        self.assertEqual(run(self.out, os.path.join(self.tmp.name, "missing.json")).returncode, 2)


if __name__ == "__main__":
    unittest.main()
