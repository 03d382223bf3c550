#!/usr/bin/env python3
"""mars.tab5 end to end: `harness run --experiment mars.tab5 --backend cpu`
writes a results document whose counters (the C++ count of the embedded
sources) equal scripts/mars_tab5.py's rows (the independent Python count of the
files in this checkout), app by app, beside the paper's numbers.

env: HARNESS_BIN (the harness binary), HARNESS_SOURCE_DIR (the repository)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

SRC = os.environ.get("HARNESS_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
sys.path.insert(0, os.path.join(SRC, "scripts"))
import mars_tab5  # noqa: E402

# tables/user-code's apps, by the table's mapreduce app.
APPS = {"invertedindex": "mars-ii", "stringmatch": "mars-sm", "similarity": "mars-ss",
        "matrixmult": "mars-mm", "pageviewcount": "mars-pvc", "pageviewrank": "mars-pvr"}


class Tab5CrossCheck(unittest.TestCase):
    def test_cpp_counts_equal_the_python_counts(self):
        binary = os.environ.get("HARNESS_BIN")
        if not binary:
            self.skipTest("HARNESS_BIN not set")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "tab5.json")
            r = subprocess.run([binary, "run", "--experiment", "mars.tab5", "--backend", "cpu", "--out", out,
                                "--data-dir", os.path.join(tmp, "data")],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            with open(out, encoding="utf-8") as f:
                doc = json.load(f)
        points = {p["app"]: p for p in doc["points"]}
        self.assertEqual(sorted(points), sorted(APPS.values()))
        for app, (mars, phoenix) in mars_tab5.PAPER.items():
            p = points[APPS[app]]
            self.assertEqual(p["status"], "ok", p.get("error"))
            self.assertEqual(p["validation"]["status"], "passed")
            c = p["counters"]
            self.assertEqual(c["user_lines"], mars_tab5.app_lines(SRC, app), app)
            self.assertEqual(c["paper_mars_lines"], mars, app)
            self.assertEqual(c["paper_phoenix_lines"], phoenix, app)


if __name__ == "__main__":
    unittest.main()
