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


def headless():
    """pyplot on the Agg backend, the plot module and the results-document model (for tests of the figure's
    content)."""
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import plot as P
    import results_doc as rd
    return plt, P, rd
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

    @unittest.skipUnless(HAVE_MPL, "matplotlib is not installed")
    def test_version_2_example_lines_over_an_axis(self):
        r = run(self.out, C.EXAMPLE_V2, C.REFERENCE)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assert_png("core.reduction.png")
        self.assert_png("mars.wordcount-smoke.png")

    @unittest.skipUnless(HAVE_MPL, "matplotlib is not installed")
    def test_lines_content_axis_values_fractions_and_skipped(self):
        plt, P, rd = headless()

        exp = rd.merge_experiments([C.load_example_v2()])[0]
        fig = P.plot_lines(exp, plt)
        try:
            ax = fig.axes[0]
            lines = {ln.get_label(): ln for ln in ax.get_lines() if not ln.get_label().startswith("_")}
            # one line per series and value of the other axis; the cpu variant has no group_size
            self.assertEqual(sorted(lines), ["reduction/tree @ cuda:H100 80GB HBM3 segment=1024",
                                             "reduction/tree @ cuda:H100 80GB HBM3 segment=1048576"])
            short = lines["reduction/tree @ cuda:H100 80GB HBM3 segment=1024"]
            self.assertEqual(list(short.get_xdata()), [64.0, 256.0])  # group_size=1024 was skipped
            self.assertEqual([round(y, 3) for y in short.get_ydata()], [0.552, 0.741])
            long = lines["reduction/tree @ cuda:H100 80GB HBM3 segment=1048576"]
            self.assertEqual(list(long.get_xdata()), [64.0, 256.0, 1024.0])
            self.assertEqual(ax.get_xscale(), "log")  # powers of two
            self.assertEqual([t.get_text() for t in ax.get_xticklabels()], ["64", "256", "1024"])
            self.assertIn("d2d_copy", ax.get_ylabel())
        finally:
            plt.close(fig)

        # y = rate:<name>, x values not all powers of two -> linear
        doc = C.make_document_v2([C.make_v2_point(axes={"group_size": str(g), "segment": "1024"}, fraction=f)
                                  for g, f in ((96, 0.5), (160, 0.6), (224, 0.7))], experiment_id="x.rate")
        doc["experiment"]["plot"] = {"kind": "lines", "x": "group_size", "y": "rate:dram@reduce"}
        exp = rd.merge_experiments([doc])[0]
        fig = P.plot_lines(exp, plt)
        try:
            ax = fig.axes[0]
            (line,) = [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]
            self.assertEqual([round(y) for y in line.get_ydata()], [1000, 1200, 1400])  # fraction x 2000 GB/s
            self.assertEqual(ax.get_xscale(), "linear")
            self.assertEqual(ax.get_ylabel(), "dram@reduce (GB/s)")
        finally:
            plt.close(fig)

    @unittest.skipUnless(HAVE_MPL, "matplotlib is not installed")
    def test_speedup_pairs_candidates_with_baselines_per_app(self):
        plt, P, rd = headless()

        def point(app, gpus, n, fraction, status="ok"):
            return C.make_v2_point(variant="multi", app=app, axes={"gpus": str(gpus), "n": str(n)},
                                   fraction=fraction, status=status)
        points = [point(app, 1, n, 0.4) for app in ("a", "b") for n in (4, 16)]
        points += [point("a", 2, 4, 0.8), point("a", 2, 16, 0.6), point("b", 2, 4, 0.5),
                   point("b", 2, 16, 0.9, status="skipped"),  # skipped: not drawn
                   point("c", 2, 4, 0.8)]  # no baseline: not drawn
        rule = {"kind": "faster", "candidate": {"variant": "multi", "params": {"gpus": 2}},
                "baseline": {"variant": "multi", "params": {"gpus": 1}}, "metric": "total_ms",
                "min_speedup": 1.5, "vary": ["gpus"]}
        doc = C.make_document_v2(points, verdict=rule, experiment_id="x.speedup")
        doc["experiment"]["plot"] = {"kind": "speedup", "x": "n"}
        exp = rd.merge_experiments([doc])[0]

        def expected(app, n, fraction):
            base = rd.stat(point(app, 1, n, 0.4), "total_ms")
            return round(base / rd.stat(point(app, 2, n, fraction), "total_ms"), 6)
        fig = P.plot_speedup(exp, plt)
        try:
            drawn = {ax.get_title(): ax for ax in fig.axes if ax.get_title()}
            self.assertEqual(sorted(drawn), ["a @ cuda:0 (NVIDIA H100 80GB HBM3)",
                                             "b @ cuda:0 (NVIDIA H100 80GB HBM3)"])
            (a,) = [ln for ln in drawn["a @ cuda:0 (NVIDIA H100 80GB HBM3)"].get_lines() if ln.get_label() == "gpus=2"]
            self.assertEqual(list(a.get_xdata()), [4.0, 16.0])
            self.assertEqual([round(y, 6) for y in a.get_ydata()], [expected("a", 4, 0.8), expected("a", 16, 0.6)])
            self.assertGreater(a.get_ydata()[0], 1.0)
            (b,) = [ln for ln in drawn["b @ cuda:0 (NVIDIA H100 80GB HBM3)"].get_lines() if ln.get_label() == "gpus=2"]
            self.assertEqual(list(b.get_xdata()), [4.0])
            self.assertEqual([round(y, 6) for y in b.get_ydata()], [expected("b", 4, 0.5)])
            # the 1x and min_speedup guides
            guides = sorted(ln.get_ydata()[0] for ln in drawn["b @ cuda:0 (NVIDIA H100 80GB HBM3)"].get_lines()
                            if ln.get_label().startswith("_"))
            self.assertEqual(guides, [1.0, 1.5])
        finally:
            plt.close(fig)

    @unittest.skipUnless(HAVE_MPL, "matplotlib is not installed")
    def test_bars_leave_skipped_points_out(self):
        plt, P, rd = headless()

        pts = [C.make_v2_point(axes={"group_size": "64", "segment": "1024"}, fraction=0.5),
               C.make_v2_point(variant="shuffle", axes={"group_size": "64", "segment": "1024"}, status="skipped",
                               skip_reason="no shuffle")]
        exp = rd.merge_experiments([C.make_document_v2(pts, experiment_id="x.bars2")])[0]
        fig = P.plot_bars(exp, plt)
        try:
            ax = fig.axes[0]
            legend = [t.get_text() for t in ax.get_legend().get_texts()]
            self.assertEqual(legend, ["reduction/tree @ cuda:H100 80GB HBM3"])
            self.assertEqual(len([p for p in ax.patches if p.get_height() > 0]), 1)
            self.assertNotIn("skipped", [t.get_text() for t in ax.texts])
        finally:
            plt.close(fig)

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
