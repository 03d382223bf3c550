#!/usr/bin/env python3
"""verdicts.py, the command line: verdicts of results files as JSON, its help
and its exit codes."""

import json
import os
import subprocess
import sys
import unittest

import _common as C
import results_doc as rd
import verdict_rules as VR

SCRIPT = os.path.join(C.SCRIPTS, "verdicts.py")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, check=False)


class CommandLineTest(unittest.TestCase):
    def test_prints_the_verdicts_as_json(self):
        r = run(C.EXAMPLE, C.EXAMPLE_V2)
        self.assertEqual(r.returncode, 0, r.stderr)
        expected = [v.to_dict() for v in VR.evaluate_documents(rd.load_documents([C.EXAMPLE, C.EXAMPLE_V2]))]
        self.assertEqual(json.loads(r.stdout), expected)
        self.assertEqual([v["experiment"] for v in expected],
                         ["mars.wordcount-smoke", "mars.wordcount-smoke", "core.reduction"])

    def test_help(self):
        for flag in ("-h", "--help"):
            r = run(flag)
            self.assertEqual(r.returncode, 0)
            self.assertIn("python3 scripts/verdicts.py [--text] RESULTS.json...", r.stdout)
        r = run()
        self.assertEqual(r.returncode, 2)
        self.assertIn("python3 scripts/verdicts.py [--text] RESULTS.json...", r.stdout)

    def test_text_lines_as_the_report_writes_them(self):
        # `harness run --experiment` ends with these lines.
        r = run("--text", C.EXAMPLE, C.EXAMPLE_V2)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        verdicts = VR.evaluate_documents(rd.load_documents([C.EXAMPLE, C.EXAMPLE_V2]))
        self.assertEqual(len(lines), len(verdicts))
        for line, v in zip(lines, verdicts):
            self.assertTrue(line.startswith(f"verdict {v.experiment} on "), line)
            self.assertIn(f": {v.verdict}", line)
            if v.detail:
                self.assertIn(v.detail, line)
        self.assertEqual(run("--text").returncode, 2)

    def test_pocl_verdicts_say_the_device_is_a_cpu(self):
        doc = C.make_document([C.make_point("cpu", "cpu", "1MiB", C.MiB, 2.0),
                               C.make_point("mars", "opencl", "1MiB", C.MiB, 1.0)],
                              verdict={"kind": "faster", "candidate": {"framework": "mars"},
                                       "baseline": {"framework": "cpu"}})
        path = C.write_json(os.path.join(self.tmp, "pocl.json"), doc)
        r = run("--text", path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("the device is a CPU", r.stdout)
        v = json.loads(run(path).stdout)[0]
        self.assertEqual(v["backend"], "opencl")
        self.assertIn("PoCL", v["note"])

    def setUp(self):
        import tempfile
        self.tmp = tempfile.mkdtemp(prefix="verdicts-test-")

    def test_unreadable_input(self):
        r = run(os.path.join(C.ROOT, "no-such-results.json"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("verdicts.py:", r.stderr)
        self.assertIn("cannot read", r.stderr)
        self.assertEqual(r.stdout, "")


if __name__ == "__main__":
    unittest.main()
